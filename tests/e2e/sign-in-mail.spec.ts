import {
  askForLoginLink,
  expect,
  expectNoSeriousA11yViolations,
  loginAs,
  mailLink,
  mailMark,
  mailsTo,
  PASSWORD,
  ready,
  test,
  USERS,
  waitForMail,
} from "./fixtures";
import { openEmailPage } from "./email-pages";
import type { Page, TestInfo } from "@playwright/test";

/**
 * Sign-in emails as a person on a phone meets them: a login link tapped
 * twice, a link already used, the sixth sign-in mail asked for in a quarter hour, the thermostat alerts'
 * switch, and the people whose client may not sign in here.
 */

/** Asks for a login link on the login page (as the person would) and answers the emailed link's path. */
async function askForLink(page: Page, info: TestInfo, email: string, next: string) {
  const link = new URL(mailLink(await askForLoginLink(page, info, email, next), "Log in to EnergyOps"));
  return `${link.pathname}${link.search}`;
}

test.describe("a login link tapped again", () => {
  test("signed in by it: the second tap goes on to its page", async ({ page }, info) => {
    const link = await askForLink(page, info, USERS.sam, "/settings");
    await openEmailPage(page, link);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/settings$/);
    // The email's button again (the token is spent): the same page, no "Invalid token".
    await page.goto(link);
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole("heading", { name: "Manage account" })).toBeVisible();
  });

  test("signed out: the page says so, keeps where it led and emails a new link", async ({
    page,
    context,
  }, info) => {
    const link = await askForLink(page, info, USERS.sam, "/settings");
    await openEmailPage(page, link);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await context.clearCookies();

    await openEmailPage(page, link);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("Invalid token. Please try again.")).toBeVisible();
    await expect(page.getByText("This login link was already used or has expired.")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    // No timed trip to the home page: the form stays while the person types.
    await page.waitForTimeout(5_500);
    await expect(page.getByRole("button", { name: "Email me a new login link" })).toBeVisible();

    // A bad address keeps what was typed, with the message where it is.
    await page.getByLabel("Email").fill("sam@");
    await page.getByRole("button", { name: "Email me a new login link" }).click();
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue("sam@");

    const since = await mailMark(info);
    await page.getByLabel("Email").fill(USERS.sam);
    await page.getByRole("button", { name: "Email me a new login link" }).click();
    await expect(
      page.getByText("A login link will be sent if there is an account connected to this email address"),
    ).toBeVisible();
    const mail = await waitForMail(info, USERS.sam, since, /link/i);
    const fresh = new URL(mailLink(mail, "Log in to EnergyOps"));
    expect(fresh.searchParams.get("next")).toBe("/settings");
    await openEmailPage(page, `${fresh.pathname}${fresh.search}`);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/settings$/);
  });
});

test("the sixth sign-in email in a quarter hour: the page says why and how long to wait", async ({
  page,
}, info) => {
  const since = await mailMark(info);
  await page.goto(`/login?email=${encodeURIComponent(USERS.sam)}`);
  await ready(page, info);
  const sent = page.getByText(
    "A login link will be sent if there is an account connected to this email address",
  );
  for (let i = 0; i < 5; i++) {
    await page.getByRole("button", { name: "Email me a login link" }).click();
    await expect(sent).toBeVisible();
    if (i < 4) await page.goto(`/login?email=${encodeURIComponent(USERS.sam)}`);
    await ready(page, info);
  }
  await page.goto(`/login?email=${encodeURIComponent(USERS.sam)}`);
  await ready(page, info);
  await page.getByRole("button", { name: "Email me a 6-digit code" }).click();
  const wait = page.getByRole("status").filter({ hasText: "several sign-in emails" });
  await expect(wait).toContainText("no more are sent from here for 15 minutes");
  // The code field stays: an earlier code may still be in the inbox.
  await expect(page.getByLabel("6-digit code")).toBeVisible();
  // Five went out, not six.
  expect(await mailsTo(info, USERS.sam, since)).toHaveLength(5);
});

test("My Preferences has the thermostat issue alerts' switch", async ({ page }, info) => {
  await loginAs(page, USERS.dana);
  await page.goto("/settings");
  await ready(page, info);
  const alerts = page.getByRole("switch", { name: "Thermostat Issue Alerts" });
  const before = (await alerts.getAttribute("aria-checked")) === "true";
  await alerts.click();
  await expect(page.getByTestId("toast")).toContainText("Preferences saved");
  await page.reload();
  await expect(page.getByRole("switch", { name: "Thermostat Issue Alerts" })).toHaveAttribute(
    "aria-checked",
    String(!before),
  );
});

test.describe("residential and large commercial clients get no session", () => {
  test("no link, code or reset is emailed to them", async ({ page }, info) => {
    const since = await mailMark(info);
    for (const email of [USERS.riley, USERS.jordan]) {
      for (const intent of ["link", "request-code", "reset"]) {
        const res = await page.request.post(`/login?email=${encodeURIComponent(email)}`, {
          form: { intent, email, next: "/" },
          maxRedirects: 0,
        });
        // The same answer as for anybody (a migrated address's login page then goes on to /mycor).
        expect(res.status()).toBe(email === USERS.jordan ? 302 : 200);
      }
    }
    expect(await mailsTo(info, USERS.riley, since)).toEqual([]);
    expect(await mailsTo(info, USERS.jordan, since)).toEqual([]);
  });

  test("their password signs nobody in: Jordan goes to /mycor, Riley is told login is not enabled", async ({
    page,
  }, info) => {
    await page.route("https://mycor.energyops.test/**", (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Migrated app</h1>" }),
    );
    const jordan = await page.request.post(
      `/login?email=${encodeURIComponent(USERS.jordan)}&next=%2Faccounts`,
      {
        form: { intent: "password", email: USERS.jordan, password: PASSWORD, next: "/accounts" },
        maxRedirects: 0,
      },
    );
    expect(jordan.status()).toBe(302);
    expect(jordan.headers().location).toBe("/mycor");
    await page.goto("/accounts");
    await expect(page).toHaveURL(/\/login\?next=%2Faccounts$/);

    const riley = await page.request.post(`/login?email=${encodeURIComponent(USERS.riley)}`, {
      form: { intent: "password", email: USERS.riley, password: PASSWORD, next: "/settings" },
      maxRedirects: 0,
    });
    expect(riley.status()).toBe(403);
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/login\?next=%2Fsettings$/);
    await ready(page, info);
    await page.getByLabel("Email").fill(USERS.riley);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("Login has not yet been enabled for this account")).toBeVisible();
  });
});
