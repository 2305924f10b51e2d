import { formatZonedIsoDate, formatZonedLongDate, zonedParts } from "~/lib/zoned";
import {
  chartTicks,
  formatTick,
  localMidnights,
  modeRuns,
  SERIES,
  tickIntervalMs,
  yDomain,
  type ChartOptions,
  type HistoryPoint,
  type SeriesKey,
} from "./compliance";

/**
 * One thermostat's month of 30-minute history in the compact form the page sends and draws (rule
 * thermostat-chart-compact, docs/rules.md): times as minutes after the period's start and one array of
 * values per shown series, instead of ~1,500 objects with ISO strings and every field. The chart draws each
 * series as one path from it, its tooltip reads a point from it, and the per-day summary (the chart's text
 * alternative, with the CSV for every point) is computed once on the server.
 */
export type HistoryChart = {
  timezone: string;
  startMs: number;
  endMs: number;
  /** How many readings. */
  count: number;
  /**
   * Minutes after `startMs` of each reading, written as the step from the one before: "0,30,30,90,…". Strings
   * rather than arrays because the page's data is serialised for hydration value by value: 7,500 numbers were
   * 2 ms of the page's server CPU; `decodeHistory` reads them back.
   */
  t: string;
  /** The shown series, in SERIES order: °F per reading, comma-separated ("" between commas: no reading). */
  series: { key: SeriesKey; values: string }[];
  yDomain: [number, number];
  /** Mode bands (only when asked for), in minutes after `startMs`. */
  modes: { mode: string; from: number; to: number }[];
  /**
   * The x axis: each local midnight (or 6-hour mark on a short period), in minutes after `startMs`, with its
   * label ("Oct 1", "Oct 1, 6 AM"). Written on the server: in the building's timezone they need Intl, whose
   * first formatter costs a phone tens of milliseconds of hydration.
   */
  xTicks: { at: number; label: string }[];
  days: HistoryDay[];
};

export type HistoryDay = {
  /** yyyy-MM-dd in the building's timezone. */
  date: string;
  /** "Wednesday, October 1, 2026". */
  label: string;
  /** Minutes after `startMs` of the day's local midnight and of the next one. */
  from: number;
  to: number;
  /** Per shown series (same order as `series`): lowest and highest reading of the day, or null. */
  ranges: ([number, number] | null)[];
};

/** Minutes between readings: a longer step is a gap (the thermostat was unreachable). */
export const STEP_MIN = 30;

const round1 = (v: number) => Math.round(v * 10) / 10;
const minutes = (ms: number, startMs: number) => Math.round((ms - startMs) / 60_000);

export function historyChart(
  items: HistoryPoint[],
  timezone: string,
  startMs: number,
  endMs: number,
  options: ChartOptions,
): HistoryChart {
  const shown = SERIES.filter((s) => options.visible.includes(s.key));
  const t = items.map((it) => minutes(Date.parse(it.recordedAt), startMs));
  const series: DecodedHistory["series"] = shown.map((s) => ({
    key: s.key,
    values: items.map((it) => {
      const v = it[s.field];
      return typeof v === "number" ? round1(v) : null;
    }),
  }));
  const ticks = chartTicks(startMs, endMs, timezone);
  const tickStep = tickIntervalMs(startMs, endMs);
  // One summary row per local day, not per tick: a day's chart ticks every 6 hours.
  const midnights = localMidnights(startMs, endMs, timezone).filter((ms) => ms < endMs);
  const days: HistoryDay[] = midnights.map((ms, i) => {
    const local = zonedParts(ms, timezone);
    return {
      date: formatZonedIsoDate(local),
      label: formatZonedLongDate(local),
      from: minutes(ms, startMs),
      to: minutes(midnights[i + 1] ?? endMs, startMs),
      ranges: shown.map(() => null),
    };
  });
  let d = 0;
  t.forEach((m, i) => {
    while (d + 1 < days.length && m >= days[d + 1].from) d++;
    const day = days[d];
    if (!day || m < day.from || m >= day.to) return;
    series.forEach((s, si) => {
      const v = s.values[i];
      if (v === null) return;
      const r = day.ranges[si];
      day.ranges[si] = r ? [Math.min(r[0], v), Math.max(r[1], v)] : [v, v];
    });
  });
  let steps = "";
  for (let i = 0; i < t.length; i++) steps += i === 0 ? `${t[0]}` : `,${t[i] - t[i - 1]}`;
  const chart: HistoryChart = {
    timezone,
    startMs,
    endMs,
    count: t.length,
    t: steps,
    series: series.map((s) => ({ key: s.key, values: s.values.join(",") })),
    yDomain: yDomain(items, options.visible),
    xTicks: ticks.map((ms) => ({ at: minutes(ms, startMs), label: formatTick(ms, timezone, tickStep) })),
    modes:
      options.plotBands === "mode"
        ? modeRuns(items, endMs).map((r) => ({
            mode: r.mode,
            from: minutes(r.from, startMs),
            to: minutes(r.to, startMs),
          }))
        : [],
    days,
  };
  // The server renders the page from this very object: it need not read back what it just wrote.
  decoded.set(chart, { t, series });
  return chart;
}

export type DecodedHistory = {
  t: number[];
  series: { key: SeriesKey; values: (number | null)[] }[];
};

const decoded = new WeakMap<object, DecodedHistory>();

/** The readings of a compact history as arrays: minutes after the start, and per series °F or null. */
export function decodeHistory(chart: Pick<HistoryChart, "count" | "t" | "series">): DecodedHistory {
  const known = decoded.get(chart);
  if (known) return known;
  if (chart.count === 0) return { t: [], series: chart.series.map((s) => ({ key: s.key, values: [] })) };
  let at = 0;
  const t = chart.t.split(",").map((step) => (at += Number(step)));
  return {
    t,
    series: chart.series.map((s) => ({
      key: s.key,
      values: s.values.split(",").map((v) => (v === "" ? null : Number(v))),
    })),
  };
}

/** A day's range of one series for the summary table: "68–72°F", "70°F" or "No data". */
export function formatRange(r: [number, number] | null) {
  if (!r) return "No data";
  return r[0] === r[1] ? `${r[0]}°F` : `${r[0]}–${r[1]}°F`;
}

type Seg = { x0: number; y0: number; d: string; x1: number };

/**
 * A series as stepped segments: each reading holds until the next one, or for one step when the next comes
 * later (a gap breaks the line), and a missing value breaks it too. Coordinates to a tenth of a unit; a run
 * of equal values is one horizontal move.
 */
export function stepSegments(
  t: number[],
  values: (number | null)[],
  x: (minute: number) => number,
  y: (value: number) => number,
): Seg[] {
  const segs: Seg[] = [];
  let cur: Seg | null = null;
  let lastY = 0;
  for (let i = 0; i < t.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      if (cur) segs.push(cur);
      cur = null;
      continue;
    }
    const xs = round1(x(t[i]));
    const ys = round1(y(v));
    const next = i + 1 < t.length ? t[i + 1] : Infinity;
    if (!cur) {
      cur = { x0: xs, y0: ys, d: "", x1: xs };
      lastY = ys;
    } else if (ys !== lastY) {
      cur.d += `H${cur.x1}V${ys}`;
      lastY = ys;
    }
    cur.x1 = round1(x(Math.min(next, t[i] + STEP_MIN)));
    if (next > t[i] + STEP_MIN) {
      segs.push(cur);
      cur = null;
    }
  }
  if (cur) segs.push(cur);
  return segs;
}

/** The line through the segments, one path. */
export const linePath = (segs: Seg[]) => segs.map((s) => `M${s.x0} ${s.y0}${s.d}H${s.x1}`).join("");

/** The area under the segments down to `base`, one path. */
export const areaPath = (segs: Seg[], base: number) =>
  segs.map((s) => `M${s.x0} ${base}V${s.y0}${s.d}H${s.x1}V${base}Z`).join("");

/** A dot per reading: zero-length segments drawn with round caps (one path however many points). */
export function dotsPath(
  t: number[],
  values: (number | null)[],
  x: (minute: number) => number,
  y: (value: number) => number,
) {
  let d = "";
  for (let i = 0; i < t.length; i++) {
    const v = values[i];
    if (v !== null && v !== undefined) d += `M${round1(x(t[i]))} ${round1(y(v))}h0`;
  }
  return d;
}

/** The reading nearest a minute (binary search over the sorted times). */
export function nearestIndex(t: number[], minute: number) {
  if (t.length === 0) return -1;
  let lo = 0;
  let hi = t.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t[mid] < minute) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && Math.abs(t[lo - 1] - minute) < Math.abs(t[lo] - minute) ? lo - 1 : lo;
}

/**
 * The Thermostat Settings chart's frame, as the spec gives it: 649 px high, its plot area 6,000 px wide and
 * scrolling sideways while the y axis (°Fahrenheit) stays in view. A month is then ~190 px a day on any
 * screen, instead of the 7 px a day a phone had when the month was squeezed into the column.
 */
export const CHART_FRAME = {
  height: 649,
  plotWidth: 6000,
  /** Room above the plot (the top label) and below it (the day labels). */
  top: 12,
  bottom: 40,
  /** The fixed y-axis column: title and tick labels. */
  axisWidth: 64,
} as const;

/** Height of the plot itself inside the frame. */
export const PLOT_HEIGHT = CHART_FRAME.height - CHART_FRAME.top - CHART_FRAME.bottom;

/** y-axis ticks every 5 °F, or every 10 °F over a wide range, from the low to the high end of the domain. */
export function yAxisTicks([lo, hi]: [number, number]): number[] {
  const step = (hi - lo) / 5 > 8 ? 10 : 5;
  const ticks: number[] = [];
  for (let v = lo; v <= hi; v += step) ticks.push(v);
  return ticks;
}

/** Scales from minutes after the start and from °F to the plot's pixels (x across 6,000 px). */
export function chartScales(totalMin: number, [lo, hi]: [number, number]) {
  const span = Math.max(1, totalMin);
  return {
    x: (minute: number) => (minute / span) * CHART_FRAME.plotWidth,
    y: (v: number) => CHART_FRAME.top + PLOT_HEIGHT - ((v - lo) / (hi - lo || 1)) * PLOT_HEIGHT,
  };
}
