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
