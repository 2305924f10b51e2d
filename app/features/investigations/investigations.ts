import { formatCalendarDate, MONTH_SHORT } from "~/lib/dates";
import { formatLocalTime } from "~/lib/local-time";
import { zonedDate } from "~/lib/zoned";
import { PRICE_LABEL, priceMoney } from "../../../shared/flag-price";

/**
 * The staff's promise on an investigation (rule investigation-response-due, docs/rules.md): the spec's "respond
 * within 1 business day". Business days are the weekdays (no holidays). A request made on a day of the
 * location's own calendar (its time zone, as the emails and pages date it) is due by the end of the next
 * business day: asked on a Friday, a Saturday or a Sunday, it is due on Monday. Its state on the location's
 * today: "Due Tue, Dec 8" or "Due tomorrow" before, "Due today" on the day, then "1 business day late (was due
 * Mon, Dec 7)", counting the business days past the due day; a weekend right after it reads "Late (was due
 * Fri, Dec 4)".
 */

const DAY_MS = 86_400_000;
const WEEKDAY_SHORT = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** A calendar date as midnight UTC: its weekday, the next day and differences need no time zone. */
type Day = number;

const isBusinessDay = (d: Day) => {
  const w = new Date(d).getUTCDay();
  return w !== 0 && w !== 6;
};

/** The first business day after a day. */
export function nextBusinessDay(d: Day): Day {
  let next = d + DAY_MS;
  while (!isBusinessDay(next)) next += DAY_MS;
  return next;
}

/** The business days after `from` up to and including `to` (0 when `to` is not after `from`). */
export function businessDaysBetween(from: Day, to: Day): number {
  let n = 0;
  for (let d = from + DAY_MS; d <= to; d += DAY_MS) if (isBusinessDay(d)) n++;
  return n;
}

/** "2026-12-07". */
const isoOf = (d: Day) => new Date(d).toISOString().slice(0, 10);
/** "Mon, Dec 7". */
const dayText = (d: Day) => {
  const t = new Date(d);
  return `${WEEKDAY_SHORT[t.getUTCDay()]}, ${MONTH_SHORT[t.getUTCMonth()]} ${t.getUTCDate()}`;
};

export type ResponseDue = {
  state: "due" | "due_today" | "late";
  /** The due day, in the location's calendar ("2026-12-07"). */
  due: string;
  /** Business days past the due day (0 unless late). */
  businessDaysLate: number;
  text: string;
};

/**
 * When staff owe the answer to an investigation asked at `askedAt` (an instant) at a location in `timeZone`,
 * and how it stands at `nowMs`.
 */
export function responseDue(
  askedAt: string,
  timeZone: string | null | undefined,
  nowMs: number,
): ResponseDue {
  const asked = zonedDate(Date.parse(askedAt), timeZone).getTime();
  const today = zonedDate(nowMs, timeZone).getTime();
  const due = nextBusinessDay(asked);
  const base = { due: isoOf(due), businessDaysLate: 0 };
  if (today < due)
    return { ...base, state: "due", text: due - today === DAY_MS ? "Due tomorrow" : `Due ${dayText(due)}` };
  if (today === due) return { ...base, state: "due_today", text: "Due today" };
  const late = businessDaysBetween(due, today);
  const was = `was due ${dayText(due)}`;
  return {
    ...base,
    state: "late",
    businessDaysLate: late,
    text: late === 0 ? `Late (${was})` : `${late} business day${late === 1 ? "" : "s"} late (${was})`,
  };
}

/** An open investigation as the api answers it (GET /investigations, rule investigation-queue). */
export type Investigation = {
  flagId: number;
  type: string;
  client: { id: number; name: string; clientType: string };
  building: { id: number; name: string; code: string; timezone?: string | null };
  account: { id: number; number: string };
  bill: {
    id: number;
    statementDate: string;
    totalCharges: number | null;
    supplier: string | null;
    previousSupplier: string | null;
  };
  atStake: { cents: number | null; text: string };
  asked: { by: { name: string }; answeredAt: string } | null;
  askedAt: string;
};

/** What a card of the queue shows, in words written here (the page formats nothing). */
export type QueueCard = ReturnType<typeof queueCard>;

/** What the flag found, as staff read it: the change, not the client's heading. */
function foundText(i: Investigation) {
  if (i.type === "supplier_change") {
    const to = i.bill.supplier ?? "a new supplier";
    return `Supplier changed to ${to}${i.bill.previousSupplier ? ` (was ${i.bill.previousSupplier})` : ""}`;
  }
  return "Delivery rate class changed";
}

/** One card: its words, its promise (rule investigation-response-due) and where its close form is. */
export function queueCard(i: Investigation, nowMs: number) {
  const zone = i.building.timezone ?? null;
  const due = responseDue(i.askedAt, zone, nowMs);
  const params = new URLSearchParams({ accountId: String(i.account.id), billId: String(i.bill.id) });
  return {
    flagId: i.flagId,
    client: { id: i.client.id, name: i.client.name },
    location: `${i.building.name} (${i.building.code})`,
    bill: `Bill of ${formatCalendarDate(i.bill.statementDate)} · account ${i.account.number}${
      i.bill.totalCharges === null ? "" : ` · ${priceMoney(i.bill.totalCharges)} total`
    }`,
    found: foundText(i),
    // What the figure covers, as every place says it (rule flag-price).
    stake: `${PRICE_LABEL}: ${i.atStake.text}.`,
    // Who asked, and when in the location's time zone ("Nov 10, 2026, 3:00 AM CST"); `at` is the instant.
    asked: { by: i.asked?.by.name ?? "The client", when: formatLocalTime(i.askedAt, zone), at: i.askedAt },
    due,
    // The bill's flag on the location's Bill History, where staff on the client's account close it.
    flagHref: `/locations/${i.building.id}/spending?${params}#flag-${i.flagId}`,
    // The impersonation's audit reason (rule impersonation-reason: 3–500 characters).
    reason: `Investigation queue: close the investigation of bill ${i.bill.id} (flag ${i.flagId})`,
    // Only SMB clients have the main application, where the close form is (rule smb-only-main-app).
    opens: i.client.clientType === "SMB",
  };
}
