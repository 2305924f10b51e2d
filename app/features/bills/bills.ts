import {
  ANSWER_LABELS,
  answersOpen,
  FLAG_ANSWER_LIMIT,
  type FlagAnswerStatus,
  type FlagLike,
} from "../../../shared/bill-flags";
import { localTimeParts } from "~/lib/local-time";
import { compareIso, formatCalendarDate, MONTH_SHORT } from "~/lib/dates";
import { formatDecimal } from "~/lib/decimal";
import { type FlagOutcome, outcomeWords } from "../../../shared/flag-outcome";

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
 * The heading above several flags shown together (rule flag-headings, docs/rules.md): the spec's "We have
 * detected N bill issues that could mean higher bills", where N counts the flags shown under it, answered or not;
 * each flag below carries its own state (heading and pill), so the count never contradicts what is listed.
 */
export function groupHeading(flags: Pick<FlagLike, "status">[]): string {
  return `We have detected ${flags.length} bill issues that could mean higher bills`;
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

/** One recorded answer of a flag, as the api gives it (rule flag-answer-history). */
export type FlagAnswerRecord = {
  answer: FlagAnswerStatus;
  by: { name: string; you: boolean };
  source: "app" | "email";
  answeredAt: string;
};

/**
 * One answer in words, with who, when (in the building's timezone) and from where (rule flag-answer-history):
 * "Dana Reyes answered “Yes, this is expected” on Nov 3, 2026 at 2:00 PM CST, from an email alert."
 * Written on the server (the spending loader, the answer page): the same words with JavaScript on and off.
 */
export function answerRecordText(a: FlagAnswerRecord, timezone: string | null | undefined) {
  const when = localTimeParts(a.answeredAt, timezone);
  const who = a.by.you ? "You" : a.by.name;
  const at = when ? ` on ${when[0]} at ${when[1]}` : "";
  return `${who} answered “${ANSWER_LABELS[a.answer]}”${at}, ${a.source === "email" ? "from an email alert" : "on the spending page"}.`;
}

/** The two answers: yes, this is expected → dismissed; no, please investigate → action_requested. */
export const FLAG_ANSWERS = { confirm: "dismissed", investigate: "action_requested" } as const;
export type FlagAnswer = keyof typeof FLAG_ANSWERS;

export const FLAG_UPDATE_FAILED = "Unable to process update";
/**
 * The line after it when the answer got no reply although it may have reached the api (the connection closed,
 * a time-out): where to see whether it went through, and that sending it again is safe (ADR 0010).
 */
export const FLAG_MAYBE_APPLIED =
  "Your answer may have been recorded all the same: this flag's status shows whether it was. If it still asks, sending the same answer again is safe, it is never recorded twice.";

/** A failed flag answer as the page shows it; `retryId`: the answer may have been applied, resend it under this id. */
export type FlagError = {
  flagId: number | null;
  message: string;
  maybeApplied?: boolean;
  retryId?: string;
  /** Refused because another answer was recorded first: the page names it (flagErrorLines). */
  answered?: boolean;
};

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

/**
 * What the spending page shows of a flag's answers (rule flag-answer-history), written by the loader: the
 * answer on record in words, the earlier answers (oldest first), and the answers this person may give now.
 */
export function flagAnswerView(
  flag: { status: string; answerOnRecord?: FlagAnswerRecord | null; answers?: FlagAnswerRecord[] },
  timezone: string | null | undefined,
) {
  const answers = flag.answers ?? [];
  const onRecord = flag.answerOnRecord ?? null;
  return {
    onRecord: onRecord ? answerRecordText(onRecord, timezone) : null,
    earlier: (onRecord ? answers.slice(0, -1) : answers).map((a) => answerRecordText(a, timezone)),
    options: answersOpen(flag.status, Boolean(onRecord?.by.you), "app", answers.length),
    /** The flag took its most answers (FLAG_ANSWER_LIMIT): the page says so instead of offering any. */
    limitReached: flag.status !== "completed" && answers.length >= FLAG_ANSWER_LIMIT,
  };
}
export type FlagAnswerView = ReturnType<typeof flagAnswerView>;

/** The intent of each answer's button (the form's `intent`, FLAG_ANSWERS). */
export const INTENT_OF: Record<FlagAnswerStatus, FlagAnswer> = {
  dismissed: "confirm",
  action_requested: "investigate",
};

/** Another answer reached the flag first (the api's 409) and the page has no answer on record to name. */
export const FLAG_ALREADY_ANSWERED =
  "This bill issue was answered meanwhile: the answer on record is shown here.";

/**
 * The lines of a refused or failed flag answer (seed 2 §8): the seed's 'Unable to process
 * update' first; for an answer refused because another was recorded meanwhile (`answered`), who answered and
 * when (the answer on record as the reloaded page words it, or the outcome of a closed investigation); for one
 * that may have been applied all the same, where to see it.
 */
export function flagErrorLines(
  error: Pick<FlagError, "message" | "answered" | "maybeApplied">,
  flag: { answerView?: { onRecord: string | null } | null; outcome?: { text: string } | null },
): string[] {
  const lines = [error.message];
  if (error.answered) lines.push(flag.outcome?.text ?? flag.answerView?.onRecord ?? FLAG_ALREADY_ANSWERED);
  if (error.maybeApplied) lines.push(FLAG_MAYBE_APPLIED);
  return lines;
}

/* ---------- closing an investigation (rule flag-outcome) ---------- */

/** How an investigation ended, as the api gives it. */
export type FlagOutcomeRecord = {
  outcome: FlagOutcome;
  creditCents: number | null;
  note: string;
  by: { name: string; you: boolean };
  closedAt: string;
};

/**
 * The outcome in words, with who and when (in the building's timezone): "Morgan Lee closed the investigation
 * on Nov 28, 2026 at 9:00 AM PST: Credit received: $68.40 of $74.27." (the amount at stake on the bill, when priced).
 */
export function outcomeRecordText(
  o: FlagOutcomeRecord,
  timezone: string | null | undefined,
  stakeCents?: number | null,
) {
  const when = localTimeParts(o.closedAt, timezone);
  const who = o.by.you ? "You" : o.by.name;
  return `${who} closed the investigation${when ? ` on ${when[0]} at ${when[1]}` : ""}: ${outcomeWords(o, stakeCents)}.`;
}

/** The first entry of a flag's history: it was raised with its bill. */
export const raisedText = (statementDate: string) =>
  `Raised with the bill of ${formatCalendarDate(statementDate)}.`;

export const FLAG_CLOSE_FAILED = "Unable to close this investigation";

/**
 * The bills page before a location's first bill (rule connect-what-next): when the account shown (the one chosen,
 * else the latest connected) reads Connected, the day it did and that the utility's first statement is awaited;
 * null otherwise (the spec's "We're waiting for your first bill" and its Connect Utility Accounts button).
 */
export function firstStatementWait(
  accounts: {
    id: number;
    arcadiaAccountStatus?: string | null;
    connectedAt?: string | null;
    /** The day it was, in the account's location (the api's `connected_on`). */
    connectedOn?: string | null;
  }[],
  accountId: number | null,
): string | null {
  const connected = accounts
    .filter((a) => a.arcadiaAccountStatus === "CONNECTION_SUCCESS" && a.connectedAt)
    .filter((a) => accountId === null || a.id === accountId)
    .sort((a, b) => compareIso(b.connectedAt!, a.connectedAt!));
  const first = connected[0];
  if (!first) return null;
  const day = first.connectedOn ?? first.connectedAt!.slice(0, 10);
  return `Connected on ${formatCalendarDate(day)}; waiting for the utility's first statement`;
}
