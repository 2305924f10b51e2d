import type { Page } from "@playwright/test";
import { expect, loginAs, ready, test, USERS } from "./fixtures";

/**
 * A dialog's overlay covers the whole viewport (no uncovered strip) and its panel sits in the middle, on a wide
 * screen and on a phone, with JavaScript (Radix) and without (the server-rendered URL dialog).
 */
const SIZES = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];

async function expectCoversViewport(page: Page, what: string) {
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  const { overlay, panel, vw, vh } = await page.evaluate(() => {
    const box = (el: Element | null) => {
      const r = el!.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    return {
      overlay: box(document.querySelector(".dialog-overlay")),
      panel: box(document.querySelector("[role='dialog']")),
      vw: document.documentElement.clientWidth,
      vh: window.innerHeight,
    };
  });
  expect(overlay, `${what}: the overlay is the viewport`).toEqual({ x: 0, y: 0, width: vw, height: vh });
  expect(Math.abs(panel.y + panel.height / 2 - vh / 2), `${what}: the panel is centred`).toBeLessThan(1.5);
  expect(Math.abs(panel.x + panel.width / 2 - vw / 2), `${what}: the panel is centred`).toBeLessThan(1.5);
}

test("dialog overlays cover the viewport: the team editor and the date picker", async ({ page }, info) => {
  test.setTimeout(90_000);
  await loginAs(page, USERS.dana);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto("/settings?tab=team");
    await ready(page, info);
    await page
      .getByRole("link", { name: /^Edit access for/ })
      .first()
      .click();
    await expectCoversViewport(page, `team editor at ${size.width} px`);

    await page.goto("/locations/101/usage/demand");
    await ready(page, info);
    await page.getByRole("link", { name: "Select date", exact: true }).click();
    await expectCoversViewport(page, `date picker at ${size.width} px`);
  }
});
