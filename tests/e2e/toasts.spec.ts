import type { Page, TestInfo } from "@playwright/test";
import { expect, ready, test } from "./fixtures";

/**
 * Toasts: one region on every page (announced once), in one corner and full width at the foot of a phone's
 * screen; each leaves by itself after a few seconds unless hovered or focused, and closes with and without
 * JavaScript. The flash of a redirect that says why (an unknown location) is the toast under test.
 */
async function arriveWithToast(page: Page, info: TestInfo) {
  await page.goto("/locations/999999/control");
  await expect(page).toHaveURL(/\/locations$/);
  await ready(page, info);
  const toast = page.getByTestId("toast");
  await expect(toast).toHaveText("That location isn't available to your account");
  return toast;
}

test.describe("toasts", () => {
  test("one status region, the message in it once", async ({ asDana: page }, info) => {
    await arriveWithToast(page, info);
    await expect(page.getByRole("status").filter({ has: page.getByTestId("toast") })).toHaveCount(1);
    await expect(page.locator(".toasts")).toHaveCount(1);
    await expect(page.getByTestId("toast")).toHaveCount(1);
    // The message is announced by the region alone: no nested live region repeats it.
    await expect(page.locator(".toasts [role], .toasts [aria-live]")).toHaveCount(0);
  });

  test("the close control works, with and without JavaScript", async ({ asDana: page }, info) => {
    const toast = await arriveWithToast(page, info);
    // The visible ×: a button with JavaScript, the label of a checkbox the CSS reads without.
    await page.locator(".toasts .toast-close").click();
    await expect(toast).toBeHidden();
  });

  test("the close control is reached and used by keyboard", async ({ asDana: page }, info) => {
    const toast = await arriveWithToast(page, info);
    const close = page.getByLabel("Dismiss notification");
    await close.focus();
    await page.keyboard.press("Space");
    await expect(toast).toBeHidden();
  });

  test("it leaves by itself after a few seconds", async ({ asDana: page }, info) => {
    test.setTimeout(30_000);
    const toast = await arriveWithToast(page, info);
    await page.mouse.move(5, 5);
    await expect(toast).toBeHidden({ timeout: 12_000 });
  });

  test("it stays while hovered", async ({ asDana: page }, info) => {
    test.setTimeout(30_000);
    const toast = await arriveWithToast(page, info);
    await toast.hover();
    await page.waitForTimeout(10_000);
    await expect(toast).toBeVisible();
    await page.mouse.move(5, 5);
    // The clock held while hovered: it runs on from where it stopped.
    await expect(toast).toBeHidden({ timeout: 12_000 });
  });

  test("at 390 px: full width at the foot of the screen", async ({ asDana: page }, info) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const toast = await arriveWithToast(page, info);
    const box = (await toast.boundingBox())!;
    expect(box.x).toBeLessThanOrEqual(10);
    expect(box.x + box.width).toBeGreaterThanOrEqual(380);
    expect(box.y + box.height).toBeGreaterThan(844 - 20);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    await page.screenshot({ path: info.outputPath(`toast-390-${info.project.name}.png`) });
  });

  test("at 1280 px: bottom right", async ({ asDana: page }, info) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const toast = await arriveWithToast(page, info);
    const box = (await toast.boundingBox())!;
    expect(box.x).toBeGreaterThan(640);
    expect(box.y + box.height).toBeGreaterThan(800 - 40);
    await page.screenshot({ path: info.outputPath(`toast-1280-${info.project.name}.png`) });
  });
});
