import type { TestInfo } from "@playwright/test";
import { expect, mailMark, PASSWORD, ready, runJob, test, USERS, waitForMail } from "./fixtures";

/**
 * Signed out, a bill alert's bills link keeps its place through sign-in (rule sign-in-keeps-flag): the browser
 * never sends the link's `#flag-…`, so the link names the flag in its query too and signing in lands on the
 * flag's anchor, in view on a phone, with JavaScript on and off; by password and by emailed code.
 */
const BILL_ALERT =
  /^(Please verify energy supplier change|Your utility delivery rate increased|Your utility changed this account's rate class): /;

test.use({ viewport: { width: 390, height: 800 } });

async function billsLink(info: TestInfo, to: string) {
  const since = await mailMark(info);
  expect(await runJob(info, "bill_flag")).toBeGreaterThan(0);
  const mail = await waitForMail(info, to, since, BILL_ALERT);
  const link = new URL(mail.links.find((l) => /\/locations\/\d+\/spending\?/.test(l))!);
  // The flag in the query and in the fragment.
  expect(link.hash).toMatch(/^#flag-\d+$/);
  expect(link.searchParams.get("flag")).toBe(link.hash.slice("#flag-".length));
  return link;
}

test("signed out, an alert's bills link signs in by password and lands at its flag, in view", async ({
  page,
}, info) => {
  const link = await billsLink(info, USERS.dana);
  await page.goto(link.pathname + link.search + link.hash);
  await expect(page).toHaveURL(/\/login\?/);
  await ready(page, info);
  await page.getByLabel("Email").fill(USERS.dana);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL((u) => u.pathname === link.pathname && u.hash === link.hash);
  expect(new URL(page.url()).searchParams.get("billId")).toBe(link.searchParams.get("billId"));
  await ready(page, info);
  const flag = page.locator(link.hash);
  await expect(flag).toBeVisible();
  await expect(flag).toBeInViewport();
});

test("signed out, an alert's bills link signs in by emailed code and lands at its flag, in view", async ({
  page,
}, info) => {
  const link = await billsLink(info, USERS.dana);
  const target = link.pathname + link.search;
  await page.goto(target + link.hash);
  await expect(page).toHaveURL((u) => u.pathname === "/login" && u.searchParams.get("next") === target);
  await ready(page, info);
  await page.getByLabel("Email").fill(USERS.dana);
  await page.getByRole("button", { name: "Continue" }).click();
  const since = await mailMark(info);
  await page.getByRole("button", { name: "Email me a 6-digit code" }).click();
  const mail = await waitForMail(info, USERS.dana, since, /code/i);
  await page.getByLabel("6-digit code").fill(mail.code!);
  await page.getByRole("button", { name: "Log in with code" }).click();
  await expect(page).toHaveURL((u) => u.pathname + u.search === target && u.hash === link.hash);
  await ready(page, info);
  await expect(page.locator(link.hash)).toBeInViewport();
});
