import { MFA_ACK } from "./arcadia";
import type { Locator, Page, TestInfo } from "@playwright/test";
import { testToday } from "../support/clock";
import {
  expect,
  isJs,
  loginAs,
  MONTHS,
  mailLink,
  mailMark,
  ready,
  tabTo,
  test,
  USERS,
  waitForMail,
} from "./fixtures";

/**
 * The product's main flows completed by keyboard alone (Tab, Shift+Tab, Enter, Space, arrows, typing): no
 * clicks, no fills, and no navigation by URL except to open each flow's first page. Sign-in and the thermostat
 * card back are covered by a11y-auth.spec.ts and thermostats.spec.ts.
 *
 * Data: every test starts from the reset seed (the freshData fixture), so a flow asserts the seeded state
 * before it changes it, and needs to put nothing back.
 */

const pad = (n: number) => String(n).padStart(2, "0");

const hasFocus = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** Presses Tab until one of the elements `targets` matches has the focus (a radio group is one Tab stop). */
async function tabToAny(page: Page, targets: Locator, max = 80) {
  await targets.first().waitFor({ state: "attached" });
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await targets.evaluateAll((els) => els.includes(document.activeElement as HTMLElement))) return;
  }
  throw new Error("could not reach the controls with Tab");
}

/** Presses Shift+Tab until `target` has the focus (at most `max` times). */
async function shiftTabTo(page: Page, target: Locator, max = 80) {
  await target.waitFor({ state: "attached" });
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Shift+Tab");
    if (await hasFocus(target)) return;
  }
  throw new Error("could not reach the control with Shift+Tab");
}

async function signedIn(page: Page, info: TestInfo, path: string, who: string = USERS.dana) {
  await loginAs(page, who);
  await page.goto(path);
  await ready(page, info);
}

test.describe("main flows by keyboard alone", () => {
  test("shell: the location selector opens and leads to another location's control room", async ({
    page,
  }, info) => {
    await signedIn(page, info, "/locations");
    const select = page.getByTestId("location-select");
    await tabTo(page, select.locator("summary"));
    await page.keyboard.press("Enter");
    await expect(select).toHaveAttribute("open", "");
    const menu = select.getByRole("list", { name: "Locations" });
    await expect(menu).toBeVisible();
    await tabTo(page, menu.getByRole("link", { name: "Harbor Coffee Pike Place", exact: true }), 20);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/locations\/101\/control$/);
    await expect(page.getByTestId("location-select").locator("summary")).toContainText(
      "Harbor Coffee Pike Place",
    );
  });

  test("locations: a row's actions menu leads to the spending page", async ({ page }, info) => {
    await signedIn(page, info, "/locations");
    const row = page.getByTestId("location-row-104");
    const summary = row.locator("summary");
    await tabTo(page, summary, 120);
    await expect(summary).toHaveAccessibleName(/^Actions for /);
    await page.keyboard.press("Space");
    await expect(row.locator("details")).toHaveAttribute("open", "");
    await tabTo(page, row.getByRole("link", { name: "View spending" }), 5);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/locations\/104\/spending$/);
    await expect(page.getByRole("heading", { name: "Bill History", level: 1 })).toBeVisible();
  });

  test("spending: switch the account and answer its bill flag", async ({ page }, info) => {
    // The second account of 114 (js) and of 113 (nojs) holds one unanswered flag in the reset data.
    const [location, accountId, answer, before, after, toast, pill] = isJs(info)
      ? [
          114,
          "1020",
          "Yes, this is expected",
          "Your utility delivery rate increased",
          "Utility delivery rate class updated",
          "Bill feedback received",
          "Verified",
        ]
      : [
          113,
          "1018",
          "No, please investigate",
          "Please verify energy supplier change",
          "Help Request Received — We're on it!",
          "Help is on the way!",
          "Investigating",
        ];
    await signedIn(page, info, `/locations/${location}/spending`);
    const account = page.getByLabel("Account Number");
    await tabTo(page, account);
    await page.keyboard.press("ArrowDown");
    if (!isJs(info)) {
      await tabTo(page, page.getByRole("button", { name: "Show bills" }), 2);
      await page.keyboard.press("Enter");
    }
    await expect(page).toHaveURL(new RegExp(`accountId=${accountId}`));
    await expect(page.getByLabel("Account Number")).toHaveValue(accountId);
    const flag = page.locator(".flag").filter({ has: page.getByRole("heading", { name: before }) });
    await expect(flag).toHaveCount(1);
    await tabTo(page, flag.getByRole("button", { name: answer }));
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("toast")).toContainText(toast);
    await expect(page).toHaveURL(
      new RegExp(`/locations/${location}/spending\\?accountId=${accountId}#flag-\\d+$`),
    );
    const answered = page.locator(".flag").filter({ has: page.getByRole("heading", { name: after }) });
    // The pressed button is gone: focus (JavaScript) or the fragment (without) lands on the flag's new state.
    if (isJs(info)) await expect(answered).toBeFocused();
    else await expect(answered).toBeInViewport();
    expect(page.url()).toContain(`#${await answered.getAttribute("id")}`);
    await expect(answered.locator(".pill")).toHaveText(pill);
    // Only the other answer stays on offer (rule flag-answer-history): the pressed one is gone.
    const other = answer === "Yes, this is expected" ? "No, please investigate" : "Yes, this is expected";
    await expect(answered.getByRole("button")).toHaveText([other]);
    await expect(
      page.locator(".flag").filter({ has: page.getByRole("heading", { name: before }) }),
    ).toHaveCount(0);
  });

  test("usage: the date picker shows another month", async ({ page }, info) => {
    // The servers' clock, not the machine's: the page offers the years up to the servers' today.
    const year = testToday().getUTCFullYear() - 1;
    await signedIn(page, info, "/locations/101/usage/demand");
    await tabTo(page, page.getByRole("link", { name: "Select date" }));
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog").filter({ hasText: "Select a date" });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/picker=date/);
    await tabTo(page, dialog.getByRole("link", { name: "Previous year" }));
    await page.keyboard.press("Enter");
    await expect(dialog.getByText(String(year), { exact: true })).toBeVisible();
    // Tab enters the month group (on its checked month, else its first); the arrows move to June, Space picks it.
    const months = dialog.getByRole("radio");
    await tabToAny(page, months);
    const at = await months.evaluateAll((els) => els.indexOf(document.activeElement as HTMLElement));
    for (let i = at; i < 5; i++) await page.keyboard.press("ArrowRight");
    for (let i = at; i > 5; i--) await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Space");
    await expect(dialog.getByRole("radio", { name: `June ${year}` })).toBeChecked();
    await expect(dialog.getByRole("radio", { name: `June ${year}` })).toBeFocused();
    await tabTo(page, dialog.getByRole("button", { name: "Apply" }), 3);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`period=month&start=${year}-06-01`));
    await expect(page.getByRole("heading", { name: `Demand · June ${year}` })).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });

  test("compliance: choose a month, then a thermostat", async ({ page }, info) => {
    // The servers' clock (TEST_CLOCK_START), not the machine's: the default month follows the servers' today.
    const now = testToday();
    const prev = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    // The default is the previous month. Chosen: this month a year ago (within the thermostat history; enabled
    // whichever year the page was rendered for).
    const year = now.getUTCFullYear() - 1;
    const month = now.getUTCMonth() + 1;
    await signedIn(page, info, "/override-report");
    const frame = page.getByTestId("time-frame");
    await expect(frame).toContainText(`${MONTHS[prev.getUTCMonth()]} ${prev.getUTCFullYear()}`);
    await tabTo(page, frame);
    await page.keyboard.press("Enter");
    const yearSelect = page.getByLabel("Year");
    await expect(yearSelect).toBeVisible();
    await tabTo(page, yearSelect, 3);
    // The years run from this year down: ArrowDown goes one year back (in January the default is already there).
    for (let y = prev.getUTCFullYear(); y > year; y--) await page.keyboard.press("ArrowDown");
    await expect(yearSelect).toHaveValue(String(year));
    // Tab enters the month group; the arrows move to the month, Space picks it.
    const months = page.getByRole("group", { name: "Month" }).getByRole("radio");
    await tabToAny(page, months, 2);
    const at = await months.evaluateAll((els) => els.indexOf(document.activeElement as HTMLElement));
    for (let i = at; i < month - 1; i++) await page.keyboard.press("ArrowRight");
    for (let i = at; i > month - 1; i--) await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Space");
    await expect(page.getByRole("radio", { name: MONTHS[month - 1].slice(0, 3), exact: true })).toBeChecked();
    await tabTo(page, page.getByRole("button", { name: "Apply" }), 3);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`period=month&start=${year}-${pad(month)}-01`));
    await expect(page.getByTestId("time-frame")).toContainText(`${MONTHS[month - 1]} ${year}`);

    await tabTo(page, page.getByRole("link", { name: "VIEW Front of House at 1601 S Congress Ave" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(
      new RegExp(`/override-report/1013\\?period=month&start=${year}-${pad(month)}-01`),
    );
    await expect(page.getByTestId("thermostat-header")).toHaveText(
      /1601 S Congress Ave\s*·\s*Front of House/,
    );
    await expect(page.getByTestId("time-frame")).toContainText(`${MONTHS[month - 1]} ${year}`);
  });

  test("connect utility accounts: choose a utility, review, enter credentials and connect", async ({
    page,
  }, info) => {
    await signedIn(page, info, "/authorize-arcadia");
    await expect(page.getByRole("heading", { name: "Select Utility", level: 1 })).toBeVisible();
    await tabTo(page, page.getByLabel("Search utilities"));
    await page.keyboard.type("national");
    if (!isJs(info)) await page.keyboard.press("Enter");
    // The one match is selected by the search itself; the arrow key on the select keeps it (it is the last option).
    await expect(page.getByTestId("utility-filter-status")).toHaveText(
      "1 utility found, National Grid selected",
    );
    await expect(page.getByLabel("Utility", { exact: true })).toHaveValue("prov_natgrid");
    await tabTo(page, page.getByLabel("Utility", { exact: true }));
    await page.keyboard.press("ArrowDown");
    await expect(page.getByLabel("Utility", { exact: true })).toHaveValue("prov_natgrid");
    await tabTo(page, page.getByRole("button", { name: "Continue" }), 2);
    await page.keyboard.press("Enter");

    await expect(page.getByRole("heading", { name: "Review accounts", level: 1 })).toBeVisible();
    await expect(page.getByText("Utility: National Grid")).toBeVisible();
    await tabTo(page, page.getByRole("button", { name: "Continue" }));
    await page.keyboard.press("Enter");

    await expect(page.getByRole("heading", { name: "Enter Credentials", level: 1 })).toBeVisible();
    await ready(page, info);
    // National Grid is not exempt from the MFA warning: ticked from the keyboard first (rule mfa-checkbox).
    await tabTo(page, page.getByRole("checkbox", { name: /multi-factor authentication/ }));
    await page.keyboard.press("Space");
    // The provider's Connect: its button is reached and pressed from the keyboard.
    await tabTo(page, page.getByRole("button", { name: "Connect", exact: true }));
    await page.keyboard.press("Enter");
    if (isJs(info)) {
      // Connect opens over the page with the focus on its close button; Enter closes it, nothing submitted.
      const close = page.getByRole("button", { name: "Close Connect" });
      await expect(close).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(page.getByRole("dialog", { name: "Arcadia Connect" })).toHaveCount(0);
      await expect(page.getByRole("heading", { name: "Enter Credentials", level: 1 })).toBeVisible();
    } else {
      await expect(page.getByRole("heading", { name: "Connect your utility account" })).toBeVisible();
      await tabTo(page, page.getByLabel("Utility username"));
      await page.keyboard.type(`harbor-natgrid-${info.project.name}`);
      await page.keyboard.press("Tab");
      await expect(page.getByLabel("Utility password")).toBeFocused();
      await page.keyboard.type("s3cret-pass");
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { name: "Connection(s) Initiated" })).toBeVisible();
      await expect(page.getByText(/We are connecting your National Grid accounts/)).toBeVisible();
    }
  });

  test("connect utility accounts: a rejected account number puts the focus on the invalid field", async ({
    page,
  }, info) => {
    await signedIn(page, info, "/authorize-arcadia");
    await tabTo(page, page.getByLabel("Search utilities"));
    await page.keyboard.type("edison");
    if (!isJs(info)) await page.keyboard.press("Enter");
    await expect(page.getByTestId("utility-filter-status")).toHaveText("2 utilities found");
    const utility = page.getByLabel("Utility", { exact: true });
    await tabTo(page, utility);
    // Commonwealth Edison, then Consolidated Edison.
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await expect(utility).toHaveValue("prov_coned");
    await tabTo(page, page.getByRole("button", { name: "Continue" }), 2);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Enter Credentials", level: 1 })).toBeVisible();
    await ready(page, info);
    await tabTo(page, page.getByLabel("Account number"));
    await page.keyboard.type("1$");
    await page.keyboard.press("Enter");
    await expect(page.getByText(/Enter a valid account number/)).toBeVisible();
    const focused = page.locator("*:focus");
    await expect(focused).toHaveAttribute("aria-invalid", "true");
    await expect(focused).toHaveAccessibleName("Account number");
  });

  test("settings: the Team tab is reached from My Preferences", async ({ page }, info) => {
    await signedIn(page, info, "/settings");
    if (isJs(info)) {
      // Hydrated, the tabs are one Tab stop and the arrow keys move between them.
      await tabTo(page, page.getByRole("tab", { name: "My Preferences" }));
      await page.keyboard.press("ArrowRight");
      await expect(page.getByRole("tab", { name: "Team" })).toBeFocused();
    } else {
      // Without JavaScript each tab is a link and its own Tab stop.
      await tabTo(page, page.getByRole("tab", { name: "Team" }));
    }
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/settings\?tab=team$/);
    await expect(page.getByTestId("team-table")).toBeVisible();
  });

  test("settings team: give a member access to a location, then take it back", async ({ page }, info) => {
    // Tomás has no location access in the reset data: the access is given, then taken back.
    const member = "Tomás Lindqvist";
    const location = "Harbor Coffee Ballard";
    await signedIn(page, info, "/settings?tab=team");
    const row = page.getByTestId("team-table").getByRole("row", { name: new RegExp(member) });
    await expect(row).toBeVisible();
    await expect(row).not.toContainText(location);

    for (const checked of [true, false]) {
      await tabTo(page, page.getByRole("link", { name: `Edit access for ${member}` }));
      await page.keyboard.press("Enter");
      const editor = page.getByTestId("access-editor");
      await expect(editor).toBeVisible();
      await ready(page, info);
      const box = editor.getByLabel(location, { exact: true });
      await expect(box).toBeChecked({ checked: !checked });
      await tabTo(page, box);
      await page.keyboard.press("Space");
      await expect(box).toBeChecked({ checked });
      await tabTo(page, editor.getByRole("button", { name: "Save" }));
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/\/settings\?tab=team$/);
      await expect(page.getByTestId("access-editor")).toHaveCount(0);
      await expect(page.getByTestId("toast")).toContainText(
        `Location access saved for ${member} (1 location changed).`,
      );
      if (checked) await expect(row).toContainText(location);
      else await expect(row).not.toContainText(location);
    }
  });

  test("staff: search a client, give a reason and start impersonating", async ({ page }, info) => {
    await signedIn(page, info, "/impersonate", USERS.morgan);
    await tabTo(page, page.getByRole("searchbox", { name: "Search clients" }));
    await page.keyboard.type("maple");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/impersonate\?q=maple$/);
    const client = page.getByRole("radio", { name: /Maple Dental/ });
    await tabTo(page, client);
    await page.keyboard.press("Space");
    await expect(client).toBeChecked();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("textbox", { name: "Reason" })).toBeFocused();
    await page.keyboard.type("Ticket 7730: keyboard walkthrough");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Start impersonating" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/locations$/);
    const banner = page.getByTestId("impersonation-banner");
    await expect(banner).toContainText("You are impersonating Maple Dental");
    await expect(page.getByTestId("location-row-201")).toBeVisible();

    await tabTo(page, banner.getByRole("button", { name: "Stop" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/impersonate$/);
    await expect(page.getByTestId("impersonation-banner")).toHaveCount(0);
  });

  test("staff: a start without a reason puts the focus on the Reason field", async ({ page }, info) => {
    await signedIn(page, info, "/impersonate?q=maple", USERS.morgan);
    const client = page.getByRole("radio", { name: /Maple Dental/ });
    await tabTo(page, client);
    await page.keyboard.press("Space");
    await tabTo(page, page.getByRole("button", { name: "Start impersonating" }), 3);
    await page.keyboard.press("Enter");
    await expect(page.locator("#reason-error")).toHaveText("Please give a reason (at least 3 characters)");
    const reason = page.getByRole("textbox", { name: "Reason" });
    await expect(reason).toHaveAttribute("aria-invalid", "true");
    await expect(reason).toBeFocused();
  });

  test("free bill health check: a bad e-mail is flagged, corrected and the request submitted", async ({
    page,
  }, info) => {
    await page.goto("/free-bill-health-check");
    await ready(page, info);
    await expect(page.getByRole("heading", { name: "Free bill health check", level: 1 })).toBeVisible();
    await tabTo(page, page.getByLabel("Search utilities"));
    await page.keyboard.type("xcel");
    if (!isJs(info)) await page.keyboard.press("Enter");
    await expect(page.getByTestId("utility-filter-status")).toHaveText("1 utility found");
    const utility = page.getByLabel("Utility", { exact: true });
    await tabTo(page, utility);
    await page.keyboard.press("ArrowDown");
    await expect(utility).toHaveValue("prov_xcel");
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("First name")).toBeFocused();
    await page.keyboard.type("Ada");
    await page.keyboard.press("Tab");
    await page.keyboard.type("ada@nodot");
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Company name")).toBeFocused();
    await page.keyboard.type("Ada's Bakery");
    await page.keyboard.press("Enter");

    const email = page.getByLabel("Email address");
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
    if (isJs(info)) {
      // With JavaScript the field is checked as it is left and Continue stays disabled until the form is
      // valid (spec): Enter submits nothing. Shift+Tab leads back to the flagged field.
      await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();
      await expect(page.getByRole("heading", { name: "Free bill health check", level: 1 })).toBeVisible();
      await shiftTabTo(page, email, 2);
    }
    // Without JavaScript the failed submission comes back with the focus on the first invalid field.
    await expect(email).toBeFocused();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Company name")).toHaveValue("Ada's Bakery");
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("ada@adasbakery.test");
    await page.keyboard.press("Enter");

    await expect(page.getByRole("heading", { name: "Connect your Xcel Energy account" })).toBeVisible();
    await ready(page, info);
    // The MFA warning (Xcel Energy is not exempt), then the provider's Connect: over the page with JavaScript,
    // its hosted page without; the login is typed there, by keyboard too.
    const mfa = page.getByRole("checkbox", { name: MFA_ACK });
    await tabTo(page, mfa);
    await page.keyboard.press("Space");
    await expect(mfa).toBeChecked();
    await tabTo(page, page.getByRole("button", { name: "Connect", exact: true }), 4);
    await page.keyboard.press("Enter");
    if (isJs(info)) {
      await expect(page.getByRole("dialog", { name: "Arcadia Connect" })).toBeVisible();
      const frame = page.frameLocator('iframe[title="Arcadia Connect"]');
      await tabTo(page, frame.getByLabel("Utility username"));
      await page.keyboard.type("ada-bakery");
      await page.keyboard.press("Tab");
      await page.keyboard.type("pw-123");
      await page.keyboard.press("Enter");
      await expect(frame.getByRole("heading", { name: "Credentials submitted" })).toBeVisible();
      // Connect's close button sits just before its frame.
      await shiftTabTo(page, page.getByRole("button", { name: "Close Connect" }), 5);
      await page.keyboard.press("Enter");
    } else {
      await expect(page).toHaveURL(/\/arcadia-sim\/connect\/cu_/);
      await tabTo(page, page.getByLabel("Utility username"));
      await page.keyboard.type("ada-bakery");
      await page.keyboard.press("Tab");
      await page.keyboard.type("pw-123");
      await page.keyboard.press("Enter");
    }
    await expect(page.getByRole("heading", { name: "Request Submitted" })).toBeVisible();
  });

  test("forgot password: request a reset link from the login page", async ({ page }, info) => {
    const since = await mailMark(info);
    await page.goto("/login");
    await ready(page, info);
    await expect(page.getByLabel("Email")).toBeFocused();
    await page.keyboard.type(USERS.dana);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("login-email")).toHaveText(USERS.dana);
    await tabTo(page, page.getByRole("button", { name: "Reset password" }));
    await page.keyboard.press("Enter");
    await expect(page.getByText("Check your email for a link to reset your password.")).toBeVisible();
    const mail = await waitForMail(info, USERS.dana, since, /password/i);
    expect(mailLink(mail, "Reset your password")).toMatch(/\/reset-password\?/);
  });

  test("locations: the vendor alert is dismissed", async ({ page }, info) => {
    // The dismissal lives in this test's session only.
    await signedIn(page, info, "/locations");
    const alert = page.getByTestId("vendor-alert");
    await expect(alert).toContainText("scheduled maintenance");
    await tabTo(page, alert.getByRole("button", { name: "Dismiss" }));
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("vendor-alert")).toHaveCount(0);
    await expect(page).toHaveURL(/\/locations$/);
    await expect(page.getByRole("heading", { name: "Locations", level: 1 })).toBeVisible();
  });
});

test.describe("short flows by keyboard alone", () => {
  test("search and sort the locations dashboard", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations");
    await ready(page, info);
    await tabTo(page, page.getByLabel("Search locations"));
    await page.keyboard.type("Wynwood");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/q=Wynwood/);
    const table = page.getByRole("table");
    await expect(table.getByRole("link", { name: "Harbor Coffee Wynwood", exact: true })).toBeVisible();
    await expect(table.getByRole("link", { name: "Harbor Coffee Ballard", exact: true })).toHaveCount(0);
  });

  test("sort the grid services table", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/grid-services");
    await ready(page, info);
    await tabTo(page, page.getByRole("link", { name: /^Location/ }), 80);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/sort=building_address%3AASC/);
  });

  test("switch a notification preference and switch it back", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/settings");
    await ready(page, info);
    const weekly = page.getByRole("switch", { name: "Weekly Rundown" });
    const before = true; // Dana's Weekly Rundown is on in the reset data
    await expect(weekly).toHaveAttribute("aria-checked", String(before));
    await tabTo(page, weekly, 80);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("switch", { name: "Weekly Rundown" })).toHaveAttribute(
      "aria-checked",
      String(!before),
    );
    await tabTo(page, page.getByRole("switch", { name: "Weekly Rundown" }), 80);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("switch", { name: "Weekly Rundown" })).toHaveAttribute(
      "aria-checked",
      String(before),
    );
  });
});
