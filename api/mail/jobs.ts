import { TZDate } from "@date-fns/tz";
import { BRAND } from "../lib/brand";
import type { DB } from "../db";
import {
  ALERT_KINDS,
  ANSWER_TOKEN_DAYS,
  alertEmailRoom,
  groupAlerts,
  isAlertKind,
  issueSendKey,
  type AlertKind,
  UNSUBSCRIBE_TOKEN_DAYS,
  billFlagAlertable,
  changeText,
  digestDue,
  homeTimeZone,
  issueAlertKind,
  monthlyPeriod,
  notificationKey,
  roomUnderLimit,
  wantsKind,
  weeklyPeriod,
  type DigestPeriod,
  type NotificationKind,
} from "../domain/notifications";
import type { Auth, UserRow } from "../lib/auth";
import { buildingAddress, listVisibleBuildings, type BuildingRow } from "../lib/buildings";
import * as clock from "../lib/clock";
import { randomToken } from "../lib/crypto";
import type { ApiDeps } from "../lib/http";
import { PREVIOUS_BILL_COLUMNS } from "../lib/previous-bill";
import { flagFigures } from "../lib/flag-figures";
import { missingBill } from "../../shared/missing-bill";
import { locationName } from "../../shared/location-name";
import { energyAdvisorBuildings } from "../domain/energy-advisor";
import { clientFindings } from "../domain/findings";
import { awaitingByLocation } from "../domain/awaiting-findings";
import {
  attentionLabel,
  hasThermostatIssues,
  NO_DEVICES_SUMMARY,
  thermostatChip,
} from "../../shared/location-status";
import { overrideReport } from "../domain/override-report";
import { sendMail } from "./mailer";
import { absolute, renderEmail, type EmailDoc } from "./layout";
import { formatLocalDateTime } from "./format";
import {
  alertEmail,
  billFlagAlertEmail,
  flagOutcomeEmail,
  type FlagOutcomeData,
  gridNoticeEmail,
  gridResultsEmail,
  type NoticeEvent,
  type ResultsEvent,
  issueAlertEmail,
  monthlyRecapEmail,
  weeklyRundownEmail,
  type RecapLocation,
  type RundownLocation,
} from "./notifications";
import { storeAnswerToken, storeUnsubscribeToken } from "./tokens";
import { noticeDue, noticeKey, resultsDue, resultsKey } from "../domain/grid-notices";
import { localDate } from "../lib/wall-clock";
import { finaliseEndedDispatches } from "../domain/grid-dispatches";
import { measureDispatches, performanceJson } from "../domain/grid-performance";

/**
 * The notification jobs: each finds what is due as of the api's clock, for every person who wants that kind
 * of email, about the locations that person may see (the api's own access rule, `listVisibleBuildings`), and
 * writes each email once: the ledger row (UNIQUE recipient, kind, subject) and the outbox row go in one
 * transaction, so a crash or a second run never sends twice and never loses one half.
 */

type Recipient = UserRow & { client_id: number };

/** The recipient as the access rule sees a session of theirs (never staff: staff get no notifications). */
const recipientAuth = (u: Recipient): Auth => ({
  user: u,
  session: { id: "", user_id: u.id, impersonated_client_id: null, is_demo_mode: 0 },
  clientId: u.client_id,
  isStaff: false,
  isAdmin: u.is_client_admin === 1,
});

/** Customers of small and medium commercial clients (the only ones who sign in here), with their preferences. */
function recipients(db: DB, kind: NotificationKind) {
  const users = db
    .prepare(
      `SELECT u.* FROM users u JOIN clients c ON c.id = u.client_id
       WHERE u.is_staff = 0 AND c.client_type = 'SMB' ORDER BY u.id`,
    )
    .all() as Recipient[];
  const prefs = db.prepare(
    "SELECT communication_preference_type AS type, enabled FROM communication_preferences WHERE user_id = ? AND delivery_method_preference = 'email'",
  );
  return users.filter((u) =>
    wantsKind(
      (prefs.all(u.id) as { type: string; enabled: number }[]).map((p) => ({
        type: p.type,
        enabled: p.enabled === 1,
      })),
      kind,
    ),
  );
}

/** One email to write: who, what, its key, and how to build it once its tokens are known. */
type Candidate = {
  user: Recipient;
  kind: NotificationKind;
  key: string;
  flag?: { id: number };
  /** `flagsInEmail`: the flags of the one email this goes in (an alert run's), so a bill's amount is said once. */
  build: (
    tokens: { unsubscribe: string; confirm: string; investigate: string },
    flagsInEmail?: ReadonlySet<number>,
  ) => EmailDoc;
};

/** One finding of an alert run: a candidate that goes into its person's one email of the run. */
type Finding = Candidate & { kind: AlertKind; location: { id: number; name: string } };

/** A candidate rendered with its tokens, ready to be written (`writeRendered`). */
type Rendered = {
  c: Candidate;
  tokens: { unsubscribe: string; confirm: string; investigate: string };
  mail: Awaited<ReturnType<typeof renderEmail>>;
};

async function renderCandidate(c: Candidate): Promise<Rendered> {
  const tokens = { unsubscribe: randomToken(), confirm: randomToken(), investigate: randomToken() };
  return { c, tokens, mail: await renderEmail(c.build(tokens)) };
}

/**
 * Writes one rendered email: its ledger row, its tokens and its outbox row (call inside a transaction: the
 * caller's, so the email is written with what it reports, or not at all). Answers false when the ledger already
 * holds it (another run wrote it while this one rendered: the UNIQUE key decides, once).
 */
function writeRendered(deps: ApiDeps, { c, tokens, mail }: Rendered, nowMs: number): boolean {
  const { db } = deps;
  const wrote = db
    .prepare(
      "INSERT OR IGNORE INTO notifications_sent (user_id, kind, subject_key, sent_at) VALUES (?, ?, ?, ?)",
    )
    .run(c.user.id, c.kind, c.key, new Date(nowMs).toISOString());
  if (wrote.changes === 0) return false;
  storeUnsubscribeToken(db, tokens.unsubscribe, c.user.id, c.kind, UNSUBSCRIBE_TOKEN_DAYS);
  if (c.flag) {
    storeAnswerToken(db, tokens.confirm, c.user.id, c.flag.id, "dismissed", ANSWER_TOKEN_DAYS);
    storeAnswerToken(db, tokens.investigate, c.user.id, c.flag.id, "action_requested", ANSWER_TOKEN_DAYS);
  }
  sendMail(deps, {
    to: c.user.email,
    ...mail,
    kind: c.kind,
    headers: {
      "List-Unsubscribe": `<${unsubscribeHref(deps, tokens.unsubscribe)}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  });
  return true;
}

/** Renders and writes the candidates in order, within each person's limit; answers how many were written. */
async function deliver(deps: ApiDeps, candidates: Candidate[], limited = true) {
  const { db } = deps;
  const already = db.prepare(
    "SELECT 1 FROM notifications_sent WHERE user_id = ? AND kind = ? AND subject_key = ?",
  );
  const sentTimes = db.prepare("SELECT sent_at FROM notifications_sent WHERE user_id = ? AND kind = ?");
  let sent = 0;
  for (const c of candidates) {
    if (already.get(c.user.id, c.kind, c.key)) continue;
    const nowMs = clock.nowMs();
    const times = (sentTimes.all(c.user.id, c.kind) as { sent_at: string }[]).map((r) =>
      Date.parse(r.sent_at),
    );
    // Over the limit: not sent now and not forgotten; a later run sends it once the window has room.
    if (limited && roomUnderLimit(c.kind, times, nowMs) === 0) continue;
    const rendered = await renderCandidate(c);
    if (db.transaction(() => writeRendered(deps, rendered, nowMs))()) sent++;
  }
  return sent;
}

/**
 * The alert run's delivery (rules alert-grouping, alert-email-cap): everything the run found for one person
 * that was not mailed yet goes out as ONE email, by location then kind, within the person's alert emails of
 * the day; what does not fit waits, and the email says so. Each finding is written in the ledger under its own
 * key, all at the email's instant, in the email's transaction: a finding another run wrote meanwhile rolls the
 * whole email back (that run mailed it), so nothing is mailed twice. Answers how many emails were written.
 */
async function deliverAlerts(deps: ApiDeps, findings: Finding[]) {
  const { db } = deps;
  const already = db.prepare(
    "SELECT 1 FROM notifications_sent WHERE user_id = ? AND kind = ? AND subject_key = ?",
  );
  const emailTimes = db.prepare(
    `SELECT DISTINCT sent_at FROM notifications_sent WHERE user_id = ? AND kind IN (${ALERT_KINDS.map(() => "?").join(", ")})`,
  );
  const zones = db.prepare("SELECT id, timezone FROM buildings WHERE client_id = ?");
  const ledger = db.prepare(
    "INSERT OR IGNORE INTO notifications_sent (user_id, kind, subject_key, sent_at) VALUES (?, ?, ?, ?)",
  );
  const byUser = new Map<number, Finding[]>();
  for (const f of findings) {
    if (already.get(f.user.id, f.kind, f.key)) continue;
    byUser.set(f.user.id, [...(byUser.get(f.user.id) ?? []), f]);
  }
  let sent = 0;
  for (const pending of byUser.values()) {
    const user = pending[0].user;
    const nowMs = clock.nowMs();
    const times = (emailTimes.all(user.id, ...ALERT_KINDS) as { sent_at: string }[]).map((r) =>
      Date.parse(r.sent_at),
    );
    // The day's alert emails are used up: the findings wait (and are not forgotten) for a later run.
    if (alertEmailRoom(times, nowMs).room === 0) continue;
    const items = groupAlerts(pending);
    // This email takes the day's last place under the cap: it says so, and from when the next may come.
    const next = alertEmailRoom([...times, nowMs], nowMs);
    const zone = homeTimeZone(zones.all(user.client_id) as { id: number; timezone: string }[]);
    const kinds = ALERT_KINDS.filter((k) => items.some((f) => f.kind === k));
    const unsubscribeTokens = new Map(kinds.map((k) => [k, randomToken()]));
    // One-click unsubscribe (the List-Unsubscribe header) stops every kind the email holds.
    const headerToken = kinds.length === 1 ? unsubscribeTokens.get(kinds[0])! : randomToken();
    const answers = items.map(() => ({ confirm: randomToken(), investigate: randomToken() }));
    const flagsInEmail = new Set(items.flatMap((f) => (f.flag ? [f.flag.id] : [])));
    const doc = alertEmail({
      baseUrl: deps.config.webBaseUrl,
      items: items.map((f, i) => ({
        kind: f.kind,
        location: f.location,
        doc: f.build({ unsubscribe: unsubscribeTokens.get(f.kind)!, ...answers[i] }, flagsInEmail),
      })),
      lastOfDay:
        next.room === 0
          ? {
              nextAt:
                next.nextAtMs !== null && zone
                  ? formatLocalDateTime(new Date(next.nextAtMs).toISOString(), zone)
                  : null,
            }
          : null,
      unsubscribes: kinds.map((k) => ({ kind: k, href: unsubscribeHref(deps, unsubscribeTokens.get(k)!) })),
    });
    const mail = await renderEmail(doc);
    const sentAt = new Date(nowMs).toISOString();
    const wrote = db.transaction(() => {
      for (const f of items)
        if (ledger.run(user.id, f.kind, f.key, sentAt).changes === 0) throw new WrittenElsewhere();
      for (const [k, token] of unsubscribeTokens)
        storeUnsubscribeToken(db, token, user.id, k, UNSUBSCRIBE_TOKEN_DAYS);
      if (kinds.length > 1)
        storeUnsubscribeToken(db, headerToken, user.id, kinds.join(","), UNSUBSCRIBE_TOKEN_DAYS);
      items.forEach((f, i) => {
        if (!f.flag) return;
        storeAnswerToken(db, answers[i].confirm, user.id, f.flag.id, "dismissed", ANSWER_TOKEN_DAYS);
        storeAnswerToken(
          db,
          answers[i].investigate,
          user.id,
          f.flag.id,
          "action_requested",
          ANSWER_TOKEN_DAYS,
        );
      });
      sendMail(deps, {
        to: user.email,
        ...mail,
        kind: kinds.length === 1 ? kinds[0] : "alerts",
        headers: {
          "List-Unsubscribe": `<${unsubscribeHref(deps, headerToken)}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      });
    });
    try {
      wrote();
      sent++;
    } catch (error) {
      if (!(error instanceof WrittenElsewhere)) throw error;
    }
  }
  return sent;
}

/** Another run wrote one of the email's findings first: this email is rolled back, that run mailed it. */
class WrittenElsewhere extends Error {}

const unsubscribeHref = (deps: ApiDeps, token: string) =>
  absolute(deps.config.webBaseUrl, `/unsubscribe?${new URLSearchParams({ token })}`);

type FlagCandidateRow = {
  flag_id: number;
  type: string;
  status: string;
  previous_supplier: string | null;
  updated_at: string;
  building_id: number;
  statement_date: string;
  service_start_date: string;
  service_end_date: string;
  total_charges_cents: number;
  total_electric_charges_cents: number;
  consumption_kwh: number;
  rate_cents: number;
  previous_rate_cents: number | null;
  counted_with_type: string | null;
  counted_with_id: number | null;
  supplier: string | null;
  utility_name: string;
  statement_id: number;
  account_id: number;
  account_number: string;
  accounts_at_location: number;
};

/** A flag type users see on a bill with this supplier (a supplier change to us is not shown), else null. */
const shownFlagType = (type: string | null, supplier: string | null) =>
  type && !(type === "supplier_change" && supplier?.toLowerCase().includes(BRAND.toLowerCase()))
    ? type
    : null;

function billFlagCandidates(deps: ApiDeps): Finding[] {
  const { db } = deps;
  const nowMs = clock.nowMs();
  const flags = db.prepare(
    `SELECT f.id AS flag_id, f.type, f.status, f.previous_supplier, f.updated_at, s.building_id, s.statement_date,
       s.service_start_date, s.service_end_date, s.total_charges_cents, s.total_electric_charges_cents,
       s.consumption_kwh, s.rate_cents, s.supplier, u.name AS utility_name, s.id AS statement_id,
       a.id AS account_id, a.number AS account_number, ${PREVIOUS_BILL_COLUMNS("s")},
       (SELECT count(*) FROM utility_accounts x WHERE x.building_id = s.building_id) AS accounts_at_location,
       (SELECT g.type FROM bill_flags g WHERE g.bill_statement_id = s.id AND g.id < f.id
          AND g.type IN ('supplier_change', 'rate_class_change') ORDER BY g.id LIMIT 1) AS counted_with_type,
       (SELECT g.id FROM bill_flags g WHERE g.bill_statement_id = s.id AND g.id < f.id
          AND g.type IN ('supplier_change', 'rate_class_change') ORDER BY g.id LIMIT 1) AS counted_with_id
     FROM bill_flags f JOIN bill_statements s ON s.id = f.bill_statement_id
       JOIN utility_accounts a ON a.id = s.account_id JOIN utilities u ON u.id = a.utility_id
     WHERE f.status = 'unacknowledged' AND s.building_id IN (SELECT value FROM json_each(?))
     ORDER BY f.updated_at, f.id`,
  );
  const out: Finding[] = [];
  for (const user of recipients(db, "bill_flag")) {
    const buildings = new Map(listVisibleBuildings(db, recipientAuth(user)).map((b) => [b.id, b]));
    for (const f of flags.all(JSON.stringify([...buildings.keys()])) as FlagCandidateRow[]) {
      const flag = { type: f.type, status: f.status, updatedAtMs: Date.parse(f.updated_at) };
      if (!billFlagAlertable(flag, f.supplier, BRAND, nowMs)) continue;
      const b = buildings.get(f.building_id)!;
      out.push({
        user,
        kind: "bill_flag",
        key: notificationKey({ flagId: f.flag_id }),
        flag: { id: f.flag_id },
        location: { id: b.id, name: locationName(b) },
        build: (t, flagsInEmail) =>
          billFlagAlertEmail({
            baseUrl: deps.config.webBaseUrl,
            unsubscribeHref: unsubscribeHref(deps, t.unsubscribe),
            location: { id: b.id, name: locationName(b), address: buildingAddress(b) },
            bill: {
              statementDate: f.statement_date,
              serviceStartDate: f.service_start_date,
              serviceEndDate: f.service_end_date,
              totalChargesCents: f.total_charges_cents,
              totalElectricChargesCents: f.total_electric_charges_cents,
              consumptionKwh: f.consumption_kwh,
              rateCents: f.rate_cents,
              supplier: f.supplier,
              utility: f.utility_name,
            },
            previousBill: f.previous_rate_cents === null ? null : { rateCents: f.previous_rate_cents },
            // One bill's dollars once (rule findings-totals): an earlier shown flag of the bill carries them.
            // Said with its amount once: without it when that flag is in the same email.
            countedWith: shownFlagType(f.counted_with_type, f.supplier)
              ? {
                  type: f.counted_with_type!,
                  inThisEmail: f.counted_with_id !== null && Boolean(flagsInEmail?.has(f.counted_with_id)),
                }
              : null,
            flag: { id: f.flag_id, type: f.type, status: f.status, previousSupplier: f.previous_supplier },
            billId: f.statement_id,
            account: {
              id: f.account_id,
              number: f.account_number,
              accountsAtLocation: f.accounts_at_location,
            },
            confirmToken: t.confirm,
            investigateToken: t.investigate,
          }),
      });
    }
  }
  return out;
}

type IssueRow = {
  id: number;
  issue_slug: string;
  current_status: string;
  is_dismissed: number;
  created_at: string;
  building_id: number;
  thermostat_id: number;
  device_name: string;
  vendor: string;
  issue_autoresolve: number;
  temp_indoor_f: number | null;
  cool_setpoint_f: number | null;
  heat_setpoint_f: number | null;
  mode: string | null;
};

/**
 * Open thermostat issues of this kind at the locations each person may see: new ones while they are news, and
 * still-open ones again once their re-send interval has passed (rule alert-resend, `issueSendKey`).
 */
function issueCandidates(deps: ApiDeps, kind: "device_issue" | "customer_comfort"): Finding[] {
  const { db } = deps;
  const nowMs = clock.nowMs();
  const issues = db.prepare(
    `SELECT i.id, i.issue_slug, i.current_status, i.is_dismissed, i.created_at, i.building_id, t.id AS thermostat_id,
       t.device_name, t.vendor, t.issue_autoresolve, t.temp_indoor_f, t.cool_setpoint_f, t.heat_setpoint_f, t.mode
     FROM thermostat_issues i JOIN thermostats t ON t.id = i.thermostat_id
     WHERE i.current_status IN ('active', 'failed') AND i.building_id IN (SELECT value FROM json_each(?))
     ORDER BY i.created_at, i.id`,
  );
  const sends = db.prepare(
    "SELECT sent_at FROM notifications_sent WHERE user_id = ? AND kind = ? AND (subject_key = ? OR subject_key LIKE ?)",
  );
  const out: Finding[] = [];
  for (const user of recipients(db, kind)) {
    const buildings = new Map(listVisibleBuildings(db, recipientAuth(user)).map((b) => [b.id, b]));
    for (const i of issues.all(JSON.stringify([...buildings.keys()])) as IssueRow[]) {
      if (issueAlertKind(i.issue_slug) !== kind) continue;
      const key = notificationKey({ issueId: i.id });
      const before = (sends.all(user.id, kind, key, `${key}#%`) as { sent_at: string }[]).map((r) =>
        Date.parse(r.sent_at),
      );
      const send = issueSendKey(
        kind,
        {
          id: i.id,
          currentStatus: i.current_status,
          isDismissed: i.is_dismissed === 1,
          createdAtMs: Date.parse(i.created_at),
        },
        before,
        nowMs,
      );
      if (!send) continue;
      const b = buildings.get(i.building_id)!;
      out.push({
        user,
        kind,
        key: send.key,
        location: { id: b.id, name: locationName(b) },
        build: (t) =>
          issueAlertEmail({
            baseUrl: deps.config.webBaseUrl,
            unsubscribeHref: unsubscribeHref(deps, t.unsubscribe),
            kind,
            location: { id: b.id, name: locationName(b), timeZone: b.timezone },
            thermostat: {
              id: i.thermostat_id,
              name: i.device_name,
              vendor: i.vendor,
              issueAutoresolve: i.issue_autoresolve === 1,
              tempIndoorF: i.temp_indoor_f,
              coolSetpointF: i.cool_setpoint_f,
              heatSetpointF: i.heat_setpoint_f,
              mode: i.mode,
            },
            issueSlug: i.issue_slug,
            currentStatus: i.current_status,
            foundAt: i.created_at,
            reminder: send.reminder,
          }),
      });
    }
  }
  return out;
}

/** Local wall-clock epoch seconds of a local date (usage_intervals' `ts`, api/db/migrations/030_usage.ts). */
/** The instant a calendar day starts in a building's timezone, as the ISO text `dispatches` store. */
const localMidnight = (isoDate: string, timeZone: string) => {
  const [y, m, d] = isoDate.split("-").map(Number);
  return new Date(+new TZDate(y, m - 1, d, 0, 0, timeZone)).toISOString();
};
const localTs = (isoDate: string) => Date.parse(`${isoDate}T00:00:00Z`) / 1000;

/** Whether any of the locations has a utility account, a thermostat, a bill or usage to report. */
function anythingConnected(db: DB, buildings: BuildingRow[]) {
  const ids = JSON.stringify(buildings.map((b) => b.id));
  const any = (table: string) =>
    db
      .prepare(`SELECT 1 FROM ${table} WHERE building_id IN (SELECT value FROM json_each(?)) LIMIT 1`)
      .get(ids);
  return Boolean(
    any("utility_accounts") || any("thermostats") || any("bill_statements") || any("usage_intervals"),
  );
}

type Digest = { user: Recipient; buildings: BuildingRow[]; period: DigestPeriod };

/**
 * One digest per recipient whose period (in the client's home time zone) is due, or always when forced; keyed
 * by the period, so each goes out once. `build` renders it with the recipient's unsubscribe link.
 */
function digestCandidates(
  deps: ApiDeps,
  kind: "weekly_rundown" | "monthly_recap",
  force: boolean,
  build: (digest: Digest, unsubscribeHref: string) => EmailDoc,
): Candidate[] {
  const { db } = deps;
  const nowMs = clock.nowMs();
  const clientZones = db.prepare("SELECT id, timezone FROM buildings WHERE client_id = ?");
  const out: Digest[] = [];
  for (const user of recipients(db, kind)) {
    const zone = homeTimeZone(clientZones.all(user.client_id) as { id: number; timezone: string }[]);
    const buildings = listVisibleBuildings(db, recipientAuth(user));
    // Nothing connected at any of the person's locations: a digest would only report zeros (rule
    // nothing-connected); the app's "Set up your account" is where to start.
    if (!zone || buildings.length === 0 || !anythingConnected(db, buildings)) continue;
    const period = kind === "weekly_rundown" ? weeklyPeriod(nowMs, zone) : monthlyPeriod(nowMs, zone);
    if (force || digestDue(period, nowMs)) out.push({ user, buildings, period });
  }
  return out.map((digest) => ({
    user: digest.user,
    kind,
    key: notificationKey({ period: digest.period.key }),
    build: (t) => build(digest, unsubscribeHref(deps, t.unsubscribe)),
  }));
}

function weeklyCandidates(deps: ApiDeps, force: boolean): Candidate[] {
  const { db } = deps;
  const nowIso = clock.nowIso();
  const accounts = db.prepare("SELECT count(*) AS n FROM utility_accounts WHERE building_id = ?");
  const usage = db.prepare(
    "SELECT sum(kwh) AS kwh, max(kw) AS kw, count(*) AS n FROM usage_intervals WHERE building_id = ? AND ts >= ? AND ts < ?",
  );
  const events = db.prepare(
    "SELECT id, start_time, end_time FROM dispatches WHERE building_id = ? AND start_time > ? AND is_internal_test = 0 ORDER BY start_time, id LIMIT 5",
  );
  const bills = db.prepare(
    "SELECT statement_date, total_charges_cents FROM bill_statements WHERE building_id = ? AND statement_date >= ? AND statement_date < ? ORDER BY statement_date",
  );
  // Each account's latest statement: a missing bill past 45 days (rule missing-bill), in the app's words.
  const lastStatements = db.prepare(
    `SELECT a.number, a.arcadia_account_status_detail AS detail,
       (SELECT MAX(s.statement_date) FROM bill_statements s WHERE s.account_id = a.id) AS last
     FROM utility_accounts a WHERE a.building_id = ? ORDER BY a.id`,
  );
  // Counted in the location's own days (rule location-today), as its dashboard and the findings count them.
  const missingBills = (building: BuildingRow) =>
    (lastStatements.all(building.id) as { number: string; detail: string | null; last: string | null }[])
      .map((a) => ({
        accountNumber: a.number,
        missing: missingBill(
          { lastStatementDate: a.last, statusDetail: a.detail },
          localDate(clock.nowMs(), building.timezone),
        ),
      }))
      .filter((a) => a.missing !== null)
      .map((a) => ({ accountNumber: a.accountNumber, text: a.missing!.text }));
  return digestCandidates(deps, "weekly_rundown", force, ({ user, buildings, period }, unsubscribe) => {
    // The findings awaiting the person's answer, per location, summed as the findings page sums them.
    const awaiting = awaitingByLocation(
      (
        clientFindings(db, recipientAuth(user), buildings).items as {
          flag_id: number | null;
          bill: { id: number } | null;
          status: string;
          building: { id: number };
          at_stake: { cents: number | null } | null;
        }[]
      ).map((f) => ({
        flagId: f.flag_id,
        billId: f.bill?.id ?? null,
        status: f.status,
        locationId: f.building.id,
        cents: f.at_stake?.cents ?? null,
      })),
    );
    // The dashboard's device summaries, read through the dashboard's own rule (shared/location-status.ts).
    const summaries = new Map(
      energyAdvisorBuildings(deps, buildings).map((a) => [
        a.building.id,
        {
          deviceStatus: a.device_summary.device_status,
          numThermostats: a.device_summary.num_thermostats,
          unreachableThermostatsIds: a.device_summary.unreachable_thermostats_ids,
          issueThermostatsIds: a.device_summary.issue_thermostats_ids,
        },
      ]),
    );
    const locations: RundownLocation[] = buildings.map((b) => {
      const summary = summaries.get(b.id) ?? NO_DEVICES_SUMMARY;
      const week = usage.get(b.id, localTs(period.from), localTs(period.to)) as {
        kwh: number | null;
        kw: number | null;
        n: number;
      };
      const before = usage.get(b.id, localTs(period.beforeFrom), localTs(period.from)) as {
        kwh: number | null;
      };
      return {
        id: b.id,
        name: locationName(b),
        timeZone: b.timezone,
        thermostats: {
          label: hasThermostatIssues(summary) ? attentionLabel(summary) : thermostatChip(summary).label,
          attention: hasThermostatIssues(summary),
          count: summary.numThermostats,
        },
        utilityAccounts: (accounts.get(b.id) as { n: number }).n,
        consumptionKwh: week.n ? week.kwh : null,
        consumptionChange: week.n && before.kwh ? changeText(week.kwh ?? 0, before.kwh) : null,
        peakKw: week.n ? week.kw : null,
        upcomingEvents: (
          events.all(b.id, nowIso) as { id: number; start_time: string; end_time: string }[]
        ).map((e) => ({ id: e.id, startsAt: e.start_time, endsAt: e.end_time })),
        newBills: (
          bills.all(b.id, period.from, period.to) as {
            statement_date: string;
            total_charges_cents: number;
          }[]
        ).map((x) => ({ statementDate: x.statement_date, totalChargesCents: x.total_charges_cents })),
        missingBills: missingBills(b),
        awaitingAnswer: awaiting.get(b.id) ?? null,
      };
    });
    return weeklyRundownEmail({
      baseUrl: deps.config.webBaseUrl,
      unsubscribeHref: unsubscribe,
      from: period.from,
      to: period.to,
      locations,
    });
  });
}

function monthlyCandidates(deps: ApiDeps, force: boolean): Candidate[] {
  const { db } = deps;
  const accounts = db.prepare("SELECT count(*) AS n FROM utility_accounts WHERE building_id = ?");
  const spending = db.prepare(
    "SELECT sum(total_charges_cents) AS cents, count(*) AS n FROM bill_statements WHERE building_id = ? AND statement_date >= ? AND statement_date < ?",
  );
  const events = db.prepare(
    "SELECT count(*) AS n FROM dispatches WHERE building_id = ? AND status = 'SUCCESS' AND is_internal_test = 0 AND start_time >= ? AND start_time < ?",
  );
  return digestCandidates(deps, "monthly_recap", force, ({ user, buildings, period }, unsubscribe) => {
    const report = overrideReport(db, recipientAuth(user), user.client_id, period.from, period.to);
    const pct = new Map(
      (report.buildings as { building_id: number; schedule_compliance_percentage: number | null }[]).map(
        (b) => [b.building_id, b.schedule_compliance_percentage],
      ),
    );
    const client = (report.client as { schedule_compliance_percentage: number | null }[])[0];
    const locations: RecapLocation[] = buildings.map((b) => {
      const s = spending.get(b.id, period.from, period.to) as { cents: number | null; n: number };
      return {
        id: b.id,
        name: locationName(b),
        spendingCents: s.n ? s.cents : null,
        utilityAccounts: (accounts.get(b.id) as { n: number }).n,
        compliancePct: pct.get(b.id) ?? null,
        gridEvents: (
          events.get(b.id, localMidnight(period.from, b.timezone), localMidnight(period.to, b.timezone)) as {
            n: number;
          }
        ).n,
      };
    });
    return monthlyRecapEmail({
      baseUrl: deps.config.webBaseUrl,
      unsubscribeHref: unsubscribe,
      month: period.from.slice(0, 7),
      clientCompliancePct: client?.schedule_compliance_percentage ?? null,
      locations,
    });
  });
}

/**
 * Grid event notices (rule grid-notice-day): to each person who wants them, one email naming every pending
 * event at the locations they may see whose building's local day before is today, each event once (its id in
 * the email's ledger key; an event already noticed to that person is left out of a later email).
 */
function gridNoticeCandidates(deps: ApiDeps): Candidate[] {
  const { db } = deps;
  const nowMs = clock.nowMs();
  const events = db.prepare(
    `SELECT id, building_id, status, precool_start_time, start_time, end_time FROM dispatches
     WHERE status = 'PENDING' AND is_internal_test = 0 AND start_time > ? AND building_id IN (SELECT value FROM json_each(?))
     ORDER BY start_time, id`,
  );
  const thermostats = db.prepare(
    `SELECT t.device_name AS name, x.precool_setpoint, x.target_setpoint FROM dispatch_thermostats x
     JOIN thermostats t ON t.id = x.thermostat_id WHERE x.dispatch_id = ? ORDER BY t.device_name, t.id`,
  );
  const noticed = db.prepare(
    "SELECT subject_key FROM notifications_sent WHERE user_id = ? AND kind = 'grid_event'",
  );
  const out: Candidate[] = [];
  for (const user of recipients(db, "grid_event")) {
    const buildings = new Map(listVisibleBuildings(db, recipientAuth(user)).map((b) => [b.id, b]));
    const before = new Set(
      (noticed.all(user.id) as { subject_key: string }[]).flatMap((r) => r.subject_key.split(",")),
    );
    const due = (
      events.all(new Date(nowMs).toISOString(), JSON.stringify([...buildings.keys()])) as {
        id: number;
        building_id: number;
        status: string;
        precool_start_time: string | null;
        start_time: string;
        end_time: string;
      }[]
    ).filter((e) => {
      const b = buildings.get(e.building_id)!;
      return (
        !before.has(noticeKey(e.id)) &&
        noticeDue({ status: e.status, startTime: e.start_time, timeZone: b.timezone }, nowMs)
      );
    });
    if (due.length === 0) continue;
    const notice: NoticeEvent[] = due.map((e) => {
      const b = buildings.get(e.building_id)!;
      return {
        id: e.id,
        location: { id: b.id, name: locationName(b), timeZone: b.timezone },
        precoolStartsAt: e.precool_start_time,
        startsAt: e.start_time,
        endsAt: e.end_time,
        thermostats: (
          thermostats.all(e.id) as {
            name: string;
            precool_setpoint: number | null;
            target_setpoint: number | null;
          }[]
        ).map((t) => ({
          name: t.name,
          precoolSetpointF: t.precool_setpoint,
          targetSetpointF: t.target_setpoint,
        })),
      };
    });
    out.push({
      user,
      kind: "grid_event",
      // Every event of the email, so a later run sees each as noticed (and a second run writes nothing).
      key: due.map((e) => noticeKey(e.id)).join(","),
      build: (t) =>
        gridNoticeEmail({
          baseUrl: deps.config.webBaseUrl,
          unsubscribeHref: unsubscribeHref(deps, t.unsubscribe),
          events: notice,
        }),
    });
  }
  return out;
}

/** An event's figures as the web receives them (performanceJson camelCased): what shared/grid-figures.ts reads. */
function performanceView(p: ReturnType<typeof performanceJson>): ResultsEvent["performance"] {
  return {
    measurement: p.measurement,
    baselineKw: p.baseline_kw,
    actualKw: p.actual_kw,
    kwReduced: p.kw_reduced,
    kwhReduced: p.kwh_reduced,
    hours: p.hours,
    cblMethod: p.cbl_method,
    cblDays: p.cbl_days.map((d) => ({ date: d.date, averageKw: d.average_kw, used: d.used })),
    eventsInMonth: p.events_in_month,
    earnings: p.earnings && {
      reservationCents: p.earnings.reservation_cents,
      performanceCents: p.earnings.performance_cents,
      totalCents: p.earnings.total_cents,
    },
    program: p.program && {
      name: p.program.name,
      utility: p.program.utility,
      reservationCentsPerKwMonth: p.program.reservation_cents_per_kw_month,
      performanceCentsPerKwh: p.program.performance_cents_per_kwh,
      estimated: p.program.estimated,
    },
  };
}

/**
 * Grid event results (rule grid-results-day): to each person who wants Grid Event Notices, one email with the
 * measured figures of every event that took part at the locations they may see and whose building's local day
 * after is today, each event once (its id in the email's ledger key; an event already reported to that person is
 * left out of a later email). Events that ended are finalised first (rule dispatch-final-status), as a read is.
 */
function gridResultsCandidates(deps: ApiDeps): Candidate[] {
  const { db } = deps;
  const nowMs = clock.nowMs();
  finaliseEndedDispatches(db, new Date(nowMs));
  // Ended within the last two days (UTC instants): every zone's day after is inside that.
  const events = db.prepare(
    `SELECT id, building_id, status, is_internal_test, start_time, end_time, program_id FROM dispatches
     WHERE status = 'SUCCESS' AND is_internal_test = 0 AND end_time <= ? AND end_time > ?
       AND building_id IN (SELECT value FROM json_each(?))
     ORDER BY start_time, id`,
  );
  const thermostats = db.prepare(
    `SELECT t.device_name AS name, x.participating_minutes, x.was_overridden, x.overridden_at,
       x.override_setpoint, x.target_setpoint, x.max_indoor_f
     FROM dispatch_thermostats x JOIN thermostats t ON t.id = x.thermostat_id
     WHERE x.dispatch_id = ? ORDER BY t.device_name, t.id`,
  );
  const reported = db.prepare(
    "SELECT subject_key FROM notifications_sent WHERE user_id = ? AND kind = 'grid_event'",
  );
  const measured = new Map<number, ResultsEvent["performance"]>();
  const out: Candidate[] = [];
  for (const user of recipients(db, "grid_event")) {
    const buildings = new Map(listVisibleBuildings(db, recipientAuth(user)).map((b) => [b.id, b]));
    const before = new Set(
      (reported.all(user.id) as { subject_key: string }[]).flatMap((r) => r.subject_key.split(",")),
    );
    const due = (
      events.all(
        new Date(nowMs).toISOString(),
        new Date(nowMs - 2 * 86_400_000).toISOString(),
        JSON.stringify([...buildings.keys()]),
      ) as {
        id: number;
        building_id: number;
        status: string;
        is_internal_test: number;
        start_time: string;
        end_time: string;
        program_id: number | null;
      }[]
    ).filter((e) => {
      const b = buildings.get(e.building_id)!;
      return (
        !before.has(resultsKey(e.id)) &&
        resultsDue(
          {
            status: e.status,
            internalTest: e.is_internal_test === 1,
            endTime: e.end_time,
            timeZone: b.timezone,
          },
          nowMs,
        )
      );
    });
    if (due.length === 0) continue;
    // Each event measured once per run, whoever it is for.
    const unmeasured = due.filter((e) => !measured.has(e.id));
    for (const [id, p] of measureDispatches(
      db,
      unmeasured.map((e) => ({ ...e, building_timezone: buildings.get(e.building_id)!.timezone })),
    ))
      measured.set(id, performanceView(performanceJson(p)));
    const results: ResultsEvent[] = due.map((e) => {
      const b = buildings.get(e.building_id)!;
      return {
        id: e.id,
        location: { id: b.id, name: locationName(b), timeZone: b.timezone },
        status: e.status,
        internalTest: e.is_internal_test === 1,
        startsAt: e.start_time,
        endsAt: e.end_time,
        performance: measured.get(e.id)!,
        thermostats: (
          thermostats.all(e.id) as {
            name: string;
            participating_minutes: number | null;
            was_overridden: number | null;
            overridden_at: string | null;
            override_setpoint: number | null;
            target_setpoint: number | null;
            max_indoor_f: number | null;
          }[]
        ).map((t) => ({
          name: t.name,
          participatingMinutes: t.participating_minutes,
          wasOverridden: t.was_overridden === 1,
          overriddenAt: t.overridden_at,
          overrideSetpoint: t.override_setpoint,
          targetSetpoint: t.target_setpoint,
          maxIndoorF: t.max_indoor_f,
        })),
      };
    });
    out.push({
      user,
      kind: "grid_event",
      // Every event of the email, so a later run sees each as reported (and a second run writes nothing).
      key: due.map((e) => resultsKey(e.id)).join(","),
      build: (t) =>
        gridResultsEmail({
          baseUrl: deps.config.webBaseUrl,
          unsubscribeHref: unsubscribeHref(deps, t.unsubscribe),
          events: results,
        }),
    });
  }
  return out;
}

/** What one run of the jobs covers: one kind, or every alert kind at once ("alerts", one email per person). */
export type NotificationRun = NotificationKind | "alerts";

/** How staff close an investigation, as its email reports it (rule flag-outcome). */
export type ClosingOutcome = {
  outcome: FlagOutcomeData["outcome"]["outcome"];
  creditCents: number | null;
  note: string;
  /** Who closes it (the staff member's name) and when: the instant the close is written with. */
  by: string;
  closedAt: string;
};

/**
 * The outcome of an investigation being closed (rule flag-outcome): one email to each person who gets that
 * client's Bill Audit Alerts and may see the location, once per flag (the ledger's key). Not held back by the
 * alert limit: it answers a question the client asked. Rendering is asynchronous, so the emails are rendered
 * BEFORE the close from what it will write, and `write` (synchronous) writes them inside the close's own
 * transaction: an email only for a close that committed. Answers how many `write` wrote.
 */
export async function prepareFlagOutcome(
  deps: ApiDeps,
  flagId: number,
  outcome: ClosingOutcome,
): Promise<{ write: () => number }> {
  const { db } = deps;
  const f = db
    .prepare(
      `SELECT f.id AS flag_id, f.type, f.previous_supplier, s.id AS statement_id, s.building_id,
         s.statement_date, s.supplier, a.id AS account_id, a.number AS account_number
       FROM bill_flags f JOIN bill_statements s ON s.id = f.bill_statement_id
         JOIN utility_accounts a ON a.id = s.account_id
       WHERE f.id = ?`,
    )
    .get(flagId) as
    | {
        flag_id: number;
        type: string;
        previous_supplier: string | null;
        statement_id: number;
        building_id: number;
        statement_date: string;
        supplier: string | null;
        account_id: number;
        account_number: string;
      }
    | undefined;
  if (!f) return { write: () => 0 };
  // What was at stake on the bill (rule flag-price): the email says how much of it came back.
  const figures = flagFigures(db, [f.flag_id]).get(f.flag_id);
  const out: Candidate[] = [];
  for (const user of recipients(db, "bill_flag")) {
    const b = listVisibleBuildings(db, recipientAuth(user)).find((x) => x.id === f.building_id);
    if (!b) continue;
    out.push({
      user,
      kind: "bill_flag",
      key: `outcome:${f.flag_id}`,
      build: (t) =>
        flagOutcomeEmail({
          baseUrl: deps.config.webBaseUrl,
          unsubscribeHref: unsubscribeHref(deps, t.unsubscribe),
          location: { id: b.id, name: locationName(b) },
          flag: { id: f.flag_id, type: f.type, status: "completed", previousSupplier: f.previous_supplier },
          bill: { id: f.statement_id, statementDate: f.statement_date, supplier: f.supplier },
          account: { id: f.account_id, number: f.account_number },
          outcome: { ...outcome, timezone: b.timezone },
          price: figures?.price ?? null,
        }),
    });
  }
  const rendered = await Promise.all(out.map(renderCandidate));
  return {
    write: () => {
      const nowMs = Date.parse(outcome.closedAt);
      return rendered.filter((r) => writeRendered(deps, r, nowMs)).length;
    },
  };
}

/**
 * Runs one job as of the api's clock and answers how many emails it wrote. An alert kind alone, or "alerts" (all
 * three, as the scheduler runs them), sends each person one email of what the run found. `force` (the test hook)
 * sends the latest digest period even outside its due day; alerts have no due time.
 */
export async function runNotificationJob(
  deps: ApiDeps,
  kind: NotificationRun,
  force = false,
): Promise<number> {
  if (kind === "alerts" || isAlertKind(kind)) {
    const kinds = kind === "alerts" ? ALERT_KINDS : [kind];
    const findings = kinds.flatMap((k) =>
      k === "bill_flag" ? billFlagCandidates(deps) : issueCandidates(deps, k),
    );
    return deliverAlerts(deps, findings);
  }
  // The notice before an event and the results after it: one preference, Grid Event Notices (rule grid-results-day).
  if (kind === "grid_event")
    return deliver(deps, [...gridNoticeCandidates(deps), ...gridResultsCandidates(deps)]);
  return deliver(
    deps,
    kind === "weekly_rundown" ? weeklyCandidates(deps, force) : monthlyCandidates(deps, force),
  );
}
