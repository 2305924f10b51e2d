/**
 * The age of a bill and the missing bill it makes (rules old-bill-45-days and missing-bill, docs/rules.md): the
 * locations dashboard warns on a location's last bill past 45 days, and an account whose next statement has not
 * arrived 45 days after its last one's statement date is a "Missing bill" finding (the accounts page, the
 * findings ledger and the Weekly Rundown), until a statement arrives. One age, one rule, for the web and the api.
 * Pure, imports nothing, builds no Intl formatter (it may run while a page hydrates).
 *
 * Days are the location's own calendar days (rule location-today): every caller passes `today` as the date in the
 * location's time zone (`YYYY-MM-DD`), never an instant. At 7 PM on Nov 30 in Seattle (03:00 UTC on Dec 1) a bill
 * of Oct 16 is 45 days old there, not 46: it turns old at local midnight, as the building's people count.
 */

/** A bill is old, and an account's next statement missing, past this many whole days (spec part 1, section 9). */
export const OLD_BILL_DAYS = 45;

const DAY_MS = 86_400_000;
const dayOf = (iso: string) => Date.parse(`${iso.slice(0, 10)}T00:00:00Z`);

/**
 * Whole calendar days from a `YYYY-MM-DD` date to `today`, the location's own date (`YYYY-MM-DD`, in its time
 * zone: `zonedDate` in the web, `localDate` in the api).
 */
export function daysSince(date: string, today: string) {
  return Math.round((dayOf(today) - dayOf(date)) / DAY_MS);
}

/**
 * A bill is old when it is more than 45 days old; exactly 45 days is not (rule old-bill-45-days). `today` is the
 * location's date (`YYYY-MM-DD`).
 */
export const isBillOld = (date: string | null | undefined, today: string) =>
  Boolean(date) && daysSince(date!, today) > OLD_BILL_DAYS;

/** The finding's kind, as every place names it. */
export const MISSING_BILL_LABEL = "Missing bill";

/** An account the utility closed with a final bill expects no next statement (`NO_BILLS_DISCOVERED_AFTER_FINAL_BILL_NOTICE`). */
export const FINAL_BILL_DETAIL = "NO_BILLS_DISCOVERED_AFTER_FINAL_BILL_NOTICE";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** `2026-09-19` as "Sep 19, 2026" (the product's calendar date), without Intl. */
export const calendarDate = (iso: string) =>
  `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}`;

const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export type MissingBill = {
  /** The last statement's date (`YYYY-MM-DD`). */
  lastStatementDate: string;
  /** The day the next statement became missing: the first day past 45 days (`YYYY-MM-DD`). */
  foundOn: string;
  /** Whole days since the last statement. */
  days: number;
  /** "No statement since Sep 19, 2026 (60 days)": the words the accounts page, the ledger and the email share. */
  text: string;
};

/**
 * An account's missing bill (rule missing-bill), or null: its last statement is more than 45 days old and the
 * utility has not closed the account with a final bill, counted in the location's days. An account with no statement at all has nothing yet to
 * miss (it is still connecting, or has no data: its connection status says so).
 */
export function missingBill(
  account: { lastStatementDate: string | null | undefined; statusDetail?: string | null },
  /** The location's date (`YYYY-MM-DD`, in its time zone). */
  today: string,
): MissingBill | null {
  const last = account.lastStatementDate;
  if (!last || !/^\d{4}-\d{2}-\d{2}$/.test(last) || account.statusDetail === FINAL_BILL_DETAIL) return null;
  if (!isBillOld(last, today)) return null;
  const days = daysSince(last, today);
  return {
    lastStatementDate: last,
    foundOn: isoOf(Date.parse(`${last}T00:00:00Z`) + (OLD_BILL_DAYS + 1) * DAY_MS),
    days,
    text: `No statement since ${calendarDate(last)} (${days} days)`,
  };
}
