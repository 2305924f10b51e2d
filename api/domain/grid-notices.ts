import { localDate } from "../lib/wall-clock";

/**
 * The grid event notices' rules (docs/rules.md, rules grid-opt-out and grid-notice-day): whether a location may
 * still opt out of an event, and on which local day its notice goes out. Pure: the route and the job read the
 * database and the clock and ask these.
 */

/** What an opt-out asks for does: opts the location out, was done already (nothing changes), or comes too late. */
export type OptOutDecision = "opt_out" | "already" | "started";

/**
 * Whether a location's event may be opted out of now (rule grid-opt-out): once (a second ask changes nothing and
 * answers as the first did), and only while it is pending and has not started (from its start time on, the
 * thermostats are already taking part and the grid operator counts on them).
 */
export function optOutDecision(event: { status: string; startTime: string }, nowMs: number): OptOutDecision {
  if (event.status === "OPT_OUT") return "already";
  if (event.status !== "PENDING" || nowMs >= Date.parse(event.startTime)) return "started";
  return "opt_out";
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The local date `days` after a YYYY-MM-DD (calendar arithmetic, no time zone involved). */
export function addLocalDays(isoDate: string, days: number): string {
  const [y, m, d] = isoDate.split("-").map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/**
 * Whether an event's notice goes out now (rule grid-notice-day): on the local day before the day it starts, in its
 * building's time zone, while it is still pending. A scheduler down all that day does not send it late (on the
 * event's day it would only alarm); the ledger's key (`noticeKey`) sends it once.
 */
export function noticeDue(
  event: { status: string; startTime: string; timeZone: string },
  nowMs: number,
): boolean {
  if (event.status !== "PENDING" || nowMs >= Date.parse(event.startTime)) return false;
  const eventDay = localDate(Date.parse(event.startTime), event.timeZone);
  return localDate(nowMs, event.timeZone) === addLocalDays(eventDay, -1);
}

/** The exactly-once key of an event's notice, with the recipient and the kind (`grid_event`). */
export const noticeKey = (dispatchId: number) => `notice:${dispatchId}`;

/**
 * Whether an event's results go out now (rule grid-results-day): on the local day after the day it ended, in its
 * building's time zone, once it took part (`SUCCESS`: the grid operator's final status) and is not an internal
 * test. Not sent late: a scheduler down all that day leaves it (the page keeps the figures); the ledger's key
 * (`resultsKey`) sends it once.
 */
export function resultsDue(
  event: { status: string; internalTest: boolean; endTime: string; timeZone: string },
  nowMs: number,
): boolean {
  if (event.status !== "SUCCESS" || event.internalTest || nowMs < Date.parse(event.endTime)) return false;
  const endDay = localDate(Date.parse(event.endTime), event.timeZone);
  return localDate(nowMs, event.timeZone) === addLocalDays(endDay, 1);
}

/** The exactly-once key of an event's results email, with the recipient and the kind (`grid_event`). */
export const resultsKey = (dispatchId: number) => `results:${dispatchId}`;
