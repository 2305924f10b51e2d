import { readFileSync } from "node:fs";
import type { Page, TestInfo } from "@playwright/test";
import { gapsFor } from "../../api/db/seed/usage";
import { expect, expectJsState, isJs, loginAs, MONTHS, ready, test, USERS } from "./fixtures";
import { TEST_CLOCK_START } from "../support/clock";

const pad = (n: number) => String(n).padStart(2, "0");
const now = new Date(TEST_CLOCK_START);
const today = { y: now.getUTCFullYear(), m: now.getUTCMonth() + 1, d: now.getUTCDate() };
const firstOfMonth = `${today.y}-${pad(today.m)}-01`;
const daysAgo = (n: number) =>
  new Date(Date.UTC(today.y, today.m - 1, today.d - n)).toISOString().slice(0, 10);

async function open(page: Page, info: TestInfo, path: string, who: string = USERS.dana) {
  await loginAs(page, who);
  await page.goto(path);
  await ready(page, info);
}

const svgTicks = (page: Page) => page.locator(".energy-plot .plot-axis-x > span");

test.describe("usage explorer", () => {
  test("the period at a glance above the chart: peak kW or total kWh, average temperatures", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations/104/usage/demand?period=month&start=2026-10-01");
    await ready(page, info);
    const summary = page.getByTestId("usage-summary");
    await expect(summary).toBeVisible();
    await expect(summary.locator("dt")).toHaveText([
      "Peak demand",
      "Average indoor temperature",
      "Average outdoor temperature",
    ]);
    await expect(summary.locator("dd").first()).toHaveText(/^[\d,]+\.\d kW$/);
    await expect(summary.locator("dd").nth(2)).toHaveText(/^-?\d+\.\d°F$/);
    await page.goto("/locations/104/usage/consumption?period=month&start=2026-10-01");
    await ready(page, info);
    await expect(summary.locator("dt").first()).toHaveText("Total consumption");
    await expect(summary.locator("dd").first()).toHaveText(/^[\d,]+ kWh$/);
  });

  test("a bill period shows what the bill charged; a day's axis is the hour of the building's day", async ({
    page,
  }, info) => {
    await open(page, info, "/locations/104/spending");
    const row = page.locator('tr[data-testid^="bill-"]').first();
    const billId = (await row.getAttribute("data-testid"))!.slice("bill-".length);
    const charged = (await row.locator('td[data-label="Total charges"]').textContent())!.trim();
    expect(charged).toMatch(/^\$[\d,]+\.\d{2}$/);
    await page.goto(`/locations/104/usage/consumption?period=bill&start=${billId}`);
    await ready(page, info);
    const summary = page.getByTestId("usage-summary");
    await expect(summary.locator("dt")).toHaveText([
      "Total consumption",
      "Total charges",
      "Average indoor temperature",
      "Average outdoor temperature",
    ]);
    await expect(summary.locator("dd").nth(1)).toHaveText(charged);
    // A month is not what a bill covers: no cost in the data for it.
    await page.goto(`/locations/104/usage/consumption?period=month&start=${firstOfMonth}`);
    await ready(page, info);
    await expect(summary.locator("dt")).not.toContainText(["Total charges"]);
    await expect(page.getByTestId("plot-x-title")).toHaveText("Date");
    // Mission is in San Francisco: the day's hours are Pacific time, and the axis says so.
    await page.goto(`/locations/104/usage/demand?period=day&start=${daysAgo(2)}`);
    await ready(page, info);
    await expect(page.getByTestId("plot-x-title")).toHaveText("Hour of day (PT)");
    await expect(svgTicks(page)).toHaveText(["1", "6", "12", "18", "24"]);
    // Chelsea, in New York: Eastern.
    await page.goto(`/locations/109/usage/consumption?period=day&start=${daysAgo(2)}`);
    await ready(page, info);
    await expect(page.getByTestId("plot-x-title")).toHaveText("Hour of day (ET)");
  });

  test("defaults to this month, with the chart, legend, data table and axe", async ({ page, a11y }, info) => {
    await open(page, info, "/locations/101/usage/demand");
    await expectJsState(page, info);
    await expect(page).toHaveURL(new RegExp(`period=month&start=${firstOfMonth}`));
    await expect(
      page.getByRole("heading", { name: `Demand · ${MONTHS[today.m - 1]} ${today.y}` }),
    ).toBeVisible();
    await expect(page.locator(".chart-legend")).toContainText("Outdoor temperature (°F)");
    await expect(page.locator(".chart-legend")).toContainText("Indoor temperature (°F)");
    await expect(page.locator("svg.chart-svg")).toHaveAttribute("aria-label", /Demand in kW/);
    // axes: energy to a multiple of 4, temperatures to multiples of 20 °F
    const rightTicks = await page.locator(".energy-plot .plot-axis-right > span").allTextContents();
    const temps = rightTicks.map(Number).filter((n) => !Number.isNaN(n));
    expect(temps[0] % 20).toBe(0);
    expect(temps[temps.length - 1] % 20).toBe(0);
    await page.getByText("Show data table").click();
    await expect(page.locator(".chart-data tbody tr").first()).toBeVisible();
    if (isJs(info)) {
      await page.locator("svg.chart-svg rect.chart-hit").first().hover();
      await expect(page.locator(".chart-tooltip")).toContainText("Outdoor temperature");
    } else {
      await expect(page.locator("svg.chart-svg rect.chart-hit title").first()).toContainText("Demand:");
    }
    await a11y();
  });

  test("date picker: day, month and year tabs; Cancel; calendar limits", async ({ page, a11y }, info) => {
    await open(page, info, `/locations/101/usage/demand?period=month&start=${firstOfMonth}`);
    await page.getByRole("link", { name: "Select date" }).click();
    const dialog = page.getByRole("dialog").filter({ hasText: "Select a date" });
    await expect(dialog).toBeVisible();
    await a11y();
    // Cancel closes without change
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    // Back where it was, at the opener (the fragment: focus returns there, or the next Tab starts there).
    await expect(page).toHaveURL(new RegExp(`period=month&start=${firstOfMonth}#select-date$`));

    // Day: the previous month's 15th; tomorrow is disabled
    await page.getByRole("link", { name: "Select date" }).click();
    await dialog.getByRole("tab", { name: "Day" }).click();
    if (today.d < 28) {
      const tomorrow = new Date(Date.UTC(today.y, today.m - 1, today.d + 1));
      await expect(
        dialog.getByRole("radio", {
          name: `${MONTHS[tomorrow.getUTCMonth()].slice(0, 3)} ${tomorrow.getUTCDate()}, ${today.y}`,
        }),
      ).toBeDisabled();
    }
    await dialog.getByRole("link", { name: "Previous month" }).click();
    const prev = new Date(Date.UTC(today.y, today.m - 2, 15));
    const prevDay = prev.toISOString().slice(0, 10);
    await dialog
      .getByRole("radio", { name: `${MONTHS[prev.getUTCMonth()].slice(0, 3)} 15, ${prev.getUTCFullYear()}` })
      .check();
    await dialog.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`period=day&start=${prevDay}`));
    await expect(
      page.getByRole("heading", {
        name: `Demand · ${MONTHS[prev.getUTCMonth()]} 15, ${prev.getUTCFullYear()}`,
      }),
    ).toBeVisible();
    await expect(svgTicks(page)).toHaveText(["1", "6", "12", "18", "24"]);
    await page.getByText("Show data table").click();
    await expect(page.locator(".chart-data tbody tr")).toHaveCount(96);

    // Month: later months of this year disabled; January of this year
    await page.getByRole("link", { name: "Select date" }).click();
    await dialog.getByRole("tab", { name: "Month" }).click();
    if (today.m < 12) await expect(dialog.getByRole("radio", { name: `December ${today.y}` })).toBeDisabled();
    await dialog.getByRole("link", { name: "Previous year" }).click();
    await dialog.getByRole("radio", { name: `June ${today.y - 1}` }).check();
    await dialog.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`period=month&start=${today.y - 1}-06-01`));
    await expect(page.getByRole("heading", { name: `Demand · June ${today.y - 1}` })).toBeVisible();

    // Year: 12 years, before 2021 disabled; last year
    await page.getByRole("link", { name: "Select date" }).click();
    await dialog.getByRole("tab", { name: "Year" }).click();
    await expect(dialog.getByRole("radio")).toHaveCount(12);
    await expect(dialog.getByRole("radio", { name: String(today.y) })).toBeEnabled();
    if (today.y - 11 < 2021) await expect(dialog.getByRole("radio", { name: "2020" })).toBeDisabled();
    await dialog.getByRole("radio", { name: String(today.y - 1) }).check();
    await dialog.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`period=year&start=${today.y - 1}-01-01`));
    await expect(svgTicks(page)).toHaveCount(12);
  });

  test("the month grid: the selected month is checked, last year's grid starts unselected", async ({
    page,
  }, info) => {
    await open(page, info, `/locations/101/usage/demand?period=month&start=${firstOfMonth}`);
    await page.getByRole("link", { name: "Select date" }).click();
    const dialog = page.getByRole("dialog").filter({ hasText: "Select a date" });
    await dialog.getByRole("tab", { name: "Month" }).click();
    await expect(dialog.getByRole("radio", { name: `${MONTHS[today.m - 1]} ${today.y}` })).toBeChecked();
    await dialog.getByRole("link", { name: "Previous year" }).click();
    await expect(dialog.getByRole("radio", { name: `${MONTHS[today.m - 1]} ${today.y - 1}` })).toBeVisible();
    // With JavaScript the grid re-renders in place: a reused radio once kept the checked state.
    await expect(dialog.locator("input[type=radio]:checked")).toHaveCount(0);
  });

  test("bill picker, bill period and the fallback", async ({ page }, info) => {
    await open(page, info, `/locations/104/usage/consumption?period=month&start=${firstOfMonth}`);
    await page.getByRole("link", { name: "Select bill" }).click();
    const dialog = page.getByRole("dialog").filter({ hasText: "Select a bill" });
    await expect(dialog).toBeVisible();
    const radios = dialog.getByRole("radio");
    await expect(radios).toHaveCount(13);
    const billId = await radios.first().getAttribute("value");
    await radios.first().check();
    await dialog.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`/usage/consumption\\?period=bill&start=${billId}$`));
    await expect(page.getByRole("heading", { name: /Consumption · Bill period/ })).toBeVisible();
    // the other usage type keeps the period
    await page.getByRole("tab", { name: "Demand" }).click();
    await expect(page).toHaveURL(new RegExp(`/usage/demand\\?period=bill&start=${billId}$`));
    // a bill that does not exist falls back to month at the current date
    await page.goto("/locations/104/usage/demand?period=bill&start=999999");
    await expect(page).toHaveURL(new RegExp(`/usage/demand\\?period=month&start=${firstOfMonth}$`));
    // an unknown usage type is an unknown path: to the index, saying so (spec part 1 §2)
    await page.goto("/locations/104/usage/power?period=day");
    await expect(page).toHaveURL(/\/locations$/);
    await expect(page.getByTestId("toast")).toHaveText(/That page doesn't exist/);
  });

  test("empty bill picker and a location without usage", async ({ page }, info) => {
    await open(page, info, "/locations/201/usage/demand?picker=bill", USERS.alex);
    await expect(page.getByText("No bills found at the moment")).toBeVisible();
    await expect(page.getByText("No usage data is available for this period.")).toBeVisible();
    await loginAs(page, USERS.dana);
    await page.goto("/locations/107/usage/consumption");
    await expect(page.getByText("No usage data is available for this period.")).toBeVisible();
    // another client's location is not found
    await page.goto("/locations/201/usage/demand");
    await expect(page).toHaveURL(/\/locations$/);
  });

  test("gaps are shown as gaps and marked", async ({ page }, info) => {
    const [daysBack] = gapsFor(102)[0];
    await open(page, info, `/locations/102/usage/demand?period=day&start=${daysAgo(daysBack)}`);
    await expect(page.locator(".chart-legend")).toContainText("No data");
    await expect(page.locator("svg.chart-svg rect.chart-gap").first()).toBeAttached();
    await page.getByText("Show data table").click();
    await expect(page.locator(".chart-data tbody td", { hasText: "No data" }).first()).toBeVisible();
  });

  test("CSV of exactly what the chart plots", async ({ page }, info) => {
    const day = daysAgo(3);
    await open(page, info, `/locations/109/usage/consumption?period=day&start=${day}`);
    const [csv] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download CSV" }).click(),
    ]);
    const lines = readFileSync((await csv.path())!, "utf8")
      .trim()
      .split(/\r\n/);
    expect(lines[0]).toBe("Period start,Consumption (kWh),Outdoor temperature (°F),Indoor temperature (°F)");
    expect(lines).toHaveLength(25);
    expect(lines[1].startsWith(`${day}T00:00:00`)).toBe(true);
  });

  test("a start before the earliest date shows the first allowed day, not an error", async ({
    page,
  }, info) => {
    // The api refuses dates before 2021: the page clamps instead (rule usage-period-range). "Error loading
    // data" for a failing call is covered with injected faults in tests/reliability/faults.test.ts.
    await open(page, info, "/locations/101/usage/demand?period=day&start=2019-05-01");
    await expect(page).toHaveURL(/period=day&start=2021-01-01$/);
    await expect(page.getByText("Error loading data")).toHaveCount(0);
  });
});
