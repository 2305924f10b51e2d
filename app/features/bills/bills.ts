import { z } from "zod";
import type { FlagLike } from "../../../shared/bill-flags";
import { submissionIdField } from "~/ui/submission-id";
import { compareIso, formatCalendarDate, MONTH_SHORT } from "~/lib/dates";
import { formatDecimal } from "~/lib/decimal";

/** Pure rules of bills and bill-issue flags (docs/rules.md, Bills and bill-issue flags). */

export const BILL_FLAG_TYPES = [
  "zero_meter_read",
  "supplier_change",
  "rate_class_change",
  "electric_charge_spike",
  "new_demand_charges",
  "high_supply_rate",
  "meter_read_type",
  "meter_multiplier_change",
] as const;
export type BillFlagType = (typeof BILL_FLAG_TYPES)[number];
export const BILL_FLAG_STATUSES = ["unacknowledged", "action_requested", "dismissed", "completed"] as const;
export type BillFlagStatus = (typeof BILL_FLAG_STATUSES)[number];

/** Only these flag types are shown to users. */
export const SHOWN_FLAG_TYPES: readonly string[] = ["supplier_change", "rate_class_change"];

/**
 * The heading above several flags shown together (rule flag-group-heading, docs/rules.md): it counts only the
 * flags still waiting for an answer, so an answered flag no longer adds to "We have detected N bill issues";
 * once none waits it says they have all been answered.
 */
export function groupHeading(flags: Pick<FlagLike, "status">[]): string {
  const open = flags.filter((f) => f.status === "unacknowledged").length;
  if (open > 1) return `We have detected ${open} bill issues that could mean higher bills`;
  if (open === 1) return "We have detected 1 bill issue that could mean higher bills";
  return flags.length === 2
    ? "Both bill issues have been answered"
    : `All ${flags.length} bill issues have been answered`;
}

const OPEN_STATUSES = ["unacknowledged", "action_requested"];

/** Pill colour: yellow for unacknowledged and action_requested; grey for dismissed and completed. */
export const pillTone = (status: string): "yellow" | "grey" =>
  OPEN_STATUSES.includes(status) ? "yellow" : "grey";

const STATUS_LABELS: Record<string, string> = {
  unacknowledged: "Needs your review",
  action_requested: "Investigating",
  dismissed: "Verified",
  completed: "Resolved",
};
export const pillLabel = (status: string) => STATUS_LABELS[status] ?? status;

/** The status a group pill shows: the first unacknowledged or action_requested flag's, else the first flag's. */
export function groupPillStatus(flags: Pick<FlagLike, "status">[]): string | null {
  return flags.find((f) => OPEN_STATUSES.includes(f.status))?.status ?? flags[0]?.status ?? null;
}

/**
 * The flags shown on a bill: supplier_change and rate_class_change only; a supplier change is hidden when the
 * bill's supplier name contains the provider's own name (the customer moved to us).
 */
export function visibleFlags<F extends FlagLike>(
  flags: F[],
  supplier: string | null | undefined,
  providerName: string,
): F[] {
  const ours = Boolean(
    supplier && providerName && supplier.toLowerCase().includes(providerName.toLowerCase()),
  );
  return flags.filter((f) => SHOWN_FLAG_TYPES.includes(f.type) && !(f.type === "supplier_change" && ours));
}

/** Only an unacknowledged flag can be answered. */
export const canAnswer = (flag: Pick<FlagLike, "status">) => flag.status === "unacknowledged";

/** The two answers: yes, this is expected → dismissed; no, please investigate → action_requested. */
export const FLAG_ANSWERS = { confirm: "dismissed", investigate: "action_requested" } as const;
export type FlagAnswer = keyof typeof FLAG_ANSWERS;

const positiveId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A flag answer form: the answer (the button pressed), the bill and flag, and the submission id (ADR 0010). */
export const flagAnswerSchema = z.object({
  intent: z.enum(["confirm", "investigate"]),
  statementId: positiveId,
  flagId: positiveId,
  submissionId: submissionIdField,
});

export const FLAG_UPDATE_FAILED = "Unable to process update";
/**
 * The line after it when the answer got no reply although it may have reached the api (the connection closed,
 * a time-out): where to see whether it went through, and that sending it again is safe (ADR 0010).
 */
export const FLAG_MAYBE_APPLIED =
  "Your answer may have been recorded all the same: this flag's status shows whether it was. If it still asks, sending the same answer again is safe, it is never recorded twice.";

/** A failed flag answer as the page shows it; `retryId`: the answer may have been applied, resend it under this id. */
export type FlagError = { flagId: number | null; message: string; maybeApplied?: boolean; retryId?: string };

/** Money in cents as dollars with 2 decimals: 123456 → "$1,234.56". */
export function formatMoney(cents: number | null | undefined) {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return "—";
  const sign = cents < 0 ? "-" : "";
  return `${sign}$${formatDecimal(Math.abs(cents) / 100, 2, 2)}`;
}

/** A rate in cents per kWh shown as cents ÷ 100 per kWh with 4 decimals: 14.004 → "$0.1400/kWh". */
export function formatRate(centsPerKwh: number | null | undefined, withUnit = true) {
  if (centsPerKwh === null || centsPerKwh === undefined || !Number.isFinite(centsPerKwh)) return "—";
  return `$${(centsPerKwh / 100).toFixed(4)}${withUnit ? "/kWh" : ""}`;
}

export function formatNumber(v: number | null | undefined, digits = 0) {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  return formatDecimal(v, digits, digits);
}

const pad = (n: number) => String(n).padStart(2, "0");
export const ymd = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

/** The bill window: 13 months back to today, as YYYY-MM-DD (rule bill-window-13-months, docs/rules.md). */
export function billWindow(today: Date) {
  const min = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 13, today.getUTCDate()));
  // 31 March minus one month overflows into March: clamp to the last day of the target month.
  if (min.getUTCDate() !== today.getUTCDate()) min.setUTCDate(0);
  return { minDate: ymd(min), maxDate: ymd(today) };
}

/** "2026-11-12" → "Nov 2026". */
export function formatMonth(iso: string) {
  const [y, m] = iso.split("-").map(Number);
  return m ? `${MONTH_SHORT[m - 1]} ${y}` : iso;
}

type BillLike = { id: number; statementDate: string };

/** The chart's 13 monthly points: the newest 13 bills, oldest first. */
export function chartBills<B extends BillLike>(bills: B[], count = 13): B[] {
  return [...bills].sort((a, b) => compareIso(a.statementDate, b.statementDate) || a.id - b.id).slice(-count);
}

/** The usage page of one bill (a bill tooltip's link). */
export const billUsageHref = (locationId: number | string, billId: number) =>
  `/locations/${locationId}/usage/demand?period=bill&start=${billId}`;

/** The bill download goes through the web server's /api passthrough. */
export const billDownloadHref = (billId: number) => `/api/bill-statement/${billId}/download`;

/** A service period, compact: "Oct 13 – Nov 12, 2026", or with both years when they differ. */
export function formatRange(start: string, end: string) {
  const [y1, m1, d1] = start.split("-").map(Number);
  const [y2, m2, d2] = end.split("-").map(Number);
  if (!y1 || !y2) return `${start} – ${end}`;
  return y1 === y2
    ? `${MONTH_SHORT[m1 - 1]} ${d1} – ${MONTH_SHORT[m2 - 1]} ${d2}, ${y2}`
    : `${formatCalendarDate(start)} – ${formatCalendarDate(end)}`;
}

/** A flag's element id: an answer redirects to it, so the answered flag is scrolled to and, with JavaScript, focused. */
export const flagAnchor = (flagId: number) => `flag-${flagId}`;
const FLAG_ANCHOR = /^#flag-\d{1,12}$/;
/** The flag a location's fragment names (`#flag-<id>`), or null. */
export const anchoredFlag = (hash: string) => (FLAG_ANCHOR.test(hash) ? hash.slice(1) : null);
