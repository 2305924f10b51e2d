import type { Page, TestInfo } from "@playwright/test";
import { expect, isJs, ready } from "./fixtures";

/** Opens Connect on the Enter Credentials step and submits a login there; ends on "Connection(s) Initiated". */
export async function submitInConnect(
  page: Page,
  info: TestInfo,
  username: string,
  opts: { button?: string; utility?: string } = {},
) {
  const button = opts.button ?? "Connect";
  await ready(page, info);
  await page.getByRole("button", { name: button, exact: true }).click();
  if (isJs(info)) {
    const overlay = page.getByRole("dialog", { name: "Arcadia Connect" });
    await expect(overlay).toBeVisible();
    const frame = page.frameLocator('iframe[title="Arcadia Connect"]');
    await frame.getByLabel("Utility username").fill(username);
    await frame.getByLabel("Utility password").fill("pw-123");
    await frame.getByRole("button", { name: "Submit credentials" }).click();
    await expect(page.getByRole("heading", { name: "Connection(s) Initiated" })).toBeVisible();
    await expect(frame.getByRole("heading", { name: "Credentials submitted" })).toBeVisible();
    await page.getByRole("button", { name: "Close Connect" }).click();
    await expect(overlay).toHaveCount(0);
  } else {
    // The provider's hosted page, then back to our success step.
    await expect(page).toHaveURL(/\/arcadia-sim\/connect\/cu_/);
    // A Connect URL carries no utility: the person picks theirs on the hosted page.
    if (opts.utility) await page.getByLabel("Utility", { exact: true }).selectOption({ label: opts.utility });
    await page.getByLabel("Utility username").fill(username);
    await page.getByLabel("Utility password").fill("pw-123");
    await page.getByRole("button", { name: "Submit credentials" }).click();
    await expect(page).toHaveURL(/\/authorize-arcadia\?step=success/);
    await expect(page.getByRole("heading", { name: "Connection(s) Initiated" })).toBeVisible();
  }
}
