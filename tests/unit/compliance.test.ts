import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { describe, expect, it } from "vitest";
import {
  barWidth,
  complianceLevel,
  chartTicks,
  DAY_MS,
  formatDay,
  formatFullTime,
  formatPercent,
  historyCsvRows,
  HOUR_MS,
  historyRange,
  isFutureMonth,
  modeRuns,
  monthAfter,
  nextDaySort,
  parseChartOptions,
  parseDaySort,
  BAD_DAY_MESSAGE,
  BAD_MONTH_MESSAGE,
  parsePeriod,
  pickerYears,
  previousMonthStart,
  sortDays,
  sortLocationsByCompliance,
  tickIntervalMs,
  worstLocations,
  leastCompliantDays,
} from "~/features/compliance/compliance";
import { toCsv } from "../../shared/csv";

const today = new Date(Date.UTC(2026, 10, 21));

describe("period and month picker limits", () => {
  it("defaults to the previous month, ending one month later", () => {
    expect(previousMonthStart(today)).toBe("2026-10-01");
    expect(previousMonthStart(new Date(Date.UTC(2026, 0, 5)))).toBe("2025-12-01");
    expect(monthAfter("2025-12-01")).toBe("2026-01-01");
    expect(parsePeriod(new URLSearchParams(), today)).toMatchObject({
      start: "2026-10-01",
      end: "2026-11-01",
      error: null,
    });
  });

  it("offers the current year and the 12 before it, none before 2021", () => {
    const years = pickerYears(today);
    expect(years).toEqual([2026, 2025, 2024, 2023, 2022, 2021]);
    const later = pickerYears(new Date(Date.UTC(2040, 5, 1)));
    expect(later[0]).toBe(2040);
    expect(later.at(-1)).toBe(2028);
    expect(later).toHaveLength(13);
  });

  it("a month before 2021 falls back to the default with the message, as other bad months do", () => {
    expect(parsePeriod(new URLSearchParams("period=month&start=2019-05-01"), today)).toMatchObject({
      start: "2026-10-01",
      error: BAD_MONTH_MESSAGE,
    });
    expect(parsePeriod(new URLSearchParams("period=month&start=2020-12-01"), today).error).toBe(
      BAD_MONTH_MESSAGE,
    );
    expect(parsePeriod(new URLSearchParams("period=month&start=2021-01-01"), today)).toMatchObject({
      start: "2021-01-01",
      error: null,
    });
    expect(parsePeriod(new URLSearchParams("period=day&start=2019-05-14"), today)).toMatchObject({
      start: "2026-10-01",
      day: null,
      error: BAD_DAY_MESSAGE,
    });
  });

  it("disables future months only", () => {
    expect(isFutureMonth(2026, 11, today)).toBe(false);
    expect(isFutureMonth(2026, 12, today)).toBe(true);
    expect(isFutureMonth(2025, 12, today)).toBe(false);
    expect(isFutureMonth(2027, 1, today)).toBe(true);
  });

  it("refuses a future, too old or malformed start and falls back to the default", () => {
    expect(parsePeriod(new URLSearchParams("period=month&start=2026-03-01"), today)).toMatchObject({
      start: "2026-03-01",
      end: "2026-04-01",
      error: null,
    });
    expect(parsePeriod(new URLSearchParams("start=2026-12-01"), today)).toMatchObject({
      start: "2026-10-01",
      error: expect.any(String),
    });
    expect(parsePeriod(new URLSearchParams("start=2013-05-01"), today).start).toBe("2026-10-01");
    expect(parsePeriod(new URLSearchParams("start=garbage"), today).error).not.toBeNull();
  });
});

describe("the day view of the Thermostat Settings chart", () => {
  const at = (q: string) => parsePeriod(new URLSearchParams(q), today);

  it("opens one day of its month: the report stays the month's, the history is asked for that day", () => {
    const p = at("period=day&start=2026-10-14");
    expect(p).toMatchObject({ start: "2026-10-01", end: "2026-11-01", day: "2026-10-14", error: null });
    expect(historyRange(p)).toEqual({ start: "2026-10-14", end: "2026-10-15" });
    // The last day of a year ends on the next year's first.
    expect(historyRange(at("period=day&start=2025-12-31"))).toEqual({
      start: "2025-12-31",
      end: "2026-01-01",
    });
    // Today is a day too (its readings so far).
    expect(at("period=day&start=2026-11-21")).toMatchObject({ day: "2026-11-21", error: null });
    // The month view asks for the month.
    expect(historyRange(at("period=month&start=2026-10-01"))).toEqual({
      start: "2026-10-01",
      end: "2026-11-01",
    });
    expect(at("period=month&start=2026-10-01").day).toBeNull();
  });

  it("shows the month with a message for a day that does not exist, lies ahead or is out of reach", () => {
    // Not a date: its month, when the month can be shown.
    expect(at("period=day&start=2026-02-30")).toMatchObject({
      start: "2026-02-01",
      day: null,
      error: expect.stringContaining("Least Compliant Days"),
    });
    expect(at("period=day&start=2026-10-45")).toMatchObject({ start: "2026-10-01", day: null });
    // Later this month: this month, no day.
    expect(at("period=day&start=2026-11-22")).toMatchObject({ start: "2026-11-01", day: null });
    // A future month, one before the picker's years, garbage or nothing: the default month.
    for (const q of [
      "period=day&start=2027-01-03",
      "period=day&start=2013-05-02",
      "period=day&start=x",
      "period=day",
    ])
      expect(at(q)).toMatchObject({ start: "2026-10-01", day: null, error: expect.any(String) });
  });
});

describe("compliance sorting with the 100 rule", () => {
  const b = (id: number, pct: number | null, reach: number) => ({
    buildingId: id,
    addressLine1: `${id} Main St`,
    scheduleCompliancePercentage: pct,
    reachableDuration: reach,
  });
  it("ranks ascending and counts no reachable duration as 100", () => {
    const sorted = sortLocationsByCompliance([
      b(1, 90, 10),
      b(2, null, 0),
      b(3, 20, 10),
      b(4, 100, 10),
      b(5, 55, 10),
    ]);
    expect(sorted.map((x) => x.buildingId)).toEqual([3, 5, 1, 2, 4]);
    expect(
      worstLocations([b(1, 90, 10), b(2, null, 0), b(3, 20, 10), b(5, 55, 10)]).map((x) => x.buildingId),
    ).toEqual([3, 5, 1]);
    expect(worstLocations([b(2, null, 0), b(6, 99.5, 10)]).map((x) => x.buildingId)).toEqual([6, 2]);
  });

  it("draws bars at least 25% wide", () => {
    expect(barWidth(0)).toBe(25);
    expect(barWidth(24.9)).toBe(25);
    expect(barWidth(60)).toBe(60);
    expect(barWidth(100)).toBe(100);
  });

  it("colours bars by compliance: good from 80, fair from 50, poor below, none without data", () => {
    const lv = (p: number | null, reach = 10) =>
      complianceLevel({ scheduleCompliancePercentage: p, reachableDuration: reach });
    expect([24, 31, 39, 49.4].map((p) => lv(p))).toEqual(["poor", "poor", "poor", "poor"]);
    expect([49.5, 50, 71, 79.4].map((p) => lv(p))).toEqual(["fair", "fair", "fair", "fair"]);
    expect([79.5, 80, 100].map((p) => lv(p))).toEqual(["good", "good", "good"]);
    expect(lv(null)).toBe("none");
    expect(lv(90, 0)).toBe("none");
  });

  it("rounds percentages or says N/A", () => {
    expect(formatPercent(57.14)).toBe("57%");
    expect(formatPercent(66.67)).toBe("67%");
    expect(formatPercent(null)).toBe("N/A");
  });
});

describe("least compliant days", () => {
  it("formats a day like Monday, March 3rd", () => {
    expect(formatDay("2025-03-03")).toBe("Monday, March 3rd");
    expect(formatDay("2026-10-22")).toBe("Thursday, October 22nd");
    expect(formatDay("2026-10-11")).toBe("Sunday, October 11th");
  });

  const days = [
    { date: "2026-10-01", scheduleCompliancePercentage: 40, permanentHoldCount: 0 },
    { date: "2026-10-02", scheduleCompliancePercentage: 10, permanentHoldCount: 2 },
    { date: "2026-10-03", scheduleCompliancePercentage: 75, permanentHoldCount: null },
  ];
  it("sorts by compliance descending by default, holds default to 0", () => {
    expect(parseDaySort(null)).toEqual({ key: "compliance", dir: "desc" });
    expect(sortDays(days, parseDaySort(null)).map((d) => d.date)).toEqual([
      "2026-10-03",
      "2026-10-01",
      "2026-10-02",
    ]);
    expect(sortDays(days, { key: "compliance", dir: "asc" }).map((d) => d.date)).toEqual([
      "2026-10-02",
      "2026-10-01",
      "2026-10-03",
    ]);
    expect(sortDays(days, { key: "holds", dir: "desc" }).map((d) => d.date)).toEqual([
      "2026-10-02",
      "2026-10-01",
      "2026-10-03",
    ]);
    expect(parseDaySort("holds:sideways")).toEqual({ key: "compliance", dir: "desc" });
  });

  it("flips the active column and starts another descending", () => {
    expect(nextDaySort({ key: "compliance", dir: "desc" }, "compliance")).toEqual({
      key: "compliance",
      dir: "asc",
    });
    expect(nextDaySort({ key: "compliance", dir: "asc" }, "holds")).toEqual({ key: "holds", dir: "desc" });
  });
});

describe("chart ticks", () => {
  it("marks one day every 6 hours at the building's local time, across a change of clocks", () => {
    // Oct 14, 2026 in Los Angeles: 12 AM, 6 AM, 12 PM, 6 PM and the next midnight.
    const day = Date.UTC(2026, 9, 14, 7);
    expect(chartTicks(day, day + DAY_MS, "America/Los_Angeles").map((t) => (t - day) / HOUR_MS)).toEqual([
      0, 6, 12, 18, 24,
    ]);
    // Nov 1, 2026 has 25 hours there: the marks stay on the local 6 AM, 12 PM and 6 PM.
    const fallBack = Date.UTC(2026, 10, 1, 7);
    const end = Date.UTC(2026, 10, 2, 8);
    expect(
      chartTicks(fallBack, end, "America/Los_Angeles").map((t) => new Date(t).toISOString().slice(11, 16)),
    ).toEqual(["07:00", "14:00", "20:00", "02:00", "08:00"]);
  });

  const start = Date.UTC(2026, 9, 1, 7); // Oct 1, 00:00 in Los Angeles
  it("uses 6 hours under 7 days, otherwise 1 day", () => {
    expect(tickIntervalMs(start, start + 6 * DAY_MS)).toBe(6 * HOUR_MS);
    expect(tickIntervalMs(start, start + 7 * DAY_MS - 1)).toBe(6 * HOUR_MS);
    expect(tickIntervalMs(start, start + 7 * DAY_MS)).toBe(DAY_MS);
    expect(tickIntervalMs(start, start + 31 * DAY_MS)).toBe(DAY_MS);
  });

  it("aligns ticks to the building's local midnight, across a DST change", () => {
    const end = Date.UTC(2026, 10, 1, 7); // Nov 1 00:00 PDT
    const ticks = chartTicks(start, end, "America/Los_Angeles");
    expect(ticks).toHaveLength(32);
    expect(new Date(ticks[0]).toISOString()).toBe("2026-10-01T07:00:00.000Z");
    const short = chartTicks(start, start + 2 * DAY_MS, "America/Los_Angeles");
    expect(short.map((t) => new Date(t).toISOString().slice(11, 16))).toEqual([
      "07:00",
      "13:00",
      "19:00",
      "01:00",
      "07:00",
      "13:00",
      "19:00",
      "01:00",
      "07:00",
    ]);
  });
});

describe("chart options, CSV and mode bands", () => {
  it("shows every series unless the series form was sent", () => {
    expect(parseChartOptions(new URLSearchParams()).visible).toEqual(["schedule", "cool", "heat", "indoor"]);
    expect(
      parseChartOptions(new URLSearchParams("chart=1&show=indoor&show=cool&plotBands=mode&showMarker=true")),
    ).toEqual({
      visible: ["cool", "indoor"],
      plotBands: "mode",
      showMarker: true,
    });
    expect(parseChartOptions(new URLSearchParams("chart=1")).visible).toEqual([]);
  });

  const items = [
    {
      recordedAt: "2026-10-01T07:00:00.000Z",
      scheduleSetpointF: 74,
      coolSetpointF: 74,
      heatSetpointF: 68,
      indoorTemperatureF: 71.2,
      mode: "cool",
    },
    {
      recordedAt: "2026-10-01T07:30:00.000Z",
      scheduleSetpointF: 74,
      coolSetpointF: 72,
      heatSetpointF: null,
      indoorTemperatureF: 70.9,
      mode: "cool",
    },
    {
      recordedAt: "2026-10-01T09:00:00.000Z",
      scheduleSetpointF: 80,
      coolSetpointF: 80,
      heatSetpointF: 62,
      indoorTemperatureF: 72,
      mode: "auto",
    },
  ];
  it("writes the plotted series as CSV in local time", () => {
    expect(toCsv(historyCsvRows(items, ["schedule", "heat"], "America/Los_Angeles")).split("\r\n")).toEqual([
      "Time,Recommended Schedule (°F),Heat Setpoint (°F)",
      "2026-10-01 00:00,74,68",
      "2026-10-01 00:30,74,",
      "2026-10-01 02:00,80,62",
      "",
    ]);
  });

  it("groups contiguous samples of one mode, broken by gaps", () => {
    const runs = modeRuns(items, Date.parse("2026-10-01T09:30:00.000Z"));
    expect(runs.map((r) => r.mode)).toEqual(["cool", "auto"]);
    expect(new Date(runs[0].to).toISOString()).toBe("2026-10-01T09:00:00.000Z");
  });
});

describe("formatFullTime (cached Intl parts)", () => {
  it("matches date-fns' 'EEEE, MMMM d, yyyy, h:mm a' in the building's timezone, DST changes included", () => {
    for (const tz of ["America/New_York", "America/Los_Angeles", "America/Phoenix", "Pacific/Honolulu"]) {
      for (let ms = Date.UTC(2025, 0, 1); ms < Date.UTC(2026, 0, 1); ms += 433 * 60 * 1000) {
        expect(formatFullTime(ms, tz)).toBe(format(new TZDate(ms, tz), "EEEE, MMMM d, yyyy, h:mm a"));
      }
    }
    // The DST change itself: 1:59 AM EDT is followed by 1:00 AM EST.
    expect(formatFullTime(Date.parse("2025-11-02T05:30:00Z"), "America/New_York")).toBe(
      "Sunday, November 2, 2025, 1:30 AM",
    );
    expect(formatFullTime(Date.parse("2025-11-02T06:30:00Z"), "America/New_York")).toBe(
      "Sunday, November 2, 2025, 1:30 AM",
    );
    expect(formatFullTime(Date.parse("2025-03-09T07:00:00Z"), "America/New_York")).toBe(
      "Sunday, March 9, 2025, 3:00 AM",
    );
  });
});

describe("leastCompliantDays (rule least-compliant-days-under-100)", () => {
  const day = (date: string, pct: number | null) => ({
    date,
    scheduleCompliancePercentage: pct,
    permanentHoldCount: 0,
  });

  it("leaves out the days that read 100 %, keeping every other day and those without a figure", () => {
    const days = [
      day("2026-10-01", 100),
      day("2026-10-02", 99.6),
      day("2026-10-03", 99.4),
      day("2026-10-04", 88),
      day("2026-10-05", 0),
      day("2026-10-06", null),
    ];
    expect(leastCompliantDays(days).map((d) => d.date)).toEqual([
      "2026-10-03",
      "2026-10-04",
      "2026-10-05",
      "2026-10-06",
    ]);
  });

  it("lists nothing for a month of fully compliant days (the table then reads N/A)", () => {
    expect(leastCompliantDays([day("2026-10-01", 100), day("2026-10-02", 100)])).toEqual([]);
  });
});
