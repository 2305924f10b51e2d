import { describe, expect, it } from "vitest";
import {
  DAY_HOUR_TICKS,
  energyAxisMax,
  energyAxisTicks,
  gapRanges,
  granularityFor,
  rangeLabel,
  isDayDisabled,
  isMonthDisabled,
  isYearDisabled,
  joinSeries,
  monthWeeks,
  pickerBills,
  resolveView,
  temperatureAxisDomain,
  usageSummary,
  usageXAxisTitle,
  yearGrid,
} from "~/features/usage/usage";
import { formatMoney } from "~/features/bills/bills";
import { bucketLabel, offsetLabel } from "~/features/usage/usage";
import { usageChart, usageTicks } from "~/features/usage/chart-data";

const t = { y: 2026, m: 11, d: 21 };
const bills = [
  { id: 50065, serviceStartDate: "2026-10-09", serviceEndDate: "2026-11-08", statementDate: "2026-11-12" },
];

describe("period → granularity", () => {
  it("maps each period", () => {
    expect(granularityFor("day", "demand")).toBe("quarter_hour");
    expect(granularityFor("day", "consumption")).toBe("hour");
    expect(granularityFor("month", "demand")).toBe("day");
    expect(granularityFor("year", "consumption")).toBe("month");
    expect(granularityFor("bill", "demand")).toBe("day");
  });
});

describe("axes", () => {
  it("energy rounds up to multiples of 4", () => {
    expect(energyAxisMax(0)).toBe(4);
    expect(energyAxisMax(4)).toBe(4);
    expect(energyAxisMax(4.01)).toBe(8);
    expect(energyAxisMax(109.8)).toBe(120);
    expect(energyAxisMax(13948)).toBe(16000);
    expect(energyAxisMax(3.1)).toBe(4);
    for (const v of [0.2, 7, 33, 250, 999, 15291, 123456]) {
      const m = energyAxisMax(v);
      expect(m % 4).toBe(0);
      expect(m).toBeGreaterThanOrEqual(v);
      expect(m).toBeLessThan(v * 2 + 4);
    }
    expect(energyAxisMax(Number.NaN)).toBe(4);
  });
  it("temperatures round out to multiples of 20 °F", () => {
    expect(temperatureAxisDomain([52.3, 71.1])).toEqual([40, 80]);
    expect(temperatureAxisDomain([60, 60])).toEqual([60, 80]);
    expect(temperatureAxisDomain([-3, 101])).toEqual([-20, 120]);
    expect(temperatureAxisDomain([null, undefined])).toEqual([40, 80]);
  });
  it("energy ticks are the axis quarters", () => {
    expect(energyAxisTicks(16000)).toEqual([0, 4000, 8000, 12000, 16000]);
  });
  it("day ticks", () => {
    expect([...DAY_HOUR_TICKS]).toEqual([1, 6, 12, 18, 24]);
  });
});

describe("calendar limits", () => {
  it("year grid: the current year and the 11 preceding; before 2021 and the future disabled", () => {
    expect(yearGrid(t)).toEqual([2015, 2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026]);
    expect(isYearDisabled(2020, t)).toBe(true);
    expect(isYearDisabled(2021, t)).toBe(false);
    expect(isYearDisabled(2027, t)).toBe(true);
  });
  it("later months of this year are disabled", () => {
    expect(isMonthDisabled(2026, 11, t)).toBe(false);
    expect(isMonthDisabled(2026, 12, t)).toBe(true);
    expect(isMonthDisabled(2025, 12, t)).toBe(false);
    expect(isMonthDisabled(2020, 6, t)).toBe(true);
  });
  it("no future days, nothing before 2021", () => {
    expect(isDayDisabled("2026-11-21", t)).toBe(false);
    expect(isDayDisabled("2026-11-22", t)).toBe(true);
    expect(isDayDisabled("2020-12-31", t)).toBe(true);
    expect(isDayDisabled("2026-02-30", t)).toBe(true);
  });
  it("month weeks start on Sunday", () => {
    const weeks = monthWeeks(2026, 11);
    expect(weeks[0][0]).toBe("2026-11-01");
    expect(weeks.flat().filter(Boolean)).toHaveLength(30);
    expect(weeks.every((w) => w.length === 7)).toBe(true);
  });
  it("the bill picker keeps the last 13 months, newest first", () => {
    const list = [
      { id: 1, statementDate: "2025-09-01" },
      { id: 2, statementDate: "2026-01-01" },
      { id: 3, statementDate: "2026-11-01" },
    ];
    expect(pickerBills(list, "2025-10-21").map((b) => b.id)).toEqual([3, 2]);
  });
});

describe("view resolution and the bill fallback", () => {
  it("a bill that exists gives its service period", () => {
    expect(resolveView("bill", "50065", t, bills)).toMatchObject({
      kind: "ok",
      period: "bill",
      startDate: "2026-10-09",
      endDate: "2026-11-08",
    });
  });
  it("a bill that does not exist falls back to month at the current date", () => {
    expect(resolveView("bill", "999", t, bills)).toEqual({
      kind: "redirect",
      period: "month",
      start: "2026-11-01",
    });
    expect(resolveView("bill", null, t, [])).toEqual({
      kind: "redirect",
      period: "month",
      start: "2026-11-01",
    });
  });
  it("defaults and normalisation", () => {
    expect(resolveView(null, null, t, null)).toEqual({
      kind: "redirect",
      period: "month",
      start: "2026-11-01",
    });
    expect(resolveView("day", null, t, null)).toEqual({
      kind: "redirect",
      period: "day",
      start: "2026-11-20",
    });
    expect(resolveView("month", "2026-03-17", t, null)).toEqual({
      kind: "redirect",
      period: "month",
      start: "2026-03-01",
    });
    expect(resolveView("year", "2025-01-01", t, null)).toEqual({
      kind: "ok",
      period: "year",
      start: "2025-01-01",
      startDate: "2025-01-01",
      endDate: "2025-12-31",
    });
    expect(resolveView("day", "2026-02-30", t, null)).toEqual({
      kind: "redirect",
      period: "day",
      start: "2026-11-20",
    });
    expect(resolveView("month", "2026-02-01", t, null)).toMatchObject({ kind: "ok", endDate: "2026-02-28" });
  });
});

describe("series", () => {
  it("joins series and finds gaps without interpolating", () => {
    const e = [
      { startTs: "2026-11-01T00:00:00-07:00", value: 3 },
      { startTs: "2026-11-01T01:00:00-07:00", value: null },
      { startTs: "2026-11-01T02:00:00-07:00", value: null },
      { startTs: "2026-11-01T03:00:00-07:00", value: 5 },
    ];
    const pts = joinSeries(e, [{ startTs: e[0].startTs, value: 70 }], []);
    expect(pts).toHaveLength(4);
    expect(pts[0]).toEqual({ startTs: e[0].startTs, energy: 3, indoor: 70, outdoor: null });
    expect(pts[1].energy).toBeNull();
    expect(gapRanges(pts)).toEqual([[1, 2]]);
  });

  it("keeps the two 1:00 AMs of the day the clocks go back apart, in the order they happened", () => {
    // Listed out of order: the series sort by instant, not by wall-clock time.
    const e = [
      { startTs: "2026-11-01T01:00:00-08:00", value: 2 },
      { startTs: "2026-11-01T00:00:00-07:00", value: 3 },
      { startTs: "2026-11-01T02:00:00-08:00", value: 4 },
      { startTs: "2026-11-01T01:00:00-07:00", value: 1 },
    ];
    const pts = joinSeries(e, [], []);
    expect(pts.map((p) => p.energy)).toEqual([3, 1, 2, 4]);
    const chart = usageChart(pts, "consumption", "hour", { energy: "kWh", temperature: "°F" });
    expect(chart.points.map((p) => p.label)).toEqual([
      "Nov 1, 12:00 AM",
      "Nov 1, 1:00 AM (UTC−7)",
      "Nov 1, 1:00 AM (UTC−8)",
      "Nov 1, 2:00 AM",
    ]);
    expect(new Set(chart.points.map((p) => p.key)).size).toBe(4);
  });

  it("labels hours by the wall clock; the day the clocks go forward has no 2 AM, and its ticks still find 6 AM", () => {
    const spring = Array.from({ length: 23 }, (_, i) => {
      const h = i < 2 ? i : i + 1;
      const offset = i < 2 ? "-08:00" : "-07:00";
      return { startTs: `2026-03-08T${String(h).padStart(2, "0")}:00:00${offset}`, value: 1 };
    });
    const pts = joinSeries(spring, [], []);
    expect(pts).toHaveLength(23);
    expect(pts.map((p) => bucketLabel(p.startTs, "hour")).slice(1, 3)).toEqual([
      "Mar 8, 1:00 AM",
      "Mar 8, 3:00 AM",
    ]);
    // 6 AM is the 6th hour of that day (index 5), 24 is its end.
    expect(usageTicks(pts, "hour").map((t) => [t.label, t.at])).toEqual([
      ["1", 1],
      ["6", 5],
      ["12", 11],
      ["18", 17],
      ["24", 23],
    ]);
    expect(offsetLabel("2026-03-08T03:00:00-07:00")).toBe("UTC−7");
    expect(offsetLabel("2026-03-08T03:00:00+05:30")).toBe("UTC+5:30");
  });
});

describe("the usage summary above the chart", () => {
  const pts = [
    { startTs: "2026-10-01T00:00:00-07:00", energy: 10, indoor: 70, outdoor: 50 },
    { startTs: "2026-10-02T00:00:00-07:00", energy: 48.24, indoor: 72, outdoor: null },
    { startTs: "2026-10-03T00:00:00-07:00", energy: null, indoor: null, outdoor: 61 },
    { startTs: "2026-10-04T00:00:00-07:00", energy: 1200, indoor: 71, outdoor: 58 },
  ];
  it("gives the peak kW for demand and the total kWh for consumption, with average temperatures", () => {
    expect(usageSummary(pts, "demand")).toEqual([
      { label: "Peak demand", value: "1,200.0 kW" },
      { label: "Average indoor temperature", value: "71.0°F" },
      { label: "Average outdoor temperature", value: "56.3°F" },
    ]);
    expect(usageSummary(pts, "consumption")[0]).toEqual({ label: "Total consumption", value: "1,258 kWh" });
  });
  it("adds a bill period's total charges, in dollars; other periods have no cost in the data", () => {
    expect(usageSummary(pts, "consumption", formatMoney(123456))).toEqual([
      { label: "Total consumption", value: "1,258 kWh" },
      { label: "Total charges", value: "$1,234.56" },
      { label: "Average indoor temperature", value: "71.0°F" },
      { label: "Average outdoor temperature", value: "56.3°F" },
    ]);
    expect(usageSummary(pts, "demand", formatMoney(null))[1]).toEqual({
      label: "Total charges",
      value: "—",
    });
    for (const bill of [undefined, null])
      expect(usageSummary(pts, "demand", bill).map((st) => st.label)).not.toContain("Total charges");
  });
  it("says No data rather than 0 when a series is empty", () => {
    expect(usageSummary([{ startTs: "x", energy: null, indoor: null, outdoor: null }], "demand")).toEqual([
      { label: "Peak demand", value: "No data" },
      { label: "Average indoor temperature", value: "No data" },
      { label: "Average outdoor temperature", value: "No data" },
    ]);
  });
});

describe("the usage chart's x axis title", () => {
  it("names a day's hours and the building's zone; other periods are dates or months", () => {
    expect(usageXAxisTitle("quarter_hour", "ET")).toBe("Hour of day (ET)");
    expect(usageXAxisTitle("hour", "PT")).toBe("Hour of day (PT)");
    expect(usageXAxisTitle("hour", null)).toBe("Hour of day");
    expect(usageXAxisTitle("day", "ET")).toBe("Date");
    expect(usageXAxisTitle("month", "ET")).toBe("Month");
  });
});

describe("the week period (rule usage-week-period: the Weekly Rundown's links)", () => {
  it("shows Monday to Sunday by day, its start normalised to its Monday", () => {
    expect(resolveView("week", "2026-11-09", t, null)).toEqual({
      kind: "ok",
      period: "week",
      start: "2026-11-09",
      startDate: "2026-11-09",
      endDate: "2026-11-15",
    });
    expect(resolveView("week", "2026-11-12", t, null)).toEqual({
      kind: "redirect",
      period: "week",
      start: "2026-11-09",
    });
    expect(resolveView("week", null, t, null)).toEqual({
      kind: "redirect",
      period: "week",
      start: "2026-11-09",
    });
    expect(granularityFor("week", "demand")).toBe("day");
    expect(granularityFor("week", "consumption")).toBe("day");
  });
  it("is labelled with its dates", () => {
    const view = resolveView("week", "2026-11-09", t, null);
    expect(view.kind === "ok" && rangeLabel(view)).toBe("Week of Nov 9, 2026 – Nov 15, 2026");
  });
});
