import type { Page, TestInfo } from "@playwright/test";
import { expect, loginAs, MONTHS, moveClocks, ready, test, USERS } from "./fixtures";

const MONTHS_SHORT = MONTHS.map((m) => m.slice(0, 3));

/**
 * A location's "today" is its time zone's date (rule location-today). Both server clocks stand at
 * 7 PM on Nov 30 in Seattle, 03:00 UTC on Dec 1: November is still running at every demo location, so the
 * compliance report opens on October and the usage explorer offers neither Dec 1 nor December. Harbor Coffee's
 * home location is Pike Place, Seattle (101).
 */
test.use({ clockAt: "2026-12-01T03:00:00.000Z" });

async function open(page: Page, info: TestInfo, path: string) {
  await loginAs(page, USERS.dana);
  await page.goto(path);
  await ready(page, info);
}

test.describe("the US month-end evening (Nov 30, 7 PM in Seattle = Dec 1, 03:00 UTC)", () => {
  test("the compliance report opens on the previous month, October, and offers no December", async ({
    page,
  }, info) => {
    await open(page, info, "/override-report");
    await expect(page.getByTestId("time-frame")).toContainText("October 2026");
    const years = await page.getByLabel("Year").locator("option").allTextContents();
    expect(years[0]).toBe("2026");
    // The running month can be chosen; December is the future there.
    await page.goto("/override-report?period=month&start=2026-11-01");
    await ready(page, info);
    await expect(page.getByTestId("time-frame")).toContainText("November 2026");
    await page.goto("/override-report?period=month&start=2026-12-01");
    await ready(page, info);
    await expect(
      page.getByText("Choose a month from the list; future months are not available."),
    ).toBeVisible();
    await expect(page.getByTestId("time-frame")).toContainText("October 2026");
  });

  test("the findings' periods are Seattle's: last month is October, this month November", async ({
    page,
  }, info) => {
    await open(page, info, "/findings?period=last-month");
    await expect(page.getByTestId("findings-count")).toContainText("Oct 1, 2026 – Oct 31, 2026");
    await page.goto("/findings?period=this-month");
    await ready(page, info);
    await expect(page.getByTestId("findings-count")).toContainText("Nov 1, 2026 – Nov 30, 2026");
  });

  test("the usage explorer's defaults and pickers stop at Nov 30", async ({ page }, info) => {
    await open(page, info, "/locations/101/usage/demand");
    await expect(page).toHaveURL(/period=month&start=2026-11-01$/);
    await expect(page.getByRole("heading", { name: "Demand · November 2026" })).toBeVisible();
    // Month tab: November is offered, December is not.
    await page.goto("/locations/101/usage/demand?period=month&start=2026-11-01&picker=date&tab=month");
    await ready(page, info);
    const dialog = page.getByRole("dialog").filter({ hasText: "Select a date" });
    await expect(dialog.getByRole("radio", { name: "November 2026" })).toBeEnabled();
    await expect(dialog.getByRole("radio", { name: "December 2026" })).toBeDisabled();
    // Day tab: Nov 30 (today there) is offered; the next month cannot be opened.
    await page.goto("/locations/101/usage/demand?period=month&start=2026-11-01&picker=date&tab=day");
    await ready(page, info);
    await expect(dialog.getByRole("radio", { name: "Nov 30, 2026" })).toBeEnabled();
    await expect(dialog.getByRole("link", { name: "Next month" })).toHaveCount(0);
    // Year tab: 2026 is the last year.
    await page.goto("/locations/101/usage/demand?period=month&start=2026-11-01&picker=date&tab=year");
    await ready(page, info);
    await expect(dialog.getByRole("radio", { name: "2026" })).toBeEnabled();
    await expect(dialog.getByRole("radio", { name: "2027" })).toHaveCount(0);
    // A hand-typed Dec 1 is the future there: the nearest day offered, Nov 30.
    await page.goto("/locations/101/usage/demand?period=day&start=2026-12-01");
    await expect(page).toHaveURL(/period=day&start=2026-11-30$/);
    // Yesterday there is the default day.
    await page.goto("/locations/101/usage/consumption?period=day");
    await expect(page).toHaveURL(/period=day&start=2026-11-29$/);
  });
});

test.describe("a bill's age on the dashboard counts the location's days (rules old-bill-45-days, location-today)", () => {
  test("Pike Place's last bill turns old at midnight in Seattle, not at midnight UTC", async ({
    page,
  }, info) => {
    // The data seeded at this file's clock: Pike Place's (101, Seattle) last bill is a few days old.
    await open(page, info, "/locations");
    const row = page.getByTestId("location-row-101");
    const shown = (await row.locator("td.last-bill > span").first().innerText()).split("\n")[0];
    const m = /^([A-Z][a-z]{2}) (\d{1,2}), (\d{4})/.exec(shown);
    expect(m, shown).not.toBeNull();
    const last = Date.UTC(Number(m![3]), MONTHS_SHORT.indexOf(m![1]), Number(m![2]));
    const DAY = 86_400_000;
    // 7 PM on the 45th day after it in Seattle (PST, UTC-8): already the 46th day in UTC.
    const evening = new Date(last + 46 * DAY + 3 * 3_600_000).toISOString();
    await moveClocks(info, evening);
    await open(page, info, "/locations");
    await expect(row.locator("td.last-bill")).toContainText(shown);
    await expect(row.getByRole("button", { name: "Warning: old bill" })).toHaveCount(0);
    // 1 AM on the 46th day in Seattle: old.
    await moveClocks(info, new Date(last + 46 * DAY + 9 * 3_600_000).toISOString());
    await open(page, info, "/locations");
    await expect(row.getByRole("button", { name: "Warning: old bill" })).toBeVisible();
  });
});
