import { withQuery } from "~/lib/query";
import { formatDecimal } from "~/lib/decimal";
import { compareIso, EARLIEST_CALENDAR_YEAR, formatCalendarDate, MONTH_LONG, MONTH_SHORT } from "~/lib/dates";
/** Pure rules of the usage explorer (docs/rules.md, Usage). */

export const USAGE_TYPES = ["demand", "consumption"] as const;
export type UsageType = (typeof USAGE_TYPES)[number];
export const isUsageType = (v: unknown): v is UsageType => v === "demand" || v === "consumption";

/**
 * The periods of the usage page's URL (`period` and `start`). `week` (Monday to Sunday, `start` its Monday) is
 * not offered by the date picker: it is what the Weekly Rundown reports, and its links open it (rule
 * usage-week-period).
 */
export const PERIODS = ["bill", "day", "week", "month", "year"] as const;
export type Period = (typeof PERIODS)[number];
export const isPeriod = (v: unknown): v is Period =>
  typeof v === "string" && (PERIODS as readonly string[]).includes(v);

export type Granularity = "quarter_hour" | "hour" | "day" | "week" | "month" | "year";

/** The server granularity for a page period: day → quarter_hour (demand) or hour (consumption), week and month → day, year → month, bill → day. */
export function granularityFor(period: Period, usageType: UsageType): Granularity {
  switch (period) {
    case "day":
      return usageType === "demand" ? "quarter_hour" : "hour";
    case "week":
    case "month":
      return "day";
    case "year":
      return "month";
    case "bill":
      return "day";
  }
}

const pad = (n: number) => String(n).padStart(2, "0");
export const ymd = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;
export const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A valid calendar date "YYYY-MM-DD" as [y, m, d], or null. */
export function parseYmd(s: string | null | undefined): [number, number, number] | null {
  const m = ISO_DATE.exec(s ?? "");
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return [y, mo, d];
}

export type Today = { y: number; m: number; d: number };
export const todayParts = (date: Date): Today => ({
  y: date.getUTCFullYear(),
  m: date.getUTCMonth() + 1,
  d: date.getUTCDate(),
});
export const todayYmd = (t: Today) => ymd(t.y, t.m, t.d);

// ---- calendar limits (rule calendar-picker-limits, docs/rules.md) ----

/** The year grid: the current year and the 11 preceding ones, oldest first. */
export const yearGrid = (t: Today) => Array.from({ length: 12 }, (_, i) => t.y - 11 + i);
/** Years before 2021 and after this year cannot be chosen. */
export const isYearDisabled = (year: number, t: Today) => year < EARLIEST_CALENDAR_YEAR || year > t.y;
/** Months after the current month of this year (and every month of a disabled year) cannot be chosen. */
export const isMonthDisabled = (year: number, month: number, t: Today) =>
  isYearDisabled(year, t) || (year === t.y && month > t.m);
/** No future days and nothing before 2021. */
export const isDayDisabled = (iso: string, t: Today) => {
  const p = parseYmd(iso);
  return !p || p[0] < EARLIEST_CALENDAR_YEAR || iso > todayYmd(t);
};

/** The weeks of a month for a calendar grid (Sunday first); null pads days outside the month. */
export function monthWeeks(year: number, month: number): (string | null)[][] {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  const cells: (string | null)[] = [...Array<null>(first).fill(null)];
  for (let d = 1; d <= daysInMonth(year, month); d++) cells.push(ymd(year, month, d));
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
}

/** Moves a (year, month) by n months. */
export function addMonths(year: number, month: number, n: number): [number, number] {
  const idx = year * 12 + (month - 1) + n;
  return [Math.floor(idx / 12), (idx % 12) + 1];
}

// ---- the view: period + start → date range ----

export type BillRef = {
  id: number;
  serviceStartDate: string;
  serviceEndDate: string;
  statementDate: string;
  /** The bill's total charges, in cents (null when the bill has none). */
  totalCharges?: number | null;
};

export type View =
  | { kind: "ok"; period: Period; start: string; startDate: string; endDate: string; bill?: BillRef }
  /** The URL must change: a default filled in, or the bill fallback (rule missing-bill-fallback, docs/rules.md). */
  | { kind: "redirect"; period: Period; start: string };

const yesterday = (t: Today) => {
  const d = new Date(Date.UTC(t.y, t.m - 1, t.d - 1));
  return ymd(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
};

/** The default start of each period: yesterday (the last complete day), this month, this year. */
export function defaultStart(period: Exclude<Period, "bill">, t: Today) {
  if (period === "day") return yesterday(t);
  // The last complete week: the Monday before this week's.
  if (period === "week") return mondayOf(addDays(todayYmd(t), -7));
  if (period === "month") return ymd(t.y, t.m, 1);
  return ymd(t.y, 1, 1);
}

/**
 * Resolves the URL's period and start into a date range. A missing or malformed start gets the period's
 * default; a period=bill whose bill does not exist (or no longer exists) falls back to period month at the
 * current date.
 */
export function resolveView(
  periodParam: string | null,
  startParam: string | null,
  t: Today,
  bills: BillRef[] | null,
): View {
  const period: Period = isPeriod(periodParam) ? periodParam : "month";
  if (period === "bill") {
    const bill = bills?.find((b) => String(b.id) === startParam);
    if (!bill) return { kind: "redirect", period: "month", start: defaultStart("month", t) };
    return {
      kind: "ok",
      period,
      start: String(bill.id),
      startDate: bill.serviceStartDate,
      endDate: bill.serviceEndDate,
      bill,
    };
  }
  const parsed = parseYmd(startParam);
  if (!parsed || periodParam !== period)
    return { kind: "redirect", period, start: parsed ? normalise(period, parsed) : defaultStart(period, t) };
  const start = normalise(period, parsed);
  if (start !== startParam) return { kind: "redirect", period, start };
  const [y, m, d] = parsed;
  if (period === "day") return { kind: "ok", period, start, startDate: start, endDate: start };
  if (period === "week") return { kind: "ok", period, start, startDate: start, endDate: addDays(start, 6) };
  if (period === "month")
    return { kind: "ok", period, start, startDate: ymd(y, m, 1), endDate: ymd(y, m, daysInMonth(y, m)) };
  void d;
  return { kind: "ok", period, start, startDate: ymd(y, 1, 1), endDate: ymd(y, 12, 31) };
}

/** A date `days` later (or earlier), calendar arithmetic. */
export function addDays(iso: string, days: number) {
  const [y, m, d] = iso.split("-").map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return ymd(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/** The Monday of the week (Monday to Sunday) a date is in. */
export function mondayOf(iso: string) {
  const [y, m, d] = iso.split("-").map(Number);
  return addDays(iso, -((new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7));
}

function normalise(period: Exclude<Period, "bill">, [y, m, d]: [number, number, number]) {
  if (period === "day") return ymd(y, m, d);
  if (period === "week") return mondayOf(ymd(y, m, d));
  if (period === "month") return ymd(y, m, 1);
  return ymd(y, 1, 1);
}

/** The bills the bill picker offers: those of the last 13 months, newest first. */
export function pickerBills<B extends { statementDate: string }>(bills: B[], minDate: string): B[] {
  return bills
    .filter((b) => b.statementDate >= minDate)
    .sort((a, b) => compareIso(b.statementDate, a.statementDate));
}

// ---- axes (rules energy-axis-rounding and temperature-axis-rounding, docs/rules.md) ----

/**
 * Energy axes round up to a multiple of 4 (at least 4), chosen so the axis splits into 4 equal, readable steps:
 * the maximum is 4 × a whole "nice" step (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k). 13,948 kWh → 16,000; 109.8 kW → 120.
 */
export function energyAxisMax(max: number) {
  if (!Number.isFinite(max) || max <= 0) return 4;
  const raw = max / 4;
  for (let exp = Math.max(0, Math.floor(Math.log10(raw)) - 1); ; exp++) {
    for (const m of [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8]) {
      const step = Math.round(m * 10 ** exp * 1000) / 1000;
      if (Number.isInteger(step) && step >= raw) return step * 4;
    }
  }
}

/** The 5 ticks of an energy axis: 0 and its four quarters. */
export const energyAxisTicks = (axisMax: number) => [0, 1, 2, 3, 4].map((i) => (axisMax / 4) * i);

/** Temperature axes round out to multiples of 20 °F. */
export function temperatureAxisDomain(values: (number | null | undefined)[]): [number, number] {
  const v = values.filter((x): x is number => typeof x === "number" && Number.isFinite(x));
  if (v.length === 0) return [40, 80];
  let lo = Math.floor(Math.min(...v) / 20) * 20;
  let hi = Math.ceil(Math.max(...v) / 20) * 20;
  if (hi === lo) hi = lo + 20;
  if (lo === hi) lo = hi - 20;
  return [lo, hi];
}

/** Day view hour ticks. */
export const DAY_HOUR_TICKS = [1, 6, 12, 18, 24] as const;

/**
 * The x axis's title (rule usage-axis-zone, docs/rules.md): a day's buckets are hours of the building's own
 * day, so its axis says so and names the zone ("Hour of day (ET)"); other periods are dated buckets.
 */
export function usageXAxisTitle(granularity: Granularity, zone: string | null) {
  if (granularity === "quarter_hour" || granularity === "hour")
    return zone ? `Hour of day (${zone})` : "Hour of day";
  return granularity === "month" ? "Month" : "Date";
}

// ---- series ----

export type SeriesValue = { startTs: string; value: number | null };
export type UsagePoint = {
  startTs: string;
  energy: number | null;
  indoor: number | null;
  outdoor: number | null;
};

/** Joins the energy and temperature series by bucket start; a bucket missing from a series is null (a gap). */
export function joinSeries(
  energy: SeriesValue[],
  indoor: SeriesValue[],
  outdoor: SeriesValue[],
): UsagePoint[] {
  // In time order: by instant, so that the two 1:00 AMs of the day the clocks go back (-07:00, then -08:00)
  // stay apart and in the order they happened; by wall-clock time when a value carries no offset.
  const keys = [...new Set([...energy, ...indoor, ...outdoor].map((v) => v.startTs))].sort((a, b) => {
    const [x, y] = [Date.parse(a), Date.parse(b)];
    return Number.isFinite(x) && Number.isFinite(y) && x !== y
      ? x - y
      : compareIso(localPart(a), localPart(b));
  });
  const e = new Map(energy.map((v) => [v.startTs, v.value]));
  const i = new Map(indoor.map((v) => [v.startTs, v.value]));
  const o = new Map(outdoor.map((v) => [v.startTs, v.value]));
  return keys.map((k) => ({
    startTs: k,
    energy: e.get(k) ?? null,
    indoor: i.get(k) ?? null,
    outdoor: o.get(k) ?? null,
  }));
}

/** The local wall-clock part of an ISO timestamp with offset: "2026-11-03T14:15:00-08:00" → "2026-11-03T14:15". */
export const localPart = (iso: string) => iso.slice(0, 16);

/** Ranges of consecutive points without energy data: [first index, last index]. */
export function gapRanges(points: { energy: number | null }[]): [number, number][] {
  const out: [number, number][] = [];
  let from = -1;
  points.forEach((p, i) => {
    if (p.energy === null) {
      if (from < 0) from = i;
    } else if (from >= 0) {
      out.push([from, i - 1]);
      from = -1;
    }
  });
  if (from >= 0) out.push([from, points.length - 1]);
  return out;
}

/** The label of a bucket by granularity, in the building's local time. */
/** "UTC−8": the UTC offset of an ISO timestamp, for an hour the clocks go back over. */
export function offsetLabel(iso: string) {
  const m = /([+-])(\d{2}):(\d{2})$/.exec(iso);
  if (!m) return "UTC";
  const minutes = Number(m[3]);
  return `UTC${m[1] === "-" ? "−" : "+"}${Number(m[2])}${minutes ? `:${m[3]}` : ""}`;
}

/**
 * A bucket's label: "Nov 1, 1:00 AM"; for a wall-clock time that happens twice (`repeated`, the day the clocks
 * go back), with its UTC offset, "Nov 1, 1:00 AM (UTC−7)" then "Nov 1, 1:00 AM (UTC−8)".
 */
export function bucketLabel(iso: string, granularity: Granularity, repeated = false) {
  const local = localPart(iso);
  const [date, time = "00:00"] = local.split("T");
  const [y, m, d] = date.split("-").map(Number);
  if (granularity === "month") return `${MONTH_SHORT[m - 1]} ${y}`;
  if (granularity === "year") return String(y);
  if (granularity === "day" || granularity === "week") return formatCalendarDate(date);
  const [hh, mm] = time.split(":").map(Number);
  const h12 = hh % 12 === 0 ? 12 : hh % 12;
  const label = `${MONTH_SHORT[m - 1]} ${d}, ${h12}:${pad(mm)} ${hh < 12 ? "AM" : "PM"}`;
  return repeated ? `${label} (${offsetLabel(iso)})` : label;
}

/** The wall-clock times a series holds twice (the day the clocks go back): their `localPart`s. */
export function repeatedTimes(points: { startTs: string }[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const p of points) {
    const local = localPart(p.startTs);
    if (seen.has(local)) twice.add(local);
    seen.add(local);
  }
  return twice;
}

/** Hours since local midnight of a bucket start (day view x position). */
export const hourOfDay = (iso: string) => {
  const [hh, mm] = localPart(iso).slice(11).split(":").map(Number);
  return hh + mm / 60;
};

export const unitsLabel = (usageType: UsageType) => (usageType === "demand" ? "kW" : "kWh");
export const usageTitle = (usageType: UsageType) => (usageType === "demand" ? "Demand" : "Consumption");

/** The page's own URL with new query values (period, start, picker, tab...). */
export function usageHref(
  locationId: string | number,
  usageType: UsageType,
  params: Record<string, string | null | undefined>,
) {
  return `/locations/${locationId}/usage/${usageType}${withQuery("", params)}`;
}

/** A human description of the shown range. */
export function rangeLabel(view: Extract<View, { kind: "ok" }>) {
  const [y, m, d] = view.startDate.split("-").map(Number);
  if (view.period === "day") return `${MONTH_LONG[m - 1]} ${d}, ${y}`;
  if (view.period === "week")
    return `Week of ${formatCalendarDate(view.startDate)} – ${formatCalendarDate(view.endDate)}`;
  if (view.period === "month") return `${MONTH_LONG[m - 1]} ${y}`;
  if (view.period === "year") return String(y);
  return `Bill period ${formatCalendarDate(view.startDate)} – ${formatCalendarDate(view.endDate)}`;
}

/** One figure above the usage chart: "Peak demand" "48.2 kW". */
export type UsageStat = { label: string; value: string };

/**
 * The period at a glance, above the chart (rule usage-summary, docs/rules.md): the peak kW (demand) or the
 * total kWh (consumption), and the average indoor and outdoor temperatures. Buckets without a value are left
 * out; a figure with no value at all reads "No data" rather than a misleading 0. A bill period adds what the
 * bill charged, its "Total charges" (as the bills table says, written by the bills' `formatMoney`, which the
 * loader applies: this module stays out of the bills area's script files): the usage answer has no cost, and
 * only a bill period has one in the data (a day, month or year is not what a bill covers).
 */
export function usageSummary(
  points: UsagePoint[],
  usageType: UsageType,
  billCharges?: string | null,
): UsageStat[] {
  const nums = (f: (p: UsagePoint) => number | null) =>
    points.map(f).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  const energy = nums((p) => p.energy);
  const avg = (vs: number[]) =>
    vs.length ? `${formatDecimal(vs.reduce((a, b) => a + b, 0) / vs.length, 1, 1)}°F` : "No data";
  const main: UsageStat =
    usageType === "demand"
      ? {
          label: "Peak demand",
          value: energy.length ? `${formatDecimal(Math.max(...energy), 1, 1)} kW` : "No data",
        }
      : {
          label: "Total consumption",
          value: energy.length
            ? `${formatDecimal(
                energy.reduce((a, b) => a + b, 0),
                0,
                0,
              )} kWh`
            : "No data",
        };
  return [
    main,
    ...(billCharges ? [{ label: "Total charges", value: billCharges }] : []),
    { label: "Average indoor temperature", value: avg(nums((p) => p.indoor)) },
    { label: "Average outdoor temperature", value: avg(nums((p) => p.outdoor)) },
  ];
}
