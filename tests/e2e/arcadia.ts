import type { Page, TestInfo } from "@playwright/test";
import { expect, isJs, ready } from "./fixtures";

/** The MFA warning of the credentials step (rule mfa-checkbox): shown for a utility that is not exempt. */
export const MFA_ACK =
  "I understand that if my utility login uses multi-factor authentication (MFA), I may need to approve a code or refresh the connection later.";

/** Ticks the MFA warning when the step shows it (a utility that is not exempt). */
export async function acknowledgeMfa(page: Page) {
  const box = page.getByRole("checkbox", { name: MFA_ACK });
  if (await box.count()) await box.check();
}

/**
 * Opens Connect on the Enter Credentials step and submits a login there. Ends on "Connection(s) Initiated",
 * except with JavaScript for a login Connect rejects (`bad`) or times out (`timeout`): the step stays with its
 * message and Reconnect. Without JavaScript the hosted page always comes back to Success (the verdict follows by
 * webhook and email).
 */
export async function submitInConnect(
  page: Page,
  info: TestInfo,
  username: string,
  opts: {
    button?: string;
    utility?: string;
    /** The flow's credentials step and success (the health check has its own). */
    step?: string;
    success?: string;
    successUrl?: RegExp;
  } = {},
) {
  const button = opts.button ?? "Connect";
  const step = opts.step ?? "Enter Credentials";
  const success = opts.success ?? "Connection(s) Initiated";
  await ready(page, info);
  await acknowledgeMfa(page);
  await page.getByRole("button", { name: button, exact: true }).click();
  if (isJs(info)) {
    const overlay = page.getByRole("dialog", { name: "Arcadia Connect" });
    await expect(overlay).toBeVisible();
    const frame = page.frameLocator('iframe[title="Arcadia Connect"]');
    await frame.getByLabel("Utility username").fill(username);
    await frame.getByLabel("Utility password").fill("pw-123");
    await frame.getByRole("button", { name: "Submit credentials" }).click();
    await expect(frame.getByRole("heading", { name: "Credentials submitted" })).toBeVisible();
    // The step waits for Connect to say how it ended (rule connect-close-outcome).
    await expect(page.getByRole("heading", { name: step })).toBeVisible();
    await page.getByRole("button", { name: "Close Connect" }).click();
    await expect(overlay).toHaveCount(0);
    const ending = /bad/i.test(username)
      ? "The credentials used were invalid. Please reconnect."
      : /timeout/i.test(username)
        ? "The connection timed out. Please try again."
        : null;
    if (ending) {
      await expect(page.getByRole("alert")).toHaveText(ending);
      await expect(page.getByRole("heading", { name: step })).toBeVisible();
      await expect(page.getByRole("button", { name: "Reconnect", exact: true })).toBeVisible();
    } else await expect(page.getByRole("heading", { name: success })).toBeVisible();
  } else {
    // The provider's hosted page, then back to our success step.
    await expect(page).toHaveURL(/\/arcadia-sim\/connect\/cu_/);
    // The hosted page names the client and opens on the utility chosen in our flow (rule connect-url-session).
    await expect(page.getByTestId("arc-client")).toHaveText(/^Connecting utility accounts for .+\.$/);
    if (opts.utility)
      await expect(page.getByLabel("Utility", { exact: true }).locator("option:checked")).toHaveText(
        opts.utility,
      );
    await page.getByLabel("Utility username").fill(username);
    await page.getByLabel("Utility password").fill("pw-123");
    await page.getByRole("button", { name: "Submit credentials" }).click();
    await expect(page).toHaveURL(opts.successUrl ?? /\/authorize-arcadia\?step=success/);
    await expect(page.getByRole("heading", { name: success })).toBeVisible();
  }
}
