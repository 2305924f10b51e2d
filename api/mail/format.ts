/**
 * How the api's emails write money, numbers and dates. The api is its own service (ADR 0003): it formats with
 * Node's Intl, in en-US, the way the web's pages read ("$1,234.56", "Nov 12, 2026").
 */
const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const NONE = "—";
const finite = (v: number | null | undefined): v is number =>
  v !== null && v !== undefined && Number.isFinite(v);

/** Cents as dollars: 123456 → "$1,234.56". */
export const formatMoney = (cents: number | null | undefined) =>
  finite(cents) ? money.format(cents / 100) : NONE;

/** A rate in cents per kWh as dollars per kWh with 4 decimals: 14.004 → "$0.1400/kWh". */
export const formatRate = (centsPerKwh: number | null | undefined) =>
  finite(centsPerKwh) ? `$${(centsPerKwh / 100).toFixed(4)}/kWh` : NONE;

/** A number with grouping and exactly `digits` decimals. */
export const formatNumber = (v: number | null | undefined, digits = 0) =>
  finite(v)
    ? new Intl.NumberFormat("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
        v,
      )
    : NONE;

const calendar = (iso: string, options: Intl.DateTimeFormatOptions) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return iso;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleDateString("en-US", { timeZone: "UTC", ...options });
};

/** A calendar date (no timezone): "2026-11-12" → "Nov 12, 2026". */
export const formatCalendarDate = (iso: string) =>
  calendar(iso, { month: "short", day: "numeric", year: "numeric" });

/** A month: "2026-11-01" → "November 2026". */
export const formatMonthLong = (iso: string) => calendar(iso, { month: "long", year: "numeric" });

/** A service period: "Oct 13 – Nov 12, 2026", or with both years when they differ. */
export function formatRange(start: string, end: string) {
  if (start.slice(0, 4) !== end.slice(0, 4))
    return `${formatCalendarDate(start)} – ${formatCalendarDate(end)}`;
  return `${calendar(start, { month: "short", day: "numeric" })} – ${formatCalendarDate(end)}`;
}

/** A building's zone, or New York's for one without a zone the runtime knows (rule event-times-local). */
export function knownZone(timeZone: string | null | undefined): string {
  try {
    if (timeZone) {
      new Intl.DateTimeFormat("en-US", { timeZone });
      return timeZone;
    }
  } catch {
    // An unknown zone: fall through.
  }
  return "America/New_York";
}

const parts = (iso: string, timeZone: string) => {
  const f = new Intl.DateTimeFormat("en-US", {
    timeZone: knownZone(timeZone),
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  });
  const p = Object.fromEntries(f.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
  return {
    date: `${p.month} ${p.day}, ${p.year}`,
    time: `${p.hour}:${p.minute} ${p.dayPeriod}`,
    zone: p.timeZoneName,
  };
};

/** An instant in a building's zone: "Nov 17, 2026, 3:05 PM PST". */
export function formatLocalDateTime(iso: string, timeZone: string) {
  const p = parts(iso, timeZone);
  return `${p.date}, ${p.time} ${p.zone}`;
}

/** An event's span in its building's zone: "Nov 20, 2026, 2:00 – 6:00 PM PST" (both dates when it spans two). */
export function formatLocalSpan(startIso: string, endIso: string, timeZone: string) {
  const a = parts(startIso, timeZone);
  const b = parts(endIso, timeZone);
  if (a.date !== b.date) return `${a.date}, ${a.time} – ${b.date}, ${b.time} ${b.zone}`;
  return `${a.date}, ${a.time} – ${b.time} ${b.zone}`;
}

/** The calendar date of an instant in a building's zone: "2026-11-20". */
export function localIsoDate(iso: string, timeZone: string) {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: knownZone(timeZone),
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(iso));
}
