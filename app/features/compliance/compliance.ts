import { pageOf } from "~/lib/paging";
import { compareIso, EARLIEST_CALENDAR_YEAR } from "~/lib/dates";
import { format } from "date-fns";
import {
  formatZonedDay,
  formatZonedDayHour,
  formatZonedIsoMinute,
  readParts,
  zonedParts,
  zonedTime,
} from "~/lib/zoned";
import type { CsvCell } from "../../../shared/csv";

/** Schedule compliance / override report rules (docs/rules.md, Schedule compliance). */

export const NO_HISTORY_MESSAGE = "No thermostat data found for the selected date range.";
export const AUTO_RESETS_TOOLTIP =
  "number of times the system reset an override back to the recommended schedule";
export const WORST_LOCATIONS_COUNT = 3;
export const MIN_BAR_PERCENT = 25;
export const PICKER_YEARS_BACK = 12;

const pad = (n: number) => String(n).padStart(2, "0");
const iso = (y: number, m0: number, d = 1) => {
  const dt = new Date(Date.UTC(y, m0, d));
  return `${dt.getUTCFullYear()}-${pad(dt.getUTCMonth() + 1)}-${pad(dt.getUTCDate())}`;
};

/** The default period: the first day of the previous month. */
export function previousMonthStart(today: Date) {
  return iso(today.getUTCFullYear(), today.getUTCMonth() - 1, 1);
}

/** The report's end date: one month after the start. */
export function monthAfter(start: string) {
  const [y, m] = start.split("-").map(Number);
  return iso(y, m, 1);
}

/** Years the picker offers: the current year and the 12 before it, newest first. */
/**
 * The year selector's years (rule compliance-picker-years, docs/rules.md): this year and up to 12 before it, none
 * before the calendars' earliest year, 2021 (the spec's "Picker earliest year 2021").
 */
export function pickerYears(today: Date) {
  const y = today.getUTCFullYear();
  return Array.from({ length: PICKER_YEARS_BACK + 1 }, (_, i) => y - i).filter(
    (year) => year >= EARLIEST_CALENDAR_YEAR,
  );
}

/** A month (1..12) of a year lies after the current month. */
export function isFutureMonth(year: number, month: number, today: Date) {
  const y = today.getUTCFullYear();
  return year > y || (year === y && month > today.getUTCMonth() + 1);
}

export function isPickableMonth(year: number, month: number, today: Date) {
  const years = pickerYears(today);
  return (
    Number.isInteger(month) &&
    month >= 1 &&
    month <= 12 &&
    years.includes(year) &&
    !isFutureMonth(year, month, today)
  );
}

export type Period = {
  /** The report's month: its first day, and the first day of the next month (exclusive). */
  start: string;
  end: string;
  year: number;
  month: number;
  /** One day of that month the Thermostat Settings chart shows (`period=day`), or null for the month. */
  day: string | null;
  error: string | null;
};

export const BAD_MONTH_MESSAGE = "Choose a month from the list; future months are not available.";
export const BAD_DAY_MESSAGE =
  "That day cannot be shown: choose a day from Least Compliant Days. Showing the whole month.";

/** A real calendar date "YYYY-MM-DD" (no February 30th), or null. */
function calendarDate(raw: string | null): [number, number, number] | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw ?? "");
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return iso(y, mo - 1, d) === raw ? [y, mo, d] : null;
}

/**
 * The report period from the URL (rule compliance-default-period, docs/rules.md): `period=month&start=YYYY-MM-01`.
 * A missing start is the previous month; a malformed, too old or future month falls back to it with a message.
 * `period=day&start=YYYY-MM-DD` is one day of a pickable month, up to today (rule compliance-day-view): the
 * report stays that month's, the chart shows the day. A day that does not exist or lies in the future shows
 * its month (or, when the month cannot be shown either, the default one) with a message.
 */
export function parsePeriod(params: URLSearchParams, today: Date): Period {
  const fallback = previousMonthStart(today);
  const raw = params.get("start");
  let start = fallback;
  let day: string | null = null;
  let error: string | null = null;
  const monthOf = (r: string) => {
    const m = /^(\d{4})-(\d{2})-\d{2}$/.exec(r);
    return m && isPickableMonth(Number(m[1]), Number(m[2]), today) ? `${m[1]}-${m[2]}-01` : null;
  };
  if (params.get("period") === "day") {
    const date = calendarDate(raw);
    const month = raw ? monthOf(raw) : null;
    if (date && month && compareIso(raw!, today.toISOString().slice(0, 10)) <= 0) {
      start = month;
      day = raw;
    } else {
      start = month ?? fallback;
      error = BAD_DAY_MESSAGE;
    }
  } else if (raw) {
    const month = monthOf(raw);
    if (month) start = month;
    else error = BAD_MONTH_MESSAGE;
  }
  const [y, mo] = start.split("-").map(Number);
  return { start, end: monthAfter(start), year: y, month: mo, day, error };
}

/** The day after a "YYYY-MM-DD" date. */
export function dayAfter(date: string) {
  const [y, m, d] = date.split("-").map(Number);
  return iso(y, m - 1, d + 1);
}

/**
 * The dates the thermostat history is asked for (end exclusive, as the api reads it): the chosen day alone
 * on the day view, otherwise the report's month.
 */
export function historyRange(period: Pick<Period, "start" | "end" | "day">) {
  return period.day
    ? { start: period.day, end: dayAfter(period.day) }
    : { start: period.start, end: period.end };
}

export function monthLabel(start: string) {
  const [y, m] = start.split("-").map(Number);
  return format(new Date(y, m - 1, 1), "MMMM yyyy");
}

/** A percentage rounded for display, or N/A. */
export function formatPercent(value: number | null | undefined) {
  return value === null || value === undefined || Number.isNaN(value) ? "N/A" : `${Math.round(value)}%`;
}

export type BuildingCompliance = {
  buildingId: number;
  addressLine1: string;
  reachableDuration: number;
  scheduleCompliancePercentage: number | null;
};

/** The compliance a building is ranked by: no reachable duration counts as 100. */
export function rankedCompliance(
  b: Pick<BuildingCompliance, "reachableDuration" | "scheduleCompliancePercentage">,
) {
  return !b.reachableDuration || b.scheduleCompliancePercentage === null
    ? 100
    : b.scheduleCompliancePercentage;
}

/** Buildings by compliance ascending (no reachable duration = 100), ties by address. */
export function sortLocationsByCompliance<T extends BuildingCompliance>(buildings: T[]): T[] {
  return [...buildings].sort(
    (a, b) => rankedCompliance(a) - rankedCompliance(b) || a.addressLine1.localeCompare(b.addressLine1),
  );
}

export const worstLocations = <T extends BuildingCompliance>(buildings: T[]) =>
  sortLocationsByCompliance(buildings).slice(0, WORST_LOCATIONS_COUNT);

/** A compliance bar's width in percent: at least 25. */
export function barWidth(percent: number) {
  return Math.min(100, Math.max(MIN_BAR_PERCENT, percent));
}

export const COMPLIANCE_GOOD_FROM = 80;
export const COMPLIANCE_FAIR_FROM = 50;
export type ComplianceLevel = "good" | "fair" | "poor" | "none";
export const COMPLIANCE_LEVEL_LABELS: Record<ComplianceLevel, string> = {
  good: "Good",
  fair: "Fair",
  poor: "Poor",
  none: "No data",
};

/**
 * How a compliance percentage reads (rule compliance-bar-level, docs/rules.md): 80 % and up is good, 50 % up
 * to 80 % is fair, under 50 % is poor; no reachable time or no percentage is "none". The percentage is
 * rounded first, as it is displayed, so "80%" never reads as fair.
 */
export function complianceLevel(
  b: Pick<BuildingCompliance, "reachableDuration" | "scheduleCompliancePercentage">,
): ComplianceLevel {
  const p = b.scheduleCompliancePercentage;
  if (!b.reachableDuration || p === null || Number.isNaN(p)) return "none";
  const shown = Math.round(p);
  if (shown >= COMPLIANCE_GOOD_FROM) return "good";
  if (shown >= COMPLIANCE_FAIR_FROM) return "fair";
  return "poor";
}

/** "2025-03-03" → "Monday, March 3rd". */
export function formatDay(date: string) {
  const [y, m, d] = date.split("-").map(Number);
  return format(new Date(y, m - 1, d), "EEEE, MMMM do");
}

export type WorstDay = {
  date: string;
  scheduleCompliancePercentage: number | null;
  permanentHoldCount: number | null;
};
/**
 * The days the Least Compliant Days table lists (rule least-compliant-days-under-100, docs/rules.md): a day that reads
 * 100 % was fully compliant, so it is not one of the least compliant, however few bad days the month had. A
 * day without a figure stays (it shows N/A). The table's sort is the spec's (compliance, descending first).
 */
export function leastCompliantDays<D extends Pick<WorstDay, "scheduleCompliancePercentage">>(days: D[]): D[] {
  return days.filter(
    (d) => d.scheduleCompliancePercentage === null || Math.round(d.scheduleCompliancePercentage) < 100,
  );
}
export type DaySortKey = "compliance" | "holds";
export type DaySort = { key: DaySortKey; dir: "asc" | "desc" };
export const DEFAULT_DAY_SORT: DaySort = { key: "compliance", dir: "desc" };

export function parseDaySort(value: string | null): DaySort {
  const [key, dir] = (value ?? "").split(":");
  if ((key === "compliance" || key === "holds") && (dir === "asc" || dir === "desc")) return { key, dir };
  return DEFAULT_DAY_SORT;
}

/** Clicking a column: the same column flips; another column starts descending. */
export function nextDaySort(current: DaySort, key: DaySortKey): DaySort {
  if (current.key === key) return { key, dir: current.dir === "desc" ? "asc" : "desc" };
  return { key, dir: "desc" };
}

/** Days sorted by compliance or holds (a missing hold count is 0), ties by date. */
export function sortDays(days: WorstDay[], sort: DaySort): WorstDay[] {
  const value = (d: WorstDay) =>
    sort.key === "holds" ? (d.permanentHoldCount ?? 0) : (d.scheduleCompliancePercentage ?? -1);
  const sign = sort.dir === "asc" ? 1 : -1;
  return [...days].sort((a, b) => sign * (value(a) - value(b)) || compareIso(a.date, b.date));
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** Tick interval: 6 hours for a span under 7 days, otherwise 1 day. */
export function tickIntervalMs(startMs: number, endMs: number) {
  return endMs - startMs < 7 * DAY_MS ? 6 * HOUR_MS : DAY_MS;
}

const markCache = new Map<string, number[]>();

/**
 * Every `hours`-th local wall-clock hour from the first local midnight at or before `startMs`, within
 * [start, end]. Views of the same months and days come back again and again: kept per period, bounded.
 */
function localMarks(startMs: number, endMs: number, timezone: string, hours: number): readonly number[] {
  if (!(endMs > startMs)) return [];
  const key = `${timezone} ${startMs} ${endMs} ${hours}`;
  let marks = markCache.get(key);
  if (!marks) {
    const first = zonedParts(startMs, timezone);
    marks = [];
    for (let i = 0; i < 2000; i++) {
      // Wall-clock hours past the first local midnight; zonedTime rolls them over into days and months.
      const at = zonedTime(timezone, first.year, first.month, first.day, i * hours);
      if (at > endMs) break;
      if (at >= startMs) marks.push(at);
    }
    if (markCache.size >= 200) markCache.clear();
    markCache.set(key, marks);
  }
  return marks;
}

/**
 * Tick instants (rule history-tick-interval, docs/rules.md) aligned to the building's local midnight, and
 * to its 6-hour marks on a span under 7 days (one day: 12 AM, 6 AM, 12 PM, 6 PM and the next midnight).
 */
export function chartTicks(startMs: number, endMs: number, timezone: string): readonly number[] {
  return localMarks(startMs, endMs, timezone, tickIntervalMs(startMs, endMs) === DAY_MS ? 24 : 6);
}

/**
 * The local midnights within [start, end]: where each day of the chart's per-day summary starts, whatever
 * the ticks' step (6-hour ticks are not days).
 */
export function localMidnights(startMs: number, endMs: number, timezone: string): readonly number[] {
  return localMarks(startMs, endMs, timezone, 24);
}

/** A tick's label in the building's timezone: "Oct 1", or "Oct 1, 6 AM" for 6-hour ticks. */
export function formatTick(ms: number, timezone: string, step: number) {
  const p = zonedParts(ms, timezone);
  return step === DAY_MS ? formatZonedDay(p) : formatZonedDayHour(p);
}

const fullTimeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * Full date and time in the building's timezone, e.g. "Monday, March 3, 2025, 2:30 PM". A month of
 * 30-minute history formats ~3,000 of these per page, so this reads the parts from one cached Intl formatter
 * per timezone (a TZDate plus date-fns format per point was a third of the page's render time).
 */
export function formatFullTime(ms: number, timezone: string) {
  let dtf = fullTimeFormats.get(timezone);
  if (!dtf) {
    dtf = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      weekday: "long",
      month: "long",
      day: "numeric",
      year: "numeric",
      hour: "numeric",
      minute: "2-digit",
      hour12: true,
    });
    fullTimeFormats.set(timezone, dtf);
  }
  const p: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of dtf.formatToParts(+ms)) p[part.type] = part.value;
  return `${p.weekday}, ${p.month} ${p.day}, ${p.year}, ${p.hour}:${p.minute} ${p.dayPeriod?.toUpperCase()}`;
}

export const SERIES = [
  { key: "schedule", label: "Recommended Schedule", field: "scheduleSetpointF", color: "#1f9d55" },
  { key: "cool", label: "Cool Setpoint", field: "coolSetpointF", color: "#1d6fd6" },
  { key: "heat", label: "Heat Setpoint", field: "heatSetpointF", color: "#d64545" },
  { key: "indoor", label: "Indoor Temperature", field: "indoorTemperatureF", color: "#6b7280" },
] as const;
export type SeriesKey = (typeof SERIES)[number]["key"];
export type SeriesField = (typeof SERIES)[number]["field"];

export type ChartOptions = { visible: SeriesKey[]; plotBands: "none" | "mode"; showMarker: boolean };

/**
 * Chart options from the URL. The series form sends `chart=1` with one `show` per checked series, so an
 * unchecked box is remembered; without `chart` every series is shown.
 */
export function parseChartOptions(params: URLSearchParams): ChartOptions {
  const keys = SERIES.map((s) => s.key) as string[];
  const visible = params.get("chart")
    ? (params.getAll("show").filter((k) => keys.includes(k)) as SeriesKey[])
    : (keys as SeriesKey[]);
  return {
    visible: SERIES.map((s) => s.key).filter((k) => visible.includes(k)),
    plotBands: params.get("plotBands") === "mode" ? "mode" : "none",
    showMarker: params.get("showMarker") === "true" || params.get("showMarker") === "on",
  };
}

export type HistoryPoint = {
  recordedAt: string;
  scheduleSetpointF: number | null;
  coolSetpointF: number | null;
  heatSetpointF: number | null;
  indoorTemperatureF: number | null;
  mode?: string | null;
};

export const formatF = (v: number | null | undefined) =>
  v === null || v === undefined ? "—" : `${Math.round(v * 10) / 10}°F`;

/** The plotted series as CSV rows (written by `toCsv`): local time, then each visible series in °F. */
export function historyCsvRows(items: HistoryPoint[], visible: SeriesKey[], timezone: string): CsvCell[][] {
  const series = SERIES.filter((s) => visible.includes(s.key));
  const head = ["Time", ...series.map((s) => `${s.label} (°F)`)];
  const rows = items.map((it) => [
    formatZonedIsoMinute(readParts(Date.parse(it.recordedAt), timezone)),
    ...series.map((s) => it[s.field] ?? null),
  ]);
  return [head, ...rows];
}

/** The y domain: every visible value, padded and rounded out to whole multiples of 5 °F. */
export function yDomain(items: HistoryPoint[], visible: SeriesKey[]): [number, number] {
  const fields = SERIES.filter((s) => visible.includes(s.key)).map((s) => s.field);
  let lo = Infinity;
  let hi = -Infinity;
  for (const it of items)
    for (const f of fields) {
      const v = it[f];
      if (typeof v === "number") {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
  if (!Number.isFinite(lo)) return [50, 90];
  return [Math.floor((lo - 2) / 5) * 5, Math.ceil((hi + 2) / 5) * 5];
}

/** Contiguous runs of one mode, for the optional mode bands. */
export function modeRuns(items: HistoryPoint[], endMs: number) {
  const runs: { mode: string; from: number; to: number }[] = [];
  items.forEach((it, i) => {
    const at = Date.parse(it.recordedAt);
    const mode = it.mode ?? "unknown";
    const next = i + 1 < items.length ? Date.parse(items[i + 1].recordedAt) : endMs;
    const last = runs[runs.length - 1];
    if (last && last.mode === mode && last.to === at) last.to = next;
    else runs.push({ mode, from: at, to: next });
  });
  return runs;
}

export const MODE_LABELS: Record<string, string> = {
  auto: "auto",
  cool: "cool",
  heat: "heat",
  off: "off",
  dehumidifier: "dry",
  emergencyheat: "EM heat",
  ventilation: "fan",
};

/* ---------- the by-thermostat table, paged (rule compliance-thermostats-paged, docs/rules.md) ---------- */

/** Rows of the by-thermostat table on one page: the spec's list page size. */
export const THERMOSTATS_PAGE_SIZE = 75;
/** Up to this many locations the filter is a list of them; past it, a search of their addresses. */
export const LOCATION_FILTER_LIST_MAX = 15;

/**
 * One page of the by-thermostat table: the location filter (a location's id, or with many locations a search
 * whose every word must appear in the address) runs over every thermostat, then 75 rows a page in the
 * report's order (`page` clamped to 1..pages; no rows is one empty page).
 */
export function thermostatTablePage<T extends ThermostatSortable & { buildingId: number }>(
  thermostats: T[],
  filter: { location: number | null; query: string },
  page: number,
  sort: ThermostatSort = DEFAULT_THERMOSTAT_SORT,
  size = THERMOSTATS_PAGE_SIZE,
) {
  const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
  const matched = thermostats.filter(
    (t) =>
      (!filter.location || t.buildingId === filter.location) &&
      words.every((w) => t.addressLine1.toLowerCase().includes(w)),
  );
  return pageOf(sortThermostats(matched, sort), page, size);
}

/**
 * Compliance by Thermostat's sort: by address (numbers in it read as
 * numbers: 7 before 88 before 301 before 1100), compliance, holds or auto resets, in the URL as `sort=key:dir`.
 */
export type ThermostatSortKey = "location" | "compliance" | "holds" | "resets";
export type ThermostatSort = { key: ThermostatSortKey; dir: "asc" | "desc" };
export const DEFAULT_THERMOSTAT_SORT: ThermostatSort = { key: "location", dir: "asc" };
const THERMOSTAT_SORT_KEYS: ThermostatSortKey[] = ["location", "compliance", "holds", "resets"];

export function parseThermostatSort(value: string | null): ThermostatSort {
  const [key, dir] = (value ?? "").split(":");
  const known = THERMOSTAT_SORT_KEYS.find((k) => k === key);
  if (known && (dir === "asc" || dir === "desc")) return { key: known, dir };
  return DEFAULT_THERMOSTAT_SORT;
}

/**
 * Clicking a column: the same column flips; another starts with the worst first (lowest compliance, most
 * holds, most resets), the address column from A and 1.
 */
export function nextThermostatSort(current: ThermostatSort, key: ThermostatSortKey): ThermostatSort {
  if (current.key === key) return { key, dir: current.dir === "asc" ? "desc" : "asc" };
  return { key, dir: key === "location" || key === "compliance" ? "asc" : "desc" };
}

/** Text compared with the numbers in it as numbers ("7 Elm" < "88 Elm" < "1100 Elm"), letters ignoring case. */
export function compareNatural(a: string, b: string): number {
  const chunks = (s: string) => s.toLowerCase().match(/\d+|\D+/g) ?? [];
  const [ca, cb] = [chunks(a), chunks(b)];
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
    const [x, y] = [ca[i], cb[i]];
    const bothDigits = /^\d/.test(x) && /^\d/.test(y);
    const d = bothDigits ? Number(x) - Number(y) || x.length - y.length : x < y ? -1 : x > y ? 1 : 0;
    if (d) return d;
  }
  return ca.length - cb.length;
}

export type ThermostatSortable = {
  thermostatId: number;
  addressLine1: string;
  deviceName?: string;
  scheduleCompliancePercentage?: number | null;
  permanentHoldCount?: number | null;
  autoResetCount?: number | null;
};

/**
 * Rows in the chosen order; ties by address, then device name, then id. A thermostat without a compliance
 * figure (N/A) goes last in either direction: it is neither the best nor the worst.
 */
export function sortThermostats<T extends ThermostatSortable>(rows: T[], sort: ThermostatSort): T[] {
  const sign = sort.dir === "asc" ? 1 : -1;
  const byPlace = (a: T, b: T) =>
    compareNatural(a.addressLine1, b.addressLine1) ||
    compareNatural(a.deviceName ?? "", b.deviceName ?? "") ||
    a.thermostatId - b.thermostatId;
  const num = (t: T): number | null => {
    const v =
      sort.key === "compliance"
        ? t.scheduleCompliancePercentage
        : sort.key === "holds"
          ? (t.permanentHoldCount ?? 0)
          : (t.autoResetCount ?? 0);
    return typeof v === "number" && !Number.isNaN(v) ? v : null;
  };
  return [...rows].sort((a, b) => {
    if (sort.key === "location") return sign * byPlace(a, b);
    const [x, y] = [num(a), num(b)];
    if (x === null || y === null) return (x === null ? 1 : 0) - (y === null ? 1 : 0) || byPlace(a, b);
    return sign * (x - y) || byPlace(a, b);
  });
}
