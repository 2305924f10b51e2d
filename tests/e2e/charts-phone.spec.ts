import type { Locator, Page } from "@playwright/test";
import { expect, isJs, loginAs, ready, test, USERS } from "./fixtures";

/**
 * Charts on a phone (390 CSS px) and at 200 % zoom on a 1280 px screen (640 CSS px), JavaScript on and off:
 * each chart fits the viewport (every bucket / day of the period inside the visible chart, no scroll
 * container cutting it off), both value axes are on screen, the x labels that show do not overlap, every label
 * renders at 11 px or more, the page does not scroll sideways, and the chart's data table reads without a
 * sideways scroll. And the one-thermostat compliance page stays light: at most 200 KB of HTML.
 */
const SIZES = [
  { width: 390, height: 844 },
  { width: 640, height: 800 },
];
test.describe.configure({ timeout: 120_000 });

type Chart = { name: string; path: string; rightAxis: boolean; buckets?: number };

const CHARTS: Chart[] = [
  // October 2026: 31 daily buckets.
  {
    name: "usage, month",
    path: "/locations/104/usage/demand?period=month&start=2026-10-01",
    rightAxis: true,
    buckets: 31,
  },
  { name: "usage, day", path: "/locations/104/usage/demand?period=day&start=2026-11-17", rightAxis: true },
  {
    name: "usage, year",
    path: "/locations/101/usage/consumption?period=year&start=2025-01-01",
    rightAxis: true,
    buckets: 12,
  },
  // The newest 13 bills.
  { name: "spending", path: "/locations/101/spending", rightAxis: true, buckets: 13 },
];

/** The element's box lies inside the viewport horizontally (and is not empty). */
async function expectInsideViewport(page: Page, el: Locator, what: string) {
  const box = await el.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, `${what}: has a box`).not.toBeNull();
  expect(box!.width, `${what}: not empty`).toBeGreaterThan(0);
  expect(box!.x, `${what}: left edge on screen`).toBeGreaterThanOrEqual(-0.5);
  expect(box!.x + box!.width, `${what}: right edge on screen`).toBeLessThanOrEqual(width + 0.5);
}

/** No ancestor of the element clips it sideways (an overflow box whose content is wider than itself). */
async function expectNotClipped(el: Locator, what: string) {
  const clipper = await el.evaluate((node) => {
    for (let p = node.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o !== "visible" && p.scrollWidth > p.clientWidth + 1)
        return `${p.tagName.toLowerCase()}.${p.className} (${p.scrollWidth} > ${p.clientWidth})`;
    }
    return null;
  });
  expect(clipper, `${what}: no sideways-scrolling or clipping ancestor`).toBeNull();
}

/** Font size in CSS px as rendered (the computed size times any scaling of an SVG's user units). */
async function renderedFontPx(el: Locator) {
  return el.evaluate((node) => {
    const size = parseFloat(getComputedStyle(node).fontSize);
    const svg = node instanceof SVGElement ? node.ownerSVGElement : null;
    if (!svg) return size;
    return size * (svg.getScreenCTM()?.a ?? 1);
  });
}

for (const c of CHARTS) {
  test(`${c.name}: the chart fits 390 and 640 CSS px with both axes and legible labels`, async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.goto(c.path);
      await ready(page, info);
      const at = `${c.name} at ${size.width} px`;
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${at}: page width`).toBe(
        size.width,
      );
      const plot = page.locator(".plot").first();
      await plot.scrollIntoViewIfNeeded();
      const svg = plot.locator(".plot-area > svg");
      await expect(svg).toBeVisible();
      await expectInsideViewport(page, svg, `${at}: the plot`);
      await expectNotClipped(svg, `${at}: the plot`);
      // Every bucket of the period is inside the visible chart.
      if (c.buckets) {
        const hits = svg.locator("rect.chart-hit");
        await expect(hits).toHaveCount(c.buckets);
        await expectInsideViewport(page, hits.first(), `${at}: the first bucket`);
        await expectInsideViewport(page, hits.last(), `${at}: the last bucket`);
      }
      // Both value axes are on screen, with their labels.
      const axes = [plot.locator(".plot-axis-left")];
      if (c.rightAxis) axes.push(plot.locator(".plot-axis-right"));
      else await expect(plot.locator(".plot-axis-right")).toHaveCount(0);
      for (const axis of axes) {
        const labels = axis.locator("span");
        expect(await labels.count(), `${at}: axis labels`).toBeGreaterThanOrEqual(3);
        for (const label of await labels.all()) {
          await expectInsideViewport(page, label, `${at}: y label ${await label.textContent()}`);
          expect(await renderedFontPx(label), `${at}: y label size`).toBeGreaterThanOrEqual(11);
        }
      }
      // The x labels that show are on screen, legible and apart from each other.
      const shown = plot.locator(".plot-axis-x > span:visible");
      expect(await shown.count(), `${at}: x labels`).toBeGreaterThanOrEqual(3);
      let prevRight = -Infinity;
      for (const label of await shown.all()) {
        const text = await label.textContent();
        await expectInsideViewport(page, label, `${at}: x label ${text}`);
        expect(await renderedFontPx(label), `${at}: x label ${text} size`).toBeGreaterThanOrEqual(11);
        const box = (await label.boundingBox())!;
        expect(box.x, `${at}: x label ${text} clear of the one before`).toBeGreaterThanOrEqual(prevRight);
        prevRight = box.x + box.width;
      }
      // No text drawn in the SVG itself (it would scale with the plot).
      await expect(svg.locator("text")).toHaveCount(0);
      // With JavaScript the tooltip stays on screen wherever the pointer is on the plot.
      if (isJs(info)) {
        const box = (await svg.boundingBox())!;
        for (const f of [0.1, 0.5, 0.6, 0.9]) {
          await page.mouse.move(box.x + box.width * f, box.y + box.height * 0.5);
          const tip = page.locator(".chart-tooltip").first();
          await expect(tip).toBeVisible();
          await expectInsideViewport(page, tip, `${at}: the tooltip at ${f * 100}% of the plot`);
        }
        await page.mouse.move(0, 0);
      }

      // The chart's data table: no sideways scroll, its cells on screen.
      await page.locator("details.chart-data > summary").first().click();
      const wrap = page.locator("details.chart-data .table-wrap").first();
      await expect(wrap).toBeVisible();
      expect(
        await wrap.evaluate((el) => el.scrollWidth <= el.clientWidth + 1),
        `${at}: the data table does not scroll sideways`,
      ).toBe(true);
      const row = wrap.locator("tbody tr").first();
      for (const cell of await row.locator("th, td").all()) {
        if (!(await cell.textContent())?.trim()) continue;
        await expectInsideViewport(page, cell, `${at}: data table cell ${await cell.textContent()}`);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${at}: page width`).toBe(
        size.width,
      );
    }
  });
}

/**
 * The Thermostat Settings chart is the spec's: 649 px high, its plot 6000 px wide and scrolling sideways
 * inside the chart (never the page), the y axis in view however far it is scrolled, a visible cue that it
 * scrolls, and a focusable, named scroll region so the keyboard scrolls it. JavaScript on and off.
 */
test("one thermostat: the plot scrolls inside the chart at 390 and 640 CSS px, the y axis stays", async ({
  page,
}, info) => {
  await loginAs(page, USERS.dana);
  for (const size of [...SIZES, { width: 1280, height: 900 }]) {
    await page.setViewportSize(size);
    await page.goto("/override-report/1003?period=month&start=2026-10-01");
    await ready(page, info);
    const at = `at ${size.width} px`;
    const chart = page.getByTestId("thermostat-chart");
    const axis = chart.getByTestId("chart-y-axis");
    const scroller = chart.getByRole("region", { name: /Thermostat Settings plot/ });
    await scroller.scrollIntoViewIfNeeded();
    await expect(chart.getByText("Scroll for more →")).toBeVisible();
    await expect(axis.getByText("°Fahrenheit")).toBeAttached();
    expect((await axis.boundingBox())!.height, `${at}: the chart is 649 px high`).toBe(649);
    const dims = await scroller.evaluate((el) => ({ sw: el.scrollWidth, cw: el.clientWidth }));
    expect(dims.sw, `${at}: the plot is 6000 px wide`).toBe(6000);
    expect(dims.cw, `${at}: and scrolls`).toBeLessThan(6000);
    await expectInsideViewport(page, scroller, `${at}: the scroll region`);
    expect(await scroller.getAttribute("tabindex")).toBe("0");
    // The keyboard scrolls the plot; the axis does not move.
    const axisBefore = (await axis.boundingBox())!;
    await scroller.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowRight");
    await expect
      .poll(() => scroller.evaluate((el) => el.scrollLeft), `${at}: the arrow keys scroll`)
      .toBeGreaterThanOrEqual(100);
    const axisAfter = (await axis.boundingBox())!;
    expect(axisAfter.x, `${at}: the y axis stays`).toBe(axisBefore.x);
    await expectInsideViewport(page, axis, `${at}: the y axis`);
    for (const label of await axis.locator("text").all())
      expect(await renderedFontPx(label), `${at}: y label size`).toBeGreaterThanOrEqual(11);
    // A day is wide enough for its label: the labels never run into each other.
    const xs = await chart
      .getByTestId("chart-x-labels")
      .locator("text")
      .evaluateAll((ts) =>
        ts.map((t) => {
          const b = (t as SVGTextElement).getBBox();
          return { x: b.x, width: b.width };
        }),
      );
    expect(xs.length, `${at}: a label a day`).toBe(31);
    for (let i = 1; i < xs.length; i++) expect(xs[i].x).toBeGreaterThan(xs[i - 1].x + xs[i - 1].width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${at}: page width`).toBe(
      size.width,
    );
  }
});

test("the one-thermostat compliance page is at most 200 KB of HTML", async ({ page }) => {
  await loginAs(page, USERS.dana);
  const res = await page.request.get("/override-report/1003?period=month&start=2026-10-01");
  expect(res.status()).toBe(200);
  const html = await res.body();
  // It was 1.03 MB: ~1,500 points as titled SVG elements and a table row per point.
  expect(html.byteLength).toBeLessThanOrEqual(200 * 1024);
  // Still the whole month: one row per day and every series drawn.
  const text = html.toString("utf8");
  expect(text.match(/<tr><th scope="row">/g) ?? []).toHaveLength(31);
  for (const s of ["schedule", "cool", "heat", "indoor"]) expect(text).toContain(`data-testid="series-${s}"`);
});
