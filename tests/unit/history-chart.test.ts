import { describe, expect, it } from "vitest";
import type { HistoryPoint } from "~/features/compliance/compliance";
import {
  areaPath,
  CHART_FRAME,
  chartScales,
  decodeHistory,
  dotsPath,
  formatRange,
  historyChart,
  linePath,
  nearestIndex,
  PLOT_HEIGHT,
  stepSegments,
  yAxisTicks,
} from "~/features/compliance/history-chart";

const TZ = "America/Los_Angeles";
// October 2026 in Los Angeles: local midnights at 07:00Z.
const START = Date.parse("2026-10-01T07:00:00.000Z");
const END = Date.parse("2026-11-01T07:00:00.000Z");

const point = (iso: string, v: Partial<HistoryPoint>): HistoryPoint => ({
  recordedAt: iso,
  scheduleSetpointF: 74,
  coolSetpointF: 76,
  heatSetpointF: 68,
  indoorTemperatureF: 71.04,
  mode: "auto",
  ...v,
});

describe("thermostat chart, compact form", () => {
  const items = [
    point("2026-10-01T07:00:00.000Z", { indoorTemperatureF: 70.04 }),
    point("2026-10-01T07:30:00.000Z", { indoorTemperatureF: 72.46, coolSetpointF: null }),
    point("2026-10-02T07:00:00.000Z", { indoorTemperatureF: 69, mode: "cool" }),
  ];
  const all = {
    visible: ["schedule", "cool", "heat", "indoor"] as const,
    plotBands: "none" as const,
    showMarker: false,
  };

  it("sends the x axis written in the building's timezone, so the browser needs no Intl to draw it", () => {
    const c = historyChart(items, TZ, START, END, { ...all, visible: ["cool"] });
    // October 2026 in Los Angeles has 31 midnights; DST ends on Nov 1, after the period.
    expect(c.xTicks).toHaveLength(32);
    expect(c.xTicks.slice(0, 3)).toEqual([
      { at: 0, label: "Oct 1" },
      { at: 1440, label: "Oct 2" },
      { at: 2880, label: "Oct 3" },
    ]);
    expect(c.xTicks.at(-1)).toEqual({ at: 31 * 1440, label: "Nov 1" });
    // A short period is marked every 6 hours.
    const short = historyChart(items, TZ, START, START + 2 * 86_400_000, { ...all, visible: ["cool"] });
    expect(short.xTicks.slice(0, 2)).toEqual([
      { at: 0, label: "Oct 1, 12 AM" },
      { at: 360, label: "Oct 1, 6 AM" },
    ]);
  });

  it("summarises one day as one day, with its 6-hour ticks", () => {
    const DAY = Date.parse("2026-10-01T07:00:00.000Z");
    const c = historyChart(items, TZ, DAY, DAY + 86_400_000, { ...all, visible: ["indoor"] });
    expect(c.xTicks).toEqual([
      { at: 0, label: "Oct 1, 12 AM" },
      { at: 360, label: "Oct 1, 6 AM" },
      { at: 720, label: "Oct 1, 12 PM" },
      { at: 1080, label: "Oct 1, 6 PM" },
      { at: 1440, label: "Oct 2, 12 AM" },
    ]);
    // One row in the per-day summary (not one per 6-hour tick), with the day's readings only.
    expect(c.days).toEqual([
      { date: "2026-10-01", label: "Thursday, October 1, 2026", from: 0, to: 1440, ranges: [[70, 72.5]] },
    ]);
  });

  it("sends minutes after the start and one rounded array per shown series", () => {
    const c = historyChart(items, TZ, START, END, { ...all, visible: ["cool", "indoor"] });
    // On the wire: steps between readings and comma-separated values, one string each.
    expect(c.count).toBe(3);
    expect(c.t).toBe("0,30,1410");
    expect(c.series).toEqual([
      { key: "cool", values: "76,,76" },
      { key: "indoor", values: "70,72.5,69" },
    ]);
    // Read back as the browser does, from the serialised copy (the server keeps its own arrays).
    expect(decodeHistory(c)).toEqual(decodeHistory(JSON.parse(JSON.stringify(c)) as typeof c));
    const { t, series } = decodeHistory(JSON.parse(JSON.stringify(c)) as typeof c);
    expect(t).toEqual([0, 30, 1440]);
    expect(series.map((s) => s.key)).toEqual(["cool", "indoor"]);
    expect(series[0].values).toEqual([76, null, 76]);
    expect(series[1].values).toEqual([70, 72.5, 69]);
    expect(c.modes).toEqual([]);
    const none = historyChart([], TZ, START, END, { ...all, visible: ["cool"] });
    expect(decodeHistory(JSON.parse(JSON.stringify(none)) as typeof none)).toEqual({
      t: [],
      series: [{ key: "cool", values: [] }],
    });
  });

  it("summarises each local day of the month: lows and highs per shown series", () => {
    const c = historyChart(items, TZ, START, END, { ...all, visible: [...all.visible] });
    expect(c.days).toHaveLength(31);
    expect(c.days[0]).toMatchObject({
      date: "2026-10-01",
      label: "Thursday, October 1, 2026",
      from: 0,
      to: 1440,
    });
    expect(c.days[0].ranges).toEqual([
      [74, 74],
      [76, 76],
      [68, 68],
      [70, 72.5],
    ]);
    expect(c.days[1].ranges[3]).toEqual([69, 69]);
    expect(c.days[2].ranges).toEqual([null, null, null, null]);
    expect(formatRange(c.days[0].ranges[3])).toBe("70–72.5°F");
    expect(formatRange(c.days[0].ranges[0])).toBe("74°F");
    expect(formatRange(null)).toBe("No data");
  });

  it("gives mode bands in minutes only when asked for", () => {
    const c = historyChart(items, TZ, START, END, { ...all, visible: [...all.visible], plotBands: "mode" });
    expect(c.modes).toEqual([
      { mode: "auto", from: 0, to: 1440 },
      { mode: "cool", from: 1440, to: 44640 },
    ]);
  });

  it("draws a series as one stepped path: runs merged, broken by gaps and missing values", () => {
    const x = (m: number) => m;
    const y = (v: number) => v;
    const t = [0, 30, 60, 90, 180, 210];
    const segs = stepSegments(t, [70, 70, 72, null, 65, 65], x, y);
    expect(linePath(segs)).toBe("M0 70H60V72H90M180 65H240");
    expect(areaPath(segs, 100)).toBe("M0 100V70H60V72H90V100ZM180 100V65H240V100Z");
    expect(dotsPath(t, [70, null, 72, null, null, 65], x, y)).toBe("M0 70h0M60 72h0M210 65h0");
  });

  it("finds the reading nearest the pointer", () => {
    expect(nearestIndex([0, 30, 60], 14)).toBe(0);
    expect(nearestIndex([0, 30, 60], 16)).toBe(1);
    expect(nearestIndex([0, 30, 60], 500)).toBe(2);
    expect(nearestIndex([], 5)).toBe(-1);
  });
});

describe("Thermostat Settings chart frame (spec: 649 px high, plot scrolls over 6000 px)", () => {
  it("is 649 px high with a 6000 px plot", () => {
    expect(CHART_FRAME.height).toBe(649);
    expect(CHART_FRAME.plotWidth).toBe(6000);
    expect(PLOT_HEIGHT).toBe(649 - CHART_FRAME.top - CHART_FRAME.bottom);
  });
  it("maps the period across the whole 6000 px and the °F domain onto the plot's height", () => {
    const month = (END - START) / 60_000;
    const { x, y } = chartScales(month, [60, 80]);
    expect(x(0)).toBe(0);
    expect(x(month)).toBe(6000);
    // A month is about 190 px a day, never squeezed into the page's column.
    expect(x(24 * 60)).toBeGreaterThan(190);
    expect(y(80)).toBe(CHART_FRAME.top);
    expect(y(60)).toBe(CHART_FRAME.top + PLOT_HEIGHT);
  });
  it("labels the y axis every 5 °F, or 10 °F over a wide range", () => {
    expect(yAxisTicks([60, 80])).toEqual([60, 65, 70, 75, 80]);
    expect(yAxisTicks([40, 100])).toEqual([40, 50, 60, 70, 80, 90, 100]);
  });
});
