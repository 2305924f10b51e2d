import { FLAG_MAYBE_APPLIED, FLAG_UPDATE_FAILED } from "../../app/features/bills/bills";
import { apiUrl, expect, isJs, ready, test } from "./fixtures";

/**
 * A bill-flag answer whose reply is lost: the api records it, then drops the connection (its test-hook
 * fault point, api/lib/fault-points.ts). The flag says the spec's error and that the answer may have been recorded
 * and where to see it; the page shows the flag as answered (it was), with no question left.
 */
test("a flag answer whose reply was lost says it may have been recorded", async ({ asDana: page }, info) => {
  const location = isJs(info) ? 114 : 113;
  await page.goto(`/locations/${location}/spending`);
  await ready(page, info);
  const flag = page.locator(".flag[data-status='unacknowledged']").first();
  const testId = await flag.getAttribute("data-testid");
  const armed = await page.request.post(`${apiUrl(info)}/dev/faults/after-commit`, {
    data: { method: "PATCH", path: "^/bill-statement/\\d+/bill-flag/\\d+$", mode: "drop" },
  });
  expect(armed.status()).toBe(200);
  await flag.getByRole("button", { name: "No, please investigate" }).click();
  const alert = page.getByRole("alert").filter({ hasText: FLAG_UPDATE_FAILED });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText(FLAG_MAYBE_APPLIED);
  // It was recorded: the flag shows its answer and offers only the switch to the other answer.
  const same = page.locator(`[data-testid="${testId}"]`);
  await expect(same).toHaveAttribute("data-status", "action_requested");
  await expect(same.getByRole("button")).toHaveText(["Yes, this is expected"]);
});
