import type { Locator, Page, TestInfo } from "@playwright/test";
import { acknowledgeMfa, MFA_ACK, submitInConnect } from "./arcadia";
import { expect, isJs, loginAs, mailLink, mailMark, mailsTo, ready, test, USERS } from "./fixtures";

/**
 * Connect as a person reaches it: by clicking from the sidebar (the accounts page, then its Connect button: the
 * shell's dialog with JavaScript, the /authorize-arcadia page without), never by typing a step's address.
 */

/** The flow's container: the shell's dialog with JavaScript, the page without. */
const flowOf = (page: Page, info: TestInfo): Locator =>
  isJs(info) ? page.getByRole("dialog", { name: "Connect Utility Accounts" }) : page.locator("main");

/**
 * Sidebar → Connect Utility Accounts → Connect a utility account → `utility` → Continue → (`location` for the new
 * accounts) → Continue.
 */
async function clickToCredentials(
  page: Page,
  info: TestInfo,
  search: string,
  utility: string,
  location?: string,
) {
  await page.goto("/locations");
  await ready(page, info);
  await page
    .getByRole("navigation", { name: "Sections" })
    .getByRole("link", { name: "Connect Utility Accounts" })
    .click();
  await expect(page.getByRole("heading", { name: "Connect Utility Accounts", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Connect a utility account" }).first().click();
  const flow = flowOf(page, info);
  await expect(flow.getByRole("heading", { name: "Select Utility" })).toBeVisible();
  await flow.getByLabel("Search utilities").fill(search);
  if (!isJs(info)) await flow.getByRole("button", { name: "Search" }).click();
  await flow.getByLabel("Utility", { exact: true }).selectOption({ label: utility });
  await flow.getByRole("button", { name: "Continue" }).click();
  await expect(flow.getByRole("heading", { name: "Review accounts" })).toBeVisible();
  if (location)
    await flow.getByLabel("Location for new accounts (optional)").selectOption({ label: location });
  await flow.getByRole("button", { name: "Continue" }).click();
  await expect(flow.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
  return flow;
}

/** From the shell's dialog (JavaScript) to the connect page's credentials step, which is its own document. */
async function toCredentialsPage(page: Page, info: TestInfo, flow: Locator) {
  if (isJs(info)) await flow.getByRole("link", { name: "Connect", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
  await ready(page, info);
}

/** The account numbers in the accounts page's "Not yet assigned to a location" section. */
async function unassignedNumbers(page: Page) {
  await page.goto("/accounts");
  const section = page.getByRole("region", { name: "Not yet assigned to a location" });
  if (!(await section.count())) return [];
  return section.locator("tbody tr td:first-child").allTextContents();
}

test.describe("Connect reached by clicking", () => {
  test("from the sidebar: Connect's script loads and Connect opens over the page", async ({ page }, info) => {
    // Five page loads and a dialog before Connect opens (slow without JavaScript on a busy 2-core machine).
    test.slow();
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await loginAs(page, USERS.dana);
    const flow = await clickToCredentials(page, info, "duke", "Duke Energy");
    // In the dialog the step is a way to the connect page (its own document); on the page, the button itself.
    if (isJs(info)) await flow.getByRole("link", { name: "Connect", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
    await ready(page, info);
    await acknowledgeMfa(page);
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    if (isJs(info)) {
      await expect(page.getByRole("dialog", { name: "Arcadia Connect" })).toBeVisible();
      expect(await page.evaluate(() => typeof (window as { _ArcConnect?: unknown })._ArcConnect)).toBe(
        "object",
      );
    } else {
      await expect(page).toHaveURL(/\/arcadia-sim\/connect\/cu_/);
    }
    expect(violations).toEqual([]);
  });

  test("from the onboarding checklist: the credentials step is its own document, Connect opens", async ({
    page,
  }, info) => {
    test.slow();
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await loginAs(page, USERS.alex);
    await page.goto("/locations");
    await ready(page, info);
    await page.getByRole("link", { name: "Set up your account" }).click();
    await expect(page.getByRole("heading", { name: "Set up your account", level: 1 })).toBeVisible();
    // Starting Bill Monitoring redirects to the connect page: with JavaScript, inside the same document.
    await page.getByRole("button", { name: /Bill Monitoring$/ }).click();
    await expect(page.getByRole("heading", { name: "Select Utility" })).toBeVisible();
    await ready(page, info);
    await page.getByLabel("Search utilities").fill("duke");
    if (!isJs(info)) await page.getByRole("button", { name: "Search" }).click();
    await page.getByLabel("Utility", { exact: true }).selectOption({ label: "Duke Energy" });
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("heading", { name: "Review accounts" })).toBeVisible();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
    await ready(page, info);
    await acknowledgeMfa(page);
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    if (isJs(info)) {
      await expect(page.getByRole("dialog", { name: "Arcadia Connect" })).toBeVisible();
      expect(await page.evaluate(() => typeof (window as { _ArcConnect?: unknown })._ArcConnect)).toBe(
        "object",
      );
    } else {
      await expect(page).toHaveURL(/\/arcadia-sim\/connect\/cu_/);
    }
    expect(violations).toEqual([]);
  });

  test("a rejected login: the step says so with JavaScript; without, Success and then an email", async ({
    page,
  }, info) => {
    test.slow();
    const mark = await mailMark(info);
    await loginAs(page, USERS.dana);
    await page.goto("/authorize-arcadia?step=connect_arcadia&utility=prov_gapower");
    // With JavaScript: the step stays with "The credentials used were invalid. Please reconnect." and Reconnect.
    await submitInConnect(page, info, "bad-login-mail", { utility: "Georgia Power" });
    // The provider's verdict arrives by webhook (UTILITY_PROVIDER_DELAY_MS later).
    await page.goto("/accounts");
    await expect(async () => {
      await page.reload();
      await expect(
        page.getByTestId("credential-alert").filter({ hasText: "Georgia Power (bad-login-mail)" }),
      ).toHaveCount(1, { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    const subject = /^Reconnect your Georgia Power login$/;
    if (isJs(info)) {
      // Connect showed the verdict on the page: no email for it.
      expect(await mailsTo(info, USERS.dana, mark, subject)).toEqual([]);
      return;
    }
    let mails: Awaited<ReturnType<typeof mailsTo>> = [];
    await expect(async () => {
      mails = await mailsTo(info, USERS.dana, mark, subject);
      expect(mails).toHaveLength(1);
    }).toPass({ timeout: 15_000 });
    expect(mails[0].text).toContain("The credentials used were invalid. Please reconnect.");
    // Its link opens what it reports: the login's Reconnect Required banner.
    await page.goto(mailLink(mails[0], "Reconnect on the accounts page"));
    await expect(
      page
        .getByTestId("credential-alert")
        .filter({ hasText: "Reconnect Required: Georgia Power (bad-login-mail)" }),
    ).toHaveCount(1);
  });

  test("the location and utility chosen are kept: the hosted page opens on them, the account lands there", async ({
    page,
  }, info) => {
    test.slow();
    await loginAs(page, USERS.dana);
    const flow = await clickToCredentials(page, info, "duke", "Duke Energy", "Harbor Coffee Capitol Hill");
    await toCredentialsPage(page, info, flow);
    // Duke Energy is not exempt from the MFA warning: submitInConnect ticks it; the hosted page (no JavaScript)
    // names the client and opens on Duke Energy.
    await submitInConnect(page, info, "kept-location", { utility: "Duke Energy" });
    const back = page.url();
    if (!isJs(info)) {
      // The way back is taken once: again, and the step says the link was used and offers Connect.
      await page.goto(back);
      await expect(page.getByRole("status").filter({ hasText: "already been used" })).toHaveText(
        "This Connect link has already been used. What it connected shows on the accounts page; to connect another login, use Connect again.",
      );
      await expect(page.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
    }
    await page.goto("/accounts");
    const capitolHill = page.getByRole("region", { name: "Harbor Coffee Capitol Hill" });
    await expect(async () => {
      await page.reload();
      await expect(capitolHill.getByRole("row", { name: /Duke Energy.*Connected/ })).toHaveCount(1, {
        timeout: 1000,
      });
    }).toPass({ timeout: 30_000 });
  });

  test("an account not yet assigned to a location: Choose location puts it there", async ({ page }, info) => {
    test.slow();
    await loginAs(page, USERS.dana);
    const before = await unassignedNumbers(page);
    // Georgia Power is exempt from the MFA warning; no location chosen ("Assign later").
    await page.goto("/authorize-arcadia?step=connect_arcadia&utility=prov_gapower");
    await submitInConnect(page, info, "assign-later", { utility: "Georgia Power" });
    let added: string[] = [];
    await expect(async () => {
      added = (await unassignedNumbers(page)).filter((n) => !before.includes(n));
      expect(added).toHaveLength(1);
    }).toPass({ timeout: 30_000 });
    // On a 390 px phone the form fits its row: the page does not scroll sideways, the controls are on screen.
    await page.setViewportSize({ width: 390, height: 800 });
    await ready(page, info);
    const section = page.getByRole("region", { name: "Not yet assigned to a location" });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const row = section.getByRole("row", { name: new RegExp(added[0]) });
    const right = async (l: Locator) => (await l.boundingBox())!.x + (await l.boundingBox())!.width;
    for (const control of [
      row.getByLabel(`Location for account ${added[0]}`),
      row.getByRole("button", { name: "Choose location" }),
    ])
      expect(await right(control)).toBeLessThanOrEqual(await right(section));
    await row.getByLabel(`Location for account ${added[0]}`).selectOption({ label: "Harbor Coffee Ballard" });
    await row.getByRole("button", { name: "Choose location" }).click();
    await expect(page.getByText(`Account ${added[0]} is now at Harbor Coffee Ballard.`)).toBeVisible();
    await expect(
      page
        .getByRole("region", { name: "Harbor Coffee Ballard" })
        .getByRole("row", { name: new RegExp(added[0]) }),
    ).toHaveCount(1);
    expect(await unassignedNumbers(page)).not.toContain(added[0]);
  });

  test("a utility that is not exempt asks for the MFA warning before Connect opens", async ({
    page,
  }, info) => {
    test.slow();
    await loginAs(page, USERS.dana);
    const flow = await clickToCredentials(page, info, "puget", "Puget Sound Energy", "Harbor Coffee Ballard");
    await toCredentialsPage(page, info, flow);
    const box = page.getByRole("checkbox", { name: MFA_ACK });
    const connect = page.getByRole("button", { name: "Connect", exact: true });
    await expect(box).not.toBeChecked();
    if (isJs(info)) {
      await expect(connect).toBeDisabled();
      await box.check();
      await expect(connect).toBeEnabled();
      await connect.click();
      await expect(page.getByRole("dialog", { name: "Arcadia Connect" })).toBeVisible();
      return;
    }
    // Without JavaScript the browser asks for it first (a required checkbox)...
    await connect.click();
    await expect(page.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
    expect(await box.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
    // ...and a browser that does not check forms is refused by the server, on the same step, keeping the utility
    // and the location.
    await box.evaluate((el: HTMLInputElement) => {
      el.form!.noValidate = true;
    });
    await connect.click();
    await expect(page.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
    await expect(page.locator("#connect-mfa-error")).toHaveText("Required");
    await expect(page).toHaveURL(/utility=prov_pse.*building=103|building=103.*utility=prov_pse/);
    await page.getByRole("checkbox", { name: MFA_ACK }).check();
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await expect(page).toHaveURL(/\/arcadia-sim\/connect\/cu_/);
    await expect(page.getByLabel("Utility", { exact: true }).locator("option:checked")).toHaveText(
      "Puget Sound Energy",
    );
  });
});
