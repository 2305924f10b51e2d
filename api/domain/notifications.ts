import { TZDate } from "@date-fns/tz";

/**
 * The notification emails' rules (docs/rules.md, Notifications): what is due when, who gets what, the
 * exactly-once key of each email and the per-recipient limits. Pure: the jobs (api/mail/jobs.ts) read the
 * database and the clock and ask these.
 */

export const NOTIFICATION_KINDS = [
  "bill_flag",
  "device_issue",
  "customer_comfort",
  "weekly_rundown",
  "monthly_recap",
  "grid_event",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** What each kind is called in an email ("Unsubscribe from …") and on the unsubscribe page. */
export const KIND_NAMES: Record<NotificationKind, string> = {
  bill_flag: "Bill Audit Alerts",
  device_issue: "Thermostat Issue Alerts",
  customer_comfort: "Customer Comfort Alerts",
  weekly_rundown: "the Weekly Rundown",
  monthly_recap: "the Monthly Recap",
  grid_event: "Grid Event Notices",
};

/** Digests go out at this local hour: Monday for the rundown, the 1st for the recap. */
export const DIGEST_HOUR = 7;

/**
 * An alert is about something that appeared lately: a flag or an issue older than this is not news, and the
 * first start of the scheduler on an existing database does not mail the whole backlog.
 */
export const ALERT_LOOKBACK_DAYS = 14;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * At most `max` emails of one kind to one person in `windowMs`. What is over the limit is not dropped: it
 * stays unsent and goes out on a later run, once the window has room. The digests are held to it; the alert
 * kinds go out grouped, capped in emails by `ALERT_EMAILS_PER_DAY` (their rows here are not used by the jobs).
 */
export const NOTIFICATION_LIMITS: Record<NotificationKind, { max: number; windowMs: number }> = {
  bill_flag: { max: 5, windowMs: DAY },
  device_issue: { max: 5, windowMs: DAY },
  customer_comfort: { max: 5, windowMs: DAY },
  weekly_rundown: { max: 1, windowMs: 6 * DAY },
  monthly_recap: { max: 1, windowMs: 27 * DAY },
  // One notice a day names every event of the next day at the person's locations (rule grid-notice-day), and
  // one results email every event of the day before (rule grid-results-day): the same switch, Grid Event Notices.
  grid_event: { max: 5, windowMs: DAY },
};

/** The alert kinds: what one run finds of them for one person goes out as one email (rule alert-grouping). */
export const ALERT_KINDS = ["customer_comfort", "device_issue", "bill_flag"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const isAlertKind = (kind: string): kind is AlertKind =>
  (ALERT_KINDS as readonly string[]).includes(kind);

/**
 * At most this many alert emails to one person in any 24 hours, whatever their kinds: the cap counts emails,
 * not findings. It is the only thing that holds an alert back (rule alert-email-cap): one run's alerts all go
 * in its one email; the day's last email says when the next may come, and what a full day holds back waits for it.
 */
export const ALERT_EMAILS_PER_DAY = 3;

/**
 * How soon a still-open thermostat issue is mailed again (rule alert-resend): a comfort issue (people are too
 * warm or too cold) at most once a day, a device issue (a hold, a schedule, a device) at most once a week. A bill
 * flag is mailed once: its answer links stay valid for 30 days.
 */
export const RESEND_AFTER_MS: Record<AlertKind, number | null> = {
  customer_comfort: DAY,
  device_issue: 7 * DAY,
  bill_flag: null,
};

/**
 * Whether an open issue is mailed in this run, and under which ledger key: the first time while it is news
 * (`issueAlertable`), keyed `issue:<id>`; then again once `RESEND_AFTER_MS` has passed since the last email
 * about it, keyed `issue:<id>#<n>` (the n-th email about it), so two runs at once still write each email once.
 */
export function issueSendKey(
  kind: AlertKind,
  issue: { id: number; currentStatus: string; isDismissed: boolean; createdAtMs: number },
  sentBeforeMs: number[],
  nowMs: number,
): { key: string; reminder: boolean } | null {
  if (sentBeforeMs.length === 0)
    return issueAlertable(issue, nowMs)
      ? { key: notificationKey({ issueId: issue.id }), reminder: false }
      : null;
  const open = (issue.currentStatus === "active" || issue.currentStatus === "failed") && !issue.isDismissed;
  const after = RESEND_AFTER_MS[kind];
  if (!open || after === null || nowMs - Math.max(...sentBeforeMs) < after) return null;
  return { key: `${notificationKey({ issueId: issue.id })}#${sentBeforeMs.length + 1}`, reminder: true };
}

/**
 * How many more alert emails may go to a person now, and when the next one may once none may: `sentAtMs` are
 * the instants of their earlier alert emails (every finding of one email is recorded at the same instant).
 */
export function alertEmailRoom(sentAtMs: number[], nowMs: number): { room: number; nextAtMs: number | null } {
  const recent = [...new Set(sentAtMs)].filter((t) => t > nowMs - DAY && t <= nowMs).sort((a, b) => a - b);
  const room = Math.max(0, ALERT_EMAILS_PER_DAY - recent.length);
  return { room, nextAtMs: room > 0 ? null : recent[recent.length - ALERT_EMAILS_PER_DAY] + DAY };
}

/**
 * The order of one person's findings in their email: by location (by name), then by kind (comfort, device,
 * bill), then as found. Every finding of the run is in it: nothing is held back for a later email of the day.
 */
export function groupAlerts<T extends { kind: AlertKind; location: { name: string } }>(findings: T[]): T[] {
  const order = (k: AlertKind) => ALERT_KINDS.indexOf(k);
  return findings
    .map((f, i) => ({ f, i }))
    .sort(
      (a, b) =>
        (a.f.location.name < b.f.location.name ? -1 : a.f.location.name > b.f.location.name ? 1 : 0) ||
        order(a.f.kind) - order(b.f.kind) ||
        a.i - b.i,
    )
    .map((x) => x.f);
}

/** How many more emails of this kind may go to a person now, given when the earlier ones went. */
export function roomUnderLimit(kind: NotificationKind, sentAtMs: number[], nowMs: number): number {
  const { max, windowMs } = NOTIFICATION_LIMITS[kind];
  const recent = sentAtMs.filter((t) => t > nowMs - windowMs && t <= nowMs).length;
  return Math.max(0, max - recent);
}

/**
 * The exactly-once key of an email: with the recipient and the kind it is UNIQUE in the ledger
 * (`notifications_sent`), so an email about one flag, one issue or one period is written at most once, also
 * across restarts and concurrent runs.
 */
export function notificationKey(
  subject: { flagId: number } | { issueId: number } | { period: string },
): string {
  if ("flagId" in subject) return `flag:${subject.flagId}`;
  if ("issueId" in subject) return `issue:${subject.issueId}`;
  return `period:${subject.period}`;
}

/** A person's email preferences as stored (`communication_preferences`, delivery method email). */
export type Preference = { type: string; enabled: boolean };

/**
 * Whether a person wants this kind of email: only when their email preference for it is on. A missing
 * preference counts as off: nobody is mailed without having said yes (the seed and sign-up write them).
 */
export const wantsKind = (prefs: Preference[], kind: NotificationKind) =>
  prefs.some((p) => p.type === kind && p.enabled);

/**
 * Thermostat issue types that are about the occupants' comfort (the catalogue's Temperature, Indoor
 * Temperature and System Performance categories: the room is, or is set to be, too warm or too cold). Their
 * alerts are Customer Comfort Alerts; every other issue (communication, data gaps, schedules, setbacks, auto
 * mode, off, a new or uninitialised device) is a device issue.
 */
export const COMFORT_ISSUE_TYPES: readonly string[] = [
  "occupied_cool_setpoint_too_low",
  "occupied_heat_setpoint_too_high",
  "heat_setpoint_above_indoor_temp",
  "heat_setpoint_below_indoor_temp",
  "cool_setpoint_above_indoor_temp",
  "cool_setpoint_below_indoor_temp",
  "auto_setpoint_indoor_temp_delta",
  "unexpected_temperature",
  "extreme_indoor_temperature",
  "occupied_setpoints_too_close",
];

export const issueAlertKind = (issueSlug: string): "customer_comfort" | "device_issue" =>
  COMFORT_ISSUE_TYPES.includes(issueSlug) ? "customer_comfort" : "device_issue";

/** An issue is alerted while it is open, not dismissed, and appeared within the lookback. */
export function issueAlertable(
  issue: { currentStatus: string; isDismissed: boolean; createdAtMs: number },
  nowMs: number,
) {
  return (
    (issue.currentStatus === "active" || issue.currentStatus === "failed") &&
    !issue.isDismissed &&
    issue.createdAtMs > nowMs - ALERT_LOOKBACK_DAYS * DAY &&
    issue.createdAtMs <= nowMs
  );
}

/** Only these flags are shown to users, hence mailed (rule flag-visibility). */
const ALERTED_FLAG_TYPES = ["supplier_change", "rate_class_change"];

/**
 * A flag is alerted while it waits for an answer (unacknowledged), is of a type users see, is not a supplier
 * change to us (the supplier names the provider), and appeared within the lookback (`updatedAtMs`, when it
 * came to be unacknowledged).
 */
export function billFlagAlertable(
  flag: { type: string; status: string; updatedAtMs: number },
  supplier: string | null,
  providerName: string,
  nowMs: number,
) {
  const ours = Boolean(supplier && supplier.toLowerCase().includes(providerName.toLowerCase()));
  return (
    ALERTED_FLAG_TYPES.includes(flag.type) &&
    flag.status === "unacknowledged" &&
    !(flag.type === "supplier_change" && ours) &&
    flag.updatedAtMs > nowMs - ALERT_LOOKBACK_DAYS * DAY &&
    flag.updatedAtMs <= nowMs
  );
}

/** A digest's period: its key, when it is due and until when the scheduler still sends it, what it covers. */
export type DigestPeriod = {
  /** The local date the digest is dated (Monday, or the 1st): with the kind, the exactly-once key. */
  key: string;
  dueAtMs: number;
  /** The end of the due day, local: a scheduler that was down all that day does not send it late. */
  sendUntilMs: number;
  /** The local dates covered, [from, to) (last week; or last month). */
  from: string;
  to: string;
  /** The period before it, [from, to) (the week before last: the rundown compares them). */
  beforeFrom: string;
};

const pad = (n: number) => String(n).padStart(2, "0");
const ymd = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
/** A local date `days` after the given y-m-d (calendar arithmetic, no time zone involved). */
const shift = (y: number, m: number, d: number, days: number) => {
  const t = new Date(Date.UTC(y, m, d + days));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
};

/**
 * The latest Weekly Rundown as of now in the time zone: dated the latest Monday whose 07:00 local has passed
 * (DST-aware: 07:00 is local wall-clock time whatever the offset), covering the seven days before it.
 */
export function weeklyPeriod(nowMs: number, timeZone: string): DigestPeriod {
  const local = new TZDate(nowMs, timeZone);
  const sinceMonday = (local.getDay() + 6) % 7;
  let monday = new TZDate(
    local.getFullYear(),
    local.getMonth(),
    local.getDate() - sinceMonday,
    DIGEST_HOUR,
    0,
    0,
    timeZone,
  );
  if (monday.getTime() > nowMs)
    monday = new TZDate(
      monday.getFullYear(),
      monday.getMonth(),
      monday.getDate() - 7,
      DIGEST_HOUR,
      0,
      0,
      timeZone,
    );
  const [y, m, d] = [monday.getFullYear(), monday.getMonth(), monday.getDate()];
  return {
    key: ymd(monday),
    dueAtMs: monday.getTime(),
    sendUntilMs: new TZDate(y, m, d + 1, 0, 0, 0, timeZone).getTime(),
    from: shift(y, m, d, -7),
    to: ymd(monday),
    beforeFrom: shift(y, m, d, -14),
  };
}

/** The latest Monthly Recap as of now: dated the latest 1st whose 07:00 local has passed, covering the month before. */
export function monthlyPeriod(nowMs: number, timeZone: string): DigestPeriod {
  const local = new TZDate(nowMs, timeZone);
  let first = new TZDate(local.getFullYear(), local.getMonth(), 1, DIGEST_HOUR, 0, 0, timeZone);
  if (first.getTime() > nowMs)
    first = new TZDate(local.getFullYear(), local.getMonth() - 1, 1, DIGEST_HOUR, 0, 0, timeZone);
  const [y, m] = [first.getFullYear(), first.getMonth()];
  const before = new Date(Date.UTC(y, m - 1, 1));
  const beforeBefore = new Date(Date.UTC(y, m - 2, 1));
  const utcYmd = (t: Date) => `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-01`;
  return {
    key: ymd(first),
    dueAtMs: first.getTime(),
    sendUntilMs: new TZDate(y, m, 2, 0, 0, 0, timeZone).getTime(),
    from: utcYmd(before),
    to: ymd(first),
    beforeFrom: utcYmd(beforeBefore),
  };
}

/** Whether the scheduler sends a digest now: from its due time to the end of that local day. */
export const digestDue = (period: DigestPeriod, nowMs: number) =>
  nowMs >= period.dueAtMs && nowMs < period.sendUntilMs;

/**
 * A client's home time zone, for its digests: its first location's (the lowest id, the one it signed up
 * with). A client without locations has nothing to report.
 */
export const homeTimeZone = (buildingTimeZonesById: { id: number; timezone: string }[]) =>
  [...buildingTimeZonesById].sort((a, b) => a.id - b.id)[0]?.timezone ?? null;

/** How long the answer links of a Bill Audit Alert work, and the unsubscribe links of every notification. */
export const ANSWER_TOKEN_DAYS = 30;
export const UNSUBSCRIBE_TOKEN_DAYS = 365;

/** "+12%" / "−5%" / "no change" between two totals; null when there is nothing to compare with. */
export function changeText(current: number, previous: number): string | null {
  if (!(previous > 0) || !Number.isFinite(current)) return null;
  const pct = Math.round(((current - previous) / previous) * 100);
  if (pct === 0) return "about the same as the week before";
  return pct > 0 ? `${pct}% more than the week before` : `${-pct}% less than the week before`;
}
