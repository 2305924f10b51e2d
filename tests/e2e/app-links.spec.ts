import type { Page } from "@playwright/test";
import { expect, isJs, loginAs, ready, test, USERS } from "./fixtures";

/**
 * Links in tables, menus and pagers are Remix `<Link>`s, and the locations table's row links are followed by the
 * table's one click handler (app/ui/row-links.tsx): without JavaScript they are ordinary links; with it, they
 * navigate through Remix's router, so the document is not loaded again. A marker on `window` survives a client navigation only.
 */
const mark = (page: Page) =>
  page.evaluate(() => ((window as unknown as { appLinkMark?: number }).appLinkMark = 1));
const marked = (page: Page) =>
  page.evaluate(() => (window as unknown as { appLinkMark?: number }).appLinkMark === 1);

test.describe("in-app links of tables, menus and pagers", () => {
  test("the locations table, its sort headers and menus, the selector and the grid's rows", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations");
    await ready(page, info);
    await mark(page);

    // A sort header: a new URL, the same document with JavaScript.
    await page.getByRole("link", { name: /^Last Bill/ }).click();
    await expect(page).toHaveURL(/sort=lastBill/);
    await ready(page, info);
    expect(await marked(page)).toBe(isJs(info));

    // A location's name in the table.
    await mark(page);
    const row = page.getByTestId("location-row-101");
    await row.getByRole("link", { name: "Harbor Coffee Pike Place", exact: true }).click();
    await expect(page).toHaveURL(/\/locations\/101\/control$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Harbor Coffee Pike Place");
    expect(await marked(page)).toBe(isJs(info));

    // Back on the dashboard: a row's ⋯ menu.
    await page.goto("/locations");
    await ready(page, info);
    await mark(page);
    await page
      .getByTestId("location-row-101")
      .getByLabel(/^Actions for/)
      .click();
    await page.getByTestId("location-row-101").getByRole("link", { name: "View spending" }).click();
    await expect(page).toHaveURL(/\/locations\/101\/spending$/);
    expect(await marked(page)).toBe(isJs(info));

    // A row's expander: the same document, and where the page was scrolled to stays.
    await page.setViewportSize({ width: 1280, height: 500 });
    await page.goto("/locations");
    await ready(page, info);
    await mark(page);
    const last = page.locator('tr[data-testid^="location-row-"]').last();
    await last.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await last.getByRole("link", { name: /^Show accounts of/ }).click();
    await expect(page).toHaveURL(/expanded=\d+/);
    await expect(last.getByRole("link", { name: /^Hide accounts of/ })).toBeVisible();
    expect(await marked(page)).toBe(isJs(info));
    if (isJs(info)) expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);

    // The grid's row expander replaces the history entry and keeps the scroll position.
    await page.goto("/grid-services");
    await ready(page, info);
    await mark(page);
    const first = page.getByTestId("dispatch-row").first();
    await first.getByRole("link", { name: /^Show thermostat details/ }).click();
    await expect(first.getByRole("link", { name: /^Hide thermostat details/ })).toBeVisible();
    expect(await marked(page)).toBe(isJs(info));
  });

  test("a click the browser should handle (a new tab) is left to it", async ({ page, context }, info) => {
    test.skip(!isJs(info), "with JavaScript off every link is the browser's");
    await loginAs(page, USERS.dana);
    await page.goto("/locations");
    await ready(page, info);
    const link = page
      .getByTestId("location-row-101")
      .getByRole("link", { name: "Harbor Coffee Pike Place", exact: true });
    const opened = context.waitForEvent("page");
    await link.click({ modifiers: ["Control"] });
    const tab = await opened;
    // The new tab starts at about:blank, then loads the link.
    await expect(tab).toHaveURL(/\/locations\/101\/control$/);
    await expect(page).toHaveURL(/\/locations$/);
    await tab.close();
  });

  test("the shell's section links mark the current page and navigate in the same document", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations/101/spending");
    await ready(page, info);
    const sections = page.getByRole("navigation", { name: "Sections" });
    await expect(sections.getByRole("link", { name: "Bill History" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(sections.getByRole("link", { name: "Thermostats" })).not.toHaveAttribute("aria-current");
    await mark(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await sections.getByRole("link", { name: "Thermostats" }).click();
    await expect(page).toHaveURL(/\/locations\/101\/control$/);
    await expect(sections.getByRole("link", { name: "Thermostats" })).toHaveAttribute("aria-current", "page");
    await expect(sections.getByRole("link", { name: "Bill History" })).not.toHaveAttribute("aria-current");
    expect(await marked(page)).toBe(isJs(info));

    await mark(page);
    const foot = page.getByRole("complementary", { name: "Main" });
    await foot.getByRole("link", { name: "Manage account" }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(foot.getByRole("link", { name: "Manage account" })).toHaveAttribute("aria-current", "page");
    expect(await marked(page)).toBe(isJs(info));
  });
});
