import type { Locator, Page } from "@playwright/test";
import { expect, loginAs, ready, test, USERS, type User } from "./fixtures";

/**
 * Reflow (WCAG 2.2 1.4.10): on a 390 px phone, at 320 CSS px and at 200 % zoom on a 1280 px screen (640 CSS
 * px, the sidebar still beside the page) no signed-in page scrolls sideways, and the values a user needs from
 * each table are on screen, not hidden in a table's own sideways scroll. At 1280 px the tables stay tables.
 */
const PHONE_AND_ZOOM = [
  { width: 390, height: 800 },
  { width: 320, height: 700 },
  { width: 640, height: 800 },
];
const WIDE = { width: 1280, height: 800 };
// Four page loads per test on a shared machine: generous.
test.describe.configure({ timeout: 120_000 });

/** The needed cells of a page's table (the same selectors match the table and its card layout). */
type Needed = (page: Page) => { name: string; cell: Locator }[];

const PAGES: { name: string; path: string; user: User; table?: string; needed?: Needed }[] = [
  {
    name: "locations",
    path: "/locations",
    user: "dana",
    table: ".locations-table",
    needed: (page) => {
      const row = page.locator("[data-testid^='location-row-']").first();
      return [
        { name: "the location's name", cell: row.locator(".location-name") },
        { name: "the status pill", cell: row.locator("td").nth(2).locator(".pill") },
        { name: "the Last Bill date", cell: row.locator("td.last-bill") },
        { name: "the ⋯ menu", cell: row.locator(".row-menu > summary") },
      ];
    },
  },
  { name: "a control room", path: "/locations/105/control", user: "dana" },
  {
    name: "spending",
    path: "/locations/101/spending",
    user: "dana",
    needed: (page) => {
      const row = page.locator(".bills-table tbody tr[data-testid^='bill-']").first();
      return [
        { name: "the total charges", cell: row.locator("td[data-label='Total charges']") },
        { name: "the bill's PDF link", cell: row.locator("td[data-label='Bill'] a") },
      ];
    },
  },
  { name: "usage", path: "/locations/104/usage/demand", user: "dana" },
  {
    name: "findings",
    path: "/findings",
    user: "dana",
    table: ".findings-table",
    needed: (page) => {
      const row = page.getByTestId("finding-row").first();
      return [
        { name: "the location", cell: row.locator("td.col-location") },
        { name: "the amount at stake", cell: row.locator("td.col-stake") },
        { name: "the state", cell: row.locator("td.col-state") },
        { name: "the recovered amount", cell: row.locator("td.col-recovered") },
      ];
    },
  },
  {
    name: "grid services",
    path: "/grid-services",
    user: "dana",
    table: ".grid-table",
    needed: (page) => {
      const row = page.getByTestId("dispatch-row").first();
      return [
        { name: "the location", cell: row.locator(".grid-address") },
        { name: "the Status", cell: row.locator("td").nth(3).locator(".pill") },
        { name: "the Start", cell: row.locator("td").nth(5).locator("time") },
        { name: "the End", cell: row.locator("td").nth(6).locator("time") },
      ];
    },
  },
  {
    name: "the compliance report",
    path: "/override-report",
    user: "dana",
    table: "[data-testid='thermostat-table']",
    needed: (page) => {
      const row = page.getByTestId("thermostat-row").first();
      return [
        { name: "the thermostat", cell: row.locator("td").nth(1) },
        { name: "the compliance percentage", cell: row.locator("td").nth(2) },
        { name: "the VIEW button", cell: row.locator("td").nth(5).locator(".btn") },
      ];
    },
  },
  {
    name: "a one-thermostat compliance page",
    path: "/override-report/1003",
    user: "dana",
    needed: (page) => {
      const row = page.getByTestId("worst-day").first();
      return [
        { name: "the day", cell: row.locator("td").nth(0) },
        { name: "the compliance percentage", cell: row.locator("td").nth(1) },
        { name: "the holds", cell: row.locator("td").nth(2) },
      ];
    },
  },
  {
    name: "accounts",
    path: "/accounts",
    user: "dana",
    needed: (page) => {
      const row = page.locator(".account-table tbody tr").first();
      return [
        { name: "the account number", cell: row.locator("td").nth(0) },
        { name: "the Bill Monitoring status", cell: row.locator("td").nth(2).locator(".pill").first() },
      ];
    },
  },
  {
    name: "the connect flow's accounts on file",
    path: "/authorize-arcadia?step=review_accounts&utility=prov_comed",
    user: "dana",
    table: ".connect-flow .table",
    needed: (page) => {
      // The second ComEd account: invalid credentials, its badge carries a tooltip (the widest cell).
      const row = page.locator(".connect-flow .table tbody tr").nth(1);
      return [
        { name: "the location", cell: row.locator("td").nth(0) },
        { name: "the account number", cell: row.locator("td").nth(1) },
        { name: "the Bill Monitoring status", cell: row.locator("td").nth(2).locator(".pill") },
      ];
    },
  },
  {
    name: "the connect flow's ConEd account list",
    path: "/authorize-arcadia?step=enter_coned_credentials&utility=prov_coned&confirmed=on&account=29-4410-8801-0001-2&account=29-4410-8801-0002-0",
    user: "dana",
    needed: (page) => {
      const item = page.locator(".account-list li").nth(1);
      return [
        { name: "the account number", cell: item.getByText("29-4410-8801-0002-0") },
        { name: "its Remove button", cell: item.getByRole("button", { name: /^Remove account/ }) },
      ];
    },
  },
  { name: "settings", path: "/settings", user: "dana" },
  {
    name: "settings, team",
    path: "/settings?tab=team",
    user: "dana",
    table: ".team-table",
    needed: (page) => {
      const row = page.locator(".team-table tbody tr").first();
      return [
        { name: "the email", cell: row.locator("td").nth(1) },
        { name: "the locations", cell: row.locator("td").nth(2) },
        { name: "Edit access", cell: row.getByRole("link", { name: /^Edit access/ }) },
      ];
    },
  },
  { name: "impersonate (staff)", path: "/impersonate", user: "morgan" },
  { name: "investigations (staff)", path: "/investigations", user: "morgan" },
];

/**
 * Scrolls the page (vertically only: a table's own sideways scroll stays where it is) so the cell is in view,
 * then expects all of it on screen: inside the viewport and not cut off by a scrolling ancestor.
 */
async function expectOnScreen(page: Page, cell: Locator, what: string) {
  await expect(cell, what).toBeVisible();
  await cell.evaluate((el) => window.scrollTo(0, window.scrollY + el.getBoundingClientRect().top - 120));
  await expect(cell, `${what} is on screen`).toBeInViewport({ ratio: 1 });
}

for (const p of PAGES) {
  test(`${p.name}: no sideways scroll at 390, 320 and 640 CSS px; needed values on screen`, async ({
    page,
  }, info) => {
    await loginAs(page, USERS[p.user]);
    for (const size of PHONE_AND_ZOOM) {
      await page.setViewportSize(size);
      await page.goto(p.path);
      await ready(page, info);
      const at = `${p.path} at ${size.width}×${size.height}`;
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${at}: page width`).toBe(
        size.width,
      );
      for (const { name, cell } of p.needed?.(page) ?? []) await expectOnScreen(page, cell, `${at}: ${name}`);
    }
    if (p.table) {
      // Wide screens keep the table (a header row, columns side by side) and its needed values in view.
      await page.setViewportSize(WIDE);
      await page.goto(p.path);
      await ready(page, info);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(WIDE.width);
      await expect(page.locator(`${p.table} > thead`)).toHaveCSS("display", "table-header-group");
      for (const { name, cell } of p.needed?.(page) ?? [])
        await expectOnScreen(page, cell, `1280 px: ${name}`);
    }
  });
}
