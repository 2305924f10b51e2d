import { expect, ready, test } from "./fixtures";

/**
 * Hydration must not move what the server drew: with the scripts held back, the server's HTML is painted first;
 * once React has hydrated, the layout shifts it caused add up to less than 0.1 (web.dev's "good" CLS).
 * Spending's account form used to drop its "Show bills" button on hydration and jump beside the heading (0.325).
 * Without JavaScript the same pages must load without a shift too.
 */
const PAGES = [
  "/locations",
  "/locations/101/spending",
  "/locations/101/usage",
  "/locations/101/control",
  "/grid-services",
  "/override-report",
  "/findings",
];

test.use({ viewport: { width: 1280, height: 900 } });

for (const path of PAGES)
  test(`hydration does not shift ${path}`, async ({ asDana: page }, info) => {
    await page.addInitScript(() => {
      const w = window as unknown as { __cls: number };
      w.__cls = 0;
      new PerformanceObserver((list) =>
        list.getEntries().forEach((e) => {
          const shift = e as PerformanceEntry & { value: number; hadRecentInput: boolean };
          if (!shift.hadRecentInput) w.__cls += shift.value;
        }),
      ).observe({ type: "layout-shift", buffered: true });
    });
    // Scripts arrive late, so the server's HTML is on screen before React hydrates it.
    await page.route("**/build/**/*.js", async (route) => {
      await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    await page.goto(path);
    await ready(page, info);
    await page.waitForTimeout(500);
    const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
    expect(cls).toBeLessThan(0.1);
  });
