import { expect, ready, test } from "./fixtures";

/**
 * Small things of fit: at 200 % zoom on a 1280 px screen (640 CSS px, the sidebar beside the page) every tab
 * of the control room is in sight, not cut off in a sideways scroll; at 1280 px a thermostat card's name is
 * not squeezed onto two lines by its status pill.
 */
test("200 % zoom: the control room's tabs are all in sight", async ({ asDana: page }, info) => {
  for (const width of [640, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/locations/105/control");
    await ready(page, info);
    const list = page.getByRole("tablist").first();
    const fit = await list.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(fit.scroll, `${width}px: the tab list scrolls sideways`).toBeLessThanOrEqual(fit.client + 1);
    const box = await list.boundingBox();
    for (const name of [/All devices/, /Devices with Issues/]) {
      const tab = await page.getByRole("tab", { name }).boundingBox();
      expect(tab, `${width}px: ${name}`).not.toBeNull();
      expect(tab!.x + tab!.width, `${width}px: ${name} ends inside the list`).toBeLessThanOrEqual(
        box!.x + box!.width + 1,
      );
    }
    const page_ = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    expect(page_, `${width}px: the page scrolls sideways`).toBeLessThanOrEqual(0);
  }
});

test("1280 px: a thermostat card's name keeps one line beside or above its status", async ({
  asDana: page,
}, info) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const path of ["/locations/105/control", "/locations/101/control", "/locations/109/control"]) {
    await page.goto(path);
    await ready(page, info);
    const names = await page.locator(".thermo-name").evaluateAll((els) =>
      els.map((h) => ({
        name: h.textContent,
        lines: Math.round(h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).lineHeight)),
      })),
    );
    expect(names.length, path).toBeGreaterThan(0);
    for (const n of names) expect(n.lines, `${path}: ${n.name}`).toBe(1);
  }
});
