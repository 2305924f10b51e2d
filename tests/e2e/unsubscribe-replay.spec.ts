import { expect, loginAs, mailMark, ready, runJob, test, USERS, waitForMail } from "./fixtures";
import { openEmailPage } from "./email-pages";

/**
 * An unsubscribe link does its one act once (rule unsubscribe-once): opened again after the person turned the
 * email back on in My Preferences, it changes nothing and says their choice stands, with no button.
 */
const BILL_ALERT =
  /^(Please verify energy supplier change|Your utility delivery rate increased|Your utility changed this account's rate class): /;

test("a used unsubscribe link, opened after the alerts were turned back on, changes nothing", async ({
  page,
}, info) => {
  const since = await mailMark(info);
  expect(await runJob(info, "bill_flag")).toBeGreaterThan(0);
  const mail = await waitForMail(info, USERS.dana, since, BILL_ALERT);
  const link = new URL(mail.links.find((l) => l.includes("/unsubscribe?token="))!);
  const path = link.pathname + link.search;

  await openEmailPage(page, path);
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();

  // Dana turns Bill Audit Alerts back on.
  await loginAs(page, USERS.dana);
  await page.goto("/settings");
  await ready(page, info);
  const alerts = page.getByRole("switch", { name: "Bill Audit Alerts" });
  await expect(alerts).toHaveAttribute("aria-checked", "false");
  await alerts.click();
  await expect(page.getByTestId("toast")).toContainText("Preferences saved");

  // The old link, opened again: no button, no "unsubscribed", and the switch stays on.
  await openEmailPage(page, path);
  await expect(page.getByRole("heading", { name: "Your choice stands" })).toBeVisible();
  await expect(page.getByText("This link was already used.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
  await page.goto("/settings");
  await expect(page.getByRole("switch", { name: "Bill Audit Alerts" })).toHaveAttribute(
    "aria-checked",
    "true",
  );
});
