import {
  apiUrl,
  expect,
  expectJsState,
  expectNoSeriousA11yViolations,
  isJs,
  loginAs,
  MONTHS,
  ready,
  test,
  USERS,
} from "./fixtures";
import { TEST_CLOCK_START } from "../support/clock";

const now = new Date(TEST_CLOCK_START);
const prev = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
const prevLabel = `${MONTHS[prev.getUTCMonth()]} ${prev.getUTCFullYear()}`;
const thisMonth = MONTHS[now.getUTCMonth()];
const NO_DATA = "No thermostat data found for the selected date range.";

test.describe("schedule compliance report", () => {
  test("the month picker defaults to the previous month and Apply sets period and start", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/override-report");
    await expectJsState(page, info);
    await ready(page, info);
    await expect(page.getByTestId("time-frame")).toContainText(prevLabel);
    await page.getByTestId("time-frame").click();
    const year = now.getUTCFullYear();
    if (now.getUTCMonth() < 11 && isJs(info))
      await expect(page.getByRole("radio", { name: "Dec" })).toBeDisabled();
    await expect(page.getByRole("radio", { name: "Jan" })).toBeEnabled();
    const years = await page.getByLabel("Year").locator("option").allTextContents();
    expect(years[0]).toBe(String(year));
    // 12 years back, never before the calendars' earliest year, 2021.
    expect(years.at(-1)).toBe(String(Math.max(year - 12, 2021)));
    await page.getByLabel("Year").selectOption(String(year - 1));
    if (isJs(info)) await expect(page.getByRole("radio", { name: "Dec" })).toBeEnabled();
    // The same month a year ago: within the 13 months of demo history.
    await page.getByRole("radio", { name: thisMonth.slice(0, 3) }).check({ force: true });
    await page.getByRole("button", { name: "Apply" }).click();
    const mm = String(now.getUTCMonth() + 1).padStart(2, "0");
    await expect(page).toHaveURL(new RegExp(`period=month&start=${year - 1}-${mm}-01`));
    await expect(page.getByTestId("time-frame")).toContainText(`${thisMonth} ${year - 1}`);
    await expect(page.getByTestId("schedule-compliance")).toHaveText(/^\d+%$/);
    // A future month typed into the URL falls back to the default with a message.
    await page.goto(`/override-report?period=month&start=${year + 1}-01-01`);
    await expect(page.getByText("future months are not available")).toBeVisible();
    await expect(page.getByTestId("time-frame")).toContainText(prevLabel);
  });

  test("a month before 2021 in the URL falls back to the default with the message", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/override-report?period=month&start=2019-05-01");
    await ready(page, info);
    await expect(
      page.getByText("Choose a month from the list; future months are not available."),
    ).toBeVisible();
    await expect(page.getByTestId("time-frame")).toContainText(prevLabel);
    await expect(page.getByTestId("time-frame")).not.toContainText("2019");
    await page.getByTestId("time-frame").click();
    await expect(page.getByLabel("Year").locator("option", { hasText: "2019" })).toHaveCount(0);
    // A day of such a month on one thermostat: the day view's message, the default month.
    await page.goto("/override-report/1013?period=day&start=2019-05-14");
    await ready(page, info);
    await expect(page.getByText(/^That day cannot be shown/)).toBeVisible();
    await expect(page.getByTestId("time-frame")).toContainText(prevLabel);
  });

  test("December of last year is picked in one step, with JavaScript on and off", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/override-report");
    await ready(page, info);
    const year = now.getUTCFullYear();
    await page.getByTestId("time-frame").click();
    await page.getByLabel("Year").selectOption(String(year - 1));
    // A real click on the month (the radio covers its cell), no forcing: it must be enabled and clickable.
    await page.getByRole("radio", { name: "Dec" }).check();
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`period=month&start=${year - 1}-12-01`));
    await expect(page.getByTestId("time-frame")).toContainText(`December ${year - 1}`);
  });

  test("cards, the worst 3 locations and the full-width dialog of all locations", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/override-report");
    await ready(page, info);
    await expect(page.getByTestId("schedule-compliance")).toHaveText(/^\d+%$/);
    await expect(page.getByTestId("auto-resets")).toHaveText(/^\d+$/);
    await expect(page.locator('[role="tooltip"]')).toHaveText(
      "number of times the system reset an override back to the recommended schedule",
    );
    const worst = page.getByTestId("worst-locations").locator("li");
    await expect(worst).toHaveCount(3);
    const widths = await page
      .locator('[data-testid="worst-locations"] .location-bar')
      .evaluateAll((els) => els.map((e) => parseFloat((e as HTMLElement).style.width)));
    for (const w of widths) expect(w).toBeGreaterThanOrEqual(25);
    await page.getByTestId("view-all-locations").click();
    await expect(page).toHaveURL(/dialog=locations/);
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("heading", { name: "All locations" })).toBeVisible();
    await expect(dialog.getByTestId("all-locations").locator("li")).toHaveCount(14);
    // Buildings with no reachable time rank as 100: last in the list.
    await expect(dialog.getByTestId("all-locations").locator("li").last()).toContainText("No reachable time");
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).not.toHaveURL(/dialog=/);
  });

  test("filter by location, VIEW a thermostat keeping the query, sort days, BACK", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/grid-services");
    await page.goto("/override-report?period=month&start=" + prev.toISOString().slice(0, 10));
    await ready(page, info);
    await page.getByLabel("Location", { exact: true }).selectOption({ label: "1601 S Congress Ave" });
    if (!isJs(info)) await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/location=105/);
    const rows = page.getByTestId("thermostat-row");
    await expect(rows).toHaveCount(5);
    for (const r of await rows.allTextContents()) expect(r).toContain("1601 S Congress Ave");
    await page.getByRole("link", { name: "VIEW Front of House at 1601 S Congress Ave" }).click();
    await expect(page).toHaveURL(/\/override-report\/1013\?period=month&start=.*&location=105/);
    await expect(page.getByTestId("thermostat-header")).toHaveText(
      /1601 S Congress Ave\s*·\s*Front of House/,
    );
    const days = page.getByTestId("worst-day");
    await expect(days.first()).toBeVisible();
    await expect(days.first().locator("td").first()).toHaveText(
      /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), [A-Z][a-z]+ \d{1,2}(st|nd|rd|th)$/,
    );
    const compliance = (
      await page.locator('[data-testid="worst-day"] td:nth-child(2)').allTextContents()
    ).map((t) => parseInt(t, 10));
    expect(compliance).toEqual([...compliance].sort((a, b) => b - a));
    await page.getByRole("link", { name: /^HOLDS/ }).click();
    await expect(page).toHaveURL(/daySort=holds%3Adesc/);
    await expect(page.getByRole("columnheader", { name: /HOLDS/ })).toHaveAttribute(
      "aria-sort",
      "descending",
    );
    const holds = (await page.locator('[data-testid="worst-day"] td:nth-child(3)').allTextContents()).map(
      Number,
    );
    expect(holds).toEqual([...holds].sort((a, b) => b - a));
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("link", { name: "BACK" }).click();
    await expect(page).toHaveURL(/\/override-report\?period=month&start=.*&location=105$/);
    await expect(page.getByTestId("thermostat-table")).toBeVisible();
    if (isJs(info)) {
      // Selecting and BACK replaced the history entry: going back leaves the report.
      await page.goBack();
      await expect(page).toHaveURL(/\/grid-services$/);
    }
  });

  test("Compliance by Thermostat: addresses in number order, sortable by compliance, holds and resets", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/override-report?period=month&start=" + prev.toISOString().slice(0, 10));
    await ready(page, info);
    const table = page.getByTestId("thermostat-table");
    const column = async (n: number) =>
      (await table.locator(`tbody tr td:nth-child(${n})`).allTextContents()).map((t) => t.trim());
    const numberOf = (address: string) => parseInt(address, 10);
    const addresses = (await column(1)).map(numberOf);
    expect(addresses.length).toBeGreaterThan(3);
    expect(addresses).toEqual([...addresses].sort((a, b) => a - b));
    await expect(table.getByRole("columnheader", { name: /^Location/ })).toHaveAttribute(
      "aria-sort",
      "ascending",
    );
    // Worst first on request.
    await table.getByRole("link", { name: /^Compliance/ }).click();
    await expect(page).toHaveURL(/sort=compliance%3Aasc/);
    await expect(table.getByRole("columnheader", { name: /^Compliance/ })).toHaveAttribute(
      "aria-sort",
      "ascending",
    );
    const pct = (await column(3)).filter((t) => t !== "N/A").map((t) => parseFloat(t));
    expect(pct.length).toBeGreaterThan(3);
    expect(pct).toEqual([...pct].sort((a, b) => a - b));
    await table.getByRole("link", { name: /^Holds/ }).click();
    await expect(page).toHaveURL(/sort=holds%3Adesc/);
    const holds = (await column(4)).map(Number);
    expect(holds).toEqual([...holds].sort((a, b) => b - a));
    await table.getByRole("link", { name: /^Auto Resets/ }).click();
    await expect(page).toHaveURL(/sort=resets%3Adesc/);
    const resets = (await column(5)).map(Number);
    expect(resets).toEqual([...resets].sort((a, b) => b - a));
    await table.getByRole("link", { name: /^Auto Resets/ }).click();
    await expect(page).toHaveURL(/sort=resets%3Aasc/);
    await expectNoSeriousA11yViolations(page);
  });

  test("VIEW is disabled without reachable time, and such a thermostat's history is an empty warning", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/override-report?location=102");
    await ready(page, info);
    const views = page.getByTestId("thermostat-row").getByRole("button", { name: /VIEW/ });
    await expect(views).toHaveCount(2);
    for (const b of await views.all()) await expect(b).toBeDisabled();
    await page.goto("/override-report/1005");
    await expect(page.getByRole("status").filter({ hasText: NO_DATA })).toBeVisible();
    await expect(page.getByTestId("worst-days-empty")).toHaveText("N/A");
  });

  test("the Thermostat Settings chart: series toggles, bands, markers, tooltip, table and CSV", async ({
    page,
  }, info) => {
    // Four chart updates, each a page load on a busy 2-core machine.
    test.slow();
    await loginAs(page, USERS.dana);
    await page.goto("/override-report/1013");
    await ready(page, info);
    const chart = page.getByTestId("thermostat-chart");
    await expect(chart).toBeVisible();
    await expect(chart.getByTestId("chart-y-axis").getByText("°Fahrenheit")).toBeAttached();
    const svg = chart.locator('svg[role="img"]');
    // The spec's frame: 649 px high, a 6000 px plot scrolling inside the chart, never the page.
    await expect(svg).toHaveAttribute("width", "6000");
    await expect(svg).toHaveAttribute("height", "649");
    expect((await chart.getByTestId("chart-y-axis").boundingBox())!.height).toBe(649);
    for (const s of ["schedule", "cool", "heat", "indoor"])
      await expect(chart.getByTestId(`series-${s}`)).toHaveCount(1);
    await expect(page.getByRole("link", { name: "How to read this chart" })).toHaveAttribute(
      "href",
      /^https?:\/\//,
    );
    const csvLink = page.getByTestId("csv-download");
    await expect(csvLink).toHaveAttribute("href", /^\/override-report\/\d+\/csv(\?|$)/);
    const csv = await page.request.get((await csvLink.getAttribute("href"))!);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    expect((await csv.text()).split("\r\n")[0]).toBe(
      "Time,Recommended Schedule (°F),Cool Setpoint (°F),Heat Setpoint (°F),Indoor Temperature (°F)",
    );
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("checkbox", { name: "Cool Setpoint" }).uncheck();
    if (!isJs(info)) await page.getByRole("button", { name: "Update chart" }).click();
    await expect(page).toHaveURL(/chart=1/);
    await expect(chart.getByTestId("series-cool")).toHaveCount(0);
    await expect(chart.getByTestId("series-heat")).toHaveCount(1);
    await page.getByText("Data table").click();
    await expect(page.getByTestId("chart-data-table").getByRole("columnheader")).toHaveText([
      "Day",
      "Recommended Schedule",
      "Heat Setpoint",
      "Indoor Temperature",
    ]);
    await page.getByLabel("Plot bands").selectOption("mode");
    if (!isJs(info)) await page.getByRole("button", { name: "Update chart" }).click();
    await expect(page).toHaveURL(/plotBands=mode/);
    await expect(chart.getByTestId("mode-band").first()).toBeAttached();
    await expect(page.getByRole("checkbox", { name: "Cool Setpoint" })).not.toBeChecked();
    await page.getByRole("checkbox", { name: "Show markers" }).check();
    if (!isJs(info)) await page.getByRole("button", { name: "Update chart" }).click();
    await expect(chart.getByTestId("marker").first()).toBeAttached();
    if (isJs(info)) {
      const overlay = chart.getByTestId("chart-overlay");
      await overlay.hover({ position: { x: 400, y: 300 } });
      const tip = page.getByTestId("chart-tooltip");
      await expect(tip).toBeVisible();
      await expect(tip).toContainText("°F");
      await expect(tip).toContainText(/\d{4}, \d{1,2}:\d{2} (AM|PM)/);
    } else {
      // Without JavaScript each day is a hover target whose title gives the day's lows and highs.
      await expect(svg.locator("rect.tip-rect")).toHaveCount(31);
      await expect(svg.locator("rect.tip-rect > title").first()).toHaveText(
        /^\w+day, \w+ 1, \d{4}\nRecommended Schedule: [\d.–]+°F[\s\S]*Indoor Temperature: /,
      );
    }
  });

  test("Maple Dental has no thermostats; another client's thermostat is not found", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.alex);
    await page.goto("/override-report");
    await ready(page, info);
    await expect(page.getByTestId("schedule-compliance")).toHaveText("N/A");
    await expect(page.getByTestId("auto-resets")).toHaveText("0");
    await expect(page.getByText("No thermostats found.")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    const res = await page.goto("/override-report/1001");
    expect(res?.status()).toBe(404);
    await expect(page.getByText("Thermostat not found")).toBeVisible();
  });

  test("Least Compliant Locations: bars coloured by compliance, with a word that says it too", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/override-report");
    await ready(page, info);
    const items = page.getByTestId("worst-locations").getByRole("listitem");
    await expect(items.first()).toBeVisible();
    const rows = await items.evaluateAll((lis) =>
      lis.map((li) => {
        const pct = Number(/(\d+)%/.exec(li.textContent ?? "")?.[1] ?? NaN);
        const bar = li.querySelector(".location-bar") as HTMLElement;
        return { pct, text: li.textContent ?? "", bg: getComputedStyle(bar).backgroundColor };
      }),
    );
    const word = (p: number) => (p >= 80 ? "Good" : p >= 50 ? "Fair" : "Poor");
    for (const r of rows) if (!Number.isNaN(r.pct)) expect(r.text).toContain(word(r.pct));
    // The demo's worst location is under 50 %: its bar is not the green of a compliant one.
    const worst = rows[0];
    expect(worst.pct).toBeLessThan(50);
    expect(worst.bg).not.toBe("rgb(31, 166, 74)");
  });

  test("Least Compliant Days that fail upstream show the error state and the status, not N/A", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    const planned = await fetch(`${apiUrl(info)}/dev/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        method: "GET",
        pathPrefix: "/override-report/worst-performing-days/",
        status: 500,
      }),
    });
    expect(planned.status).toBe(204);
    const monthStart = prev.toISOString().slice(0, 10);
    const res = await page.goto(`/override-report/1013?period=month&start=${monthStart}`);
    // A monitor sees the failure (ADR 0009); the page around it still shows.
    expect(res?.status()).toBe(502);
    await ready(page, info);
    const card = page.getByRole("region", { name: "Least Compliant Days" });
    await expect(card.getByRole("alert")).toHaveText(NO_DATA);
    await expect(page.getByTestId("worst-days-empty")).toHaveCount(0);
    await expect(page.getByTestId("thermostat-header")).toBeVisible();
    await expect(page.getByTestId("chart-x-labels")).toBeVisible();
    // Once the upstream answers again, so does the page.
    const again = await page.goto(`/override-report/1013?period=month&start=${monthStart}`);
    expect(again?.status()).toBe(200);
    await expect(page.getByTestId("worst-day").first()).toBeVisible();
  });

  test("a Least Compliant Day opens that day in the chart, ticked every 6 hours, and goes back to the month", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    const monthStart = prev.toISOString().slice(0, 10);
    await page.goto(`/override-report/1013?period=month&start=${monthStart}`);
    await ready(page, info);
    const labels = page.getByTestId("chart-x-labels").locator("text");
    // The month: one label a day, no hours.
    await expect(labels.first()).toHaveText(/^[A-Z][a-z]{2} 1$/);
    const day = page.getByTestId("worst-day").first().getByRole("link");
    const dayText = (await day.textContent())!;
    await day.click();
    await expect(page).toHaveURL(/\/override-report\/1013\?period=day&start=\d{4}-\d{2}-\d{2}#day-view$/);
    const date = /start=(\d{4}-\d{2}-\d{2})/.exec(page.url())![1];
    expect(date.slice(0, 7)).toBe(monthStart.slice(0, 7));
    await expect(page.getByTestId("day-view")).toContainText(`Thermostat Settings for ${dayText}`);
    // The row of the day shown says so.
    await expect(page.getByRole("link", { name: new RegExp(`^${dayText}:`) })).toHaveAttribute(
      "aria-current",
      "page",
    );
    // The spec's 6-hour ticks, in the building's time: 12 AM, 6 AM, 12 PM, 6 PM.
    const [, mm, dd] = date.split("-").map(Number);
    const short = `${MONTHS[mm - 1].slice(0, 3)} ${dd}`;
    await expect(labels).toHaveText([
      `${short}, 12 AM`,
      `${short}, 6 AM`,
      `${short}, 12 PM`,
      `${short}, 6 PM`,
    ]);
    // The table of lows and highs is that one day, the month's report stays.
    await expect(page.getByTestId("chart-data-table").locator("tbody tr")).toHaveCount(1);
    await expect(page.getByTestId("time-frame")).toContainText(prevLabel);
    // The CSV is the day's readings (every 30 minutes, one day).
    const csv = await page.request.get((await page.getByTestId("csv-download").getAttribute("href"))!);
    const rows = (await csv.text()).trim().split("\r\n").slice(1);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(50);
    for (const r of rows) expect(r.startsWith(date)).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await page.getByTestId("whole-month").click();
    await expect(page).toHaveURL(new RegExp(`period=month&start=${monthStart}#day-view$`));
    await expect(labels.first()).toHaveText(/^[A-Z][a-z]{2} 1$/);
    await expect(page.getByTestId("chart-data-table").locator("tbody tr")).not.toHaveCount(1);
    // A day that does not exist: the month, with a message, never an error page.
    const res = await page.goto(`/override-report/1013?period=day&start=${monthStart.slice(0, 8)}45`);
    expect(res?.status()).toBe(200);
    await expect(page.getByText("That day cannot be shown")).toBeVisible();
    await expect(page.getByTestId("time-frame")).toContainText(prevLabel);
    await expect(labels.first()).toHaveText(/^[A-Z][a-z]{2} 1$/);
  });

  test("the report passes axe", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/override-report");
    await ready(page, info);
    await expectNoSeriousA11yViolations(page);
  });
});
