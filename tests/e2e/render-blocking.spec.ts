import { expect, loginAs, test, USERS } from "./fixtures";
import { ALL_PAGES } from "./pages";

/**
 * First paint with the document (app/ui/critical-css.tsx): on a cold visit no page has a render-blocking
 * request; its styles are inline and its stylesheets are prefetched at the end of <body>, for the cache. Each test's
 * browser context starts with an empty cache and no cookie: a cold visit.
 */
const PAGES = [...ALL_PAGES, { path: "/reset-password?token=abc", user: null }];

const blockingResources = () =>
  (
    performance.getEntriesByType("resource") as (PerformanceResourceTiming & {
      renderBlockingStatus?: string;
    })[]
  )
    .filter((r) => r.renderBlockingStatus !== "non-blocking")
    .map((r) => `${r.name} (${r.renderBlockingStatus})`);

for (const p of PAGES) {
  test(`cold visit of ${p.path}: no render-blocking request, styles inline`, async ({ page }) => {
    if (p.user) await loginAs(page, USERS[p.user]);
    await page.goto(p.path, { waitUntil: "load" });
    expect(await page.evaluate(blockingResources)).toEqual([]);
    await expect(page.locator("head link[rel='stylesheet']")).toHaveCount(0);
    expect(await page.locator("head style[data-href]").count()).toBeGreaterThan(0);
    // The stylesheets themselves are still fetched (for the next visit): prefetched from the end of <body>.
    const prefetched = await page.locator("body link[rel='prefetch'][as='style']").count();
    expect(prefetched).toBe(await page.locator("head style[data-href]").count());
    // Never also linked as stylesheets: a copy of an early sheet loading after a later sheet's inline text would
    // win the cascade over it and shift the page (the override report's cards did).
    await expect(page.locator("link[rel='stylesheet']")).toHaveCount(0);
  });
}

test("a later visit uses the cached stylesheets in <head>, nothing inline", async ({ page }) => {
  await loginAs(page, USERS.dana);
  await page.goto("/locations", { waitUntil: "load" });
  // The prefetch runs at idle priority, after the load event.
  await page.waitForFunction(() =>
    performance.getEntriesByType("resource").some((r) => /\/build\/_assets\/app-/.test(r.name)),
  );
  await page.goto("/locations/105/control", { waitUntil: "load" });
  await expect(page.locator("style[data-href]")).toHaveCount(0);
  expect(await page.locator("head link[rel='stylesheet']").count()).toBeGreaterThan(0);
  // The sheet the first page loaded comes from the cache: no bytes on the wire.
  const appSheet = await page.evaluate(() =>
    (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .filter((r) => /\/build\/_assets\/app-/.test(r.name))
      .map((r) => r.transferSize),
  );
  expect(appSheet).toEqual([0]);
});
