import type { Locator, Page, TestInfo } from "@playwright/test";
import { submitInConnect } from "./arcadia";
import { expect, isJs, loginAs, mailLink, mailMark, mailsTo, ready, test, USERS } from "./fixtures";

/**
 * Connect as a person reaches it: by clicking from the sidebar (the accounts page, then its Connect button: the
 * shell's dialog with JavaScript, the /authorize-arcadia page without), never by typing a step's address.
 */

/** The flow's container: the shell's dialog with JavaScript, the page without. */
const flowOf = (page: Page, info: TestInfo): Locator =>
  isJs(info) ? page.getByRole("dialog", { name: "Connect Utility Accounts" }) : page.locator("main");

/** Sidebar → Connect Utility Accounts → Connect a utility account → `utility` → Continue → Continue. */
async function clickToCredentials(page: Page, info: TestInfo, search: string, utility: string) {
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
  await flow.getByRole("button", { name: "Continue" }).click();
  await expect(flow.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
  return flow;
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
});
