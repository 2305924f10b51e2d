import { expect, loginAs, ready, test, USERS } from "./fixtures";

/**
 * On a phone the shell is a top bar above the page. On a page shorter than the screen the bar keeps its own
 * height (brand, Menu, location selector) instead of stretching over half the screen.
 */
test("the phone top bar keeps its height on a short page", async ({ page }, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [user, path] of [
    ["alex", "/locations/201/control"],
    ["morgan", "/impersonate"],
  ] as const) {
    await loginAs(page, USERS[user]);
    await page.goto(path);
    await ready(page, info);
    const bar = await page.locator("aside.sidebar").boundingBox();
    // Two rows (brand and Menu, then the selector) are about 110 px; stretched, it was 300 px.
    expect(bar!.height, `${path}: the top bar's height`).toBeLessThan(140);
    const main = await page.locator("main").boundingBox();
    expect(main!.y, `${path}: the page starts right below the bar`).toBeLessThanOrEqual(bar!.height + 1);
  }
});
