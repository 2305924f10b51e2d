// The flag's heading and question are the spec's words, shared with the web's spending page.
import { flagCopy, flagHeading, outcomeHeading } from "../../shared/bill-flags";
import { type FlagPrice, flagPrice, PRICE_LABEL, priceLine, priceMoney } from "../../shared/flag-price";
import { type FlagOutcome, outcomeWords } from "../../shared/flag-outcome";
import { issueLabel } from "../../shared/status-labels";
import {
  formatCalendarDate,
  formatLocalDateTime,
  formatLocalSpan,
  formatMoney,
  formatMonthLong,
  formatNumber,
  formatRange,
  formatRate,
  localIsoDate,
} from "./format";
import { DISMISSAL_REFUSALS, dismissalRefusal } from "../../shared/issue-dismissal";
import { attentionLine } from "../../shared/location-status";
import { MISSING_BILL_LABEL } from "../../shared/missing-bill";
import {
  type DispatchPerformance,
  figureRows,
  locationFigures,
  programNote,
  seasonHeadline,
  thermostatPart,
  type ThermostatPartInput,
} from "../../shared/grid-figures";
import { seasonTotal } from "../../shared/grid-performance";
import {
  ALERT_EMAILS_PER_DAY,
  KIND_NAMES,
  type AlertKind,
  type NotificationKind,
} from "../domain/notifications";
import { absolute, type Block, type EmailDoc } from "./layout";

/** The notification emails, as `EmailDoc`s (api/mail/layout.tsx renders them). */

type Common = { baseUrl: string; unsubscribeHref: string };

const unsubscribe = (kind: NotificationKind, href: string) => ({ href, what: KIND_NAMES[kind] });

export type BillAlertData = Common & {
  location: { id: number; name: string; address: string };
  bill: {
    statementDate: string;
    serviceStartDate: string;
    serviceEndDate: string;
    totalChargesCents: number;
    totalElectricChargesCents: number;
    consumptionKwh: number;
    rateCents: number;
    supplier: string | null;
    utility: string;
  };
  /** The previous bill of the same account (rule flag-price), null when this is its first. */
  previousBill: { rateCents: number } | null;
  /**
   * An earlier flag users see on the same bill, whose finding carries the bill's amount (rule findings-totals):
   * this one says it is counted with that one, and gives the amount only when that one is not in the same email.
   */
  countedWith?: { type: string; inThisEmail: boolean } | null;
  flag: { id: number; type: string; status: string; previousSupplier: string | null };
  /** The bill's statement id and its utility account; `accountsAtLocation` says whether to name it in the subject. */
  billId: number;
  account: { id: number; number: string; accountsAtLocation: number };
  /** The two answer links' tokens. */
  confirmToken: string;
  investigateToken: string;
};

/**
 * Bill Audit Alert: first what the change costs on this bill (rule flag-price), then the flag's heading and
 * question (rule flag-headings), the bill's figures, two answers.
 */
export function billFlagAlertEmail(d: BillAlertData): EmailDoc {
  const price = flagPrice({ rateCents: d.bill.rateCents, kwh: d.bill.consumptionKwh }, d.previousBill);
  const heading = flagHeading(d.flag, { price });
  const flag = { ...d.flag, details: { previousSupplier: d.flag.previousSupplier } };
  const answer = (status: string, token: string) =>
    absolute(d.baseUrl, `/fix-my-bill/${status}?${new URLSearchParams({ token })}`);
  const account = `Acct # ${d.account.number}`;
  const rows: [string, string][] = [
    ["Location", d.location.name],
    ["Address", d.location.address],
    ["Account", account],
    ["Statement date", formatCalendarDate(d.bill.statementDate)],
    ["Service period", formatRange(d.bill.serviceStartDate, d.bill.serviceEndDate)],
    ["Total charges", formatMoney(d.bill.totalChargesCents)],
    ["Electric charges", formatMoney(d.bill.totalElectricChargesCents)],
    ["Consumption", `${formatNumber(d.bill.consumptionKwh)} kWh`],
    ["Rate", formatRate(d.bill.rateCents)],
    ["Utility", d.bill.utility],
    ...(d.flag.type === "supplier_change"
      ? ([
          ["Supplier", d.bill.supplier ?? d.bill.utility],
          ...(d.flag.previousSupplier ? [["Previous supplier", d.flag.previousSupplier]] : []),
        ] as [string, string][])
      : []),
  ];
  return {
    // Two accounts at one location would read alike: the subject names the account when there are several.
    subject: `${heading}: ${d.location.name}${d.account.accountsAtLocation > 1 ? `, ${account}` : ""}`,
    preview: `Bill of ${formatCalendarDate(d.bill.statementDate)} at ${d.location.name} (${account}): is this change expected?`,
    heading,
    baseUrl: d.baseUrl,
    unsubscribe: unsubscribe("bill_flag", d.unsubscribeHref),
    blocks: [
      { type: "p", text: alertPriceLine(price, d.countedWith) },
      { type: "p", text: flagCopy(flag, d.bill.supplier, { price }) },
      { type: "facts", rows },
      { type: "button", link: { href: answer("dismissed", d.confirmToken), label: "Yes, this is expected" } },
      {
        type: "button",
        link: { href: answer("action_requested", d.investigateToken), label: "No, please investigate" },
      },
      {
        type: "p",
        text: "Each answer opens a page where you confirm it with one button, and where you can change it later. The links work for 30 days, while you have access to this location.",
      },
      {
        type: "list",
        items: [
          {
            // That account's bills with this bill marked and its flag in view (the spending page's accountId
            // and billId, server-rendered; the fragment is the flag's anchor, and `flag` keeps it through a
            // sign-in: the web's signInLanding).
            text: "This bill and the other bills of this account:",
            link: {
              href: absolute(
                d.baseUrl,
                `/locations/${d.location.id}/spending?${new URLSearchParams({ accountId: String(d.account.id), billId: String(d.billId), flag: String(d.flag.id) })}#flag-${d.flag.id}`,
              ),
              label: `${d.location.name} bills, ${account}`,
            },
          },
          // Bill findings are not on the dashboard: the findings page lists them all (rule alert-grouping).
          {
            text: ALERT_PLACES.bill.text,
            link: { href: absolute(d.baseUrl, ALERT_PLACES.bill.path), label: ALERT_PLACES.bill.label },
          },
        ],
      },
    ],
  };
}

const FLAG_KIND_NAMES: Record<string, string> = {
  supplier_change: "supplier change",
  rate_class_change: "rate class change",
};

/**
 * The alert's price line (rule flag-price); a second flag of a bill says it is counted with the first (rule
 * findings-totals), in the findings page's words ("Counted with the supplier change"), so an email says a
 * bill's amount once: "…: counted with the supplier change of this bill in this email, not added to it.", or,
 * when that flag is not in the email, "…: counted with the supplier change of this bill ($54.39), not added to it."
 */
export function alertPriceLine(
  price: FlagPrice,
  countedWith?: { type: string; inThisEmail: boolean } | null,
) {
  if (!countedWith || price.cents === null) return priceLine(price);
  const kind = FLAG_KIND_NAMES[countedWith.type] ?? "other bill issue";
  const where = countedWith.inThisEmail ? "in this email" : `(${priceMoney(price.cents)})`;
  return `${PRICE_LABEL}: counted with the ${kind} of this bill ${where}, not added to it.`;
}

export type FlagOutcomeData = Common & {
  location: { id: number; name: string };
  flag: { id: number; type: string; status: string; previousSupplier: string | null };
  bill: { id: number; statementDate: string; supplier: string | null };
  account: { id: number; number: string };
  outcome: {
    outcome: FlagOutcome;
    creditCents: number | null;
    note: string;
    by: string;
    closedAt: string;
    timezone: string | null;
  };
  /** The bill's price (rule flag-price): a credit is shown against what was at stake. */
  price?: FlagPrice | null;
};

/** "Nov 28, 2026 at 9:00 AM PST" in the location's timezone. */
function closedWhen(iso: string, timeZone: string | null) {
  const at = new Date(iso);
  const tz = timeZone ?? "UTC";
  const date = new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: tz,
  });
  const time = new Intl.DateTimeFormat("en-US", {
    hour: "numeric",
    minute: "2-digit",
    timeZone: tz,
    timeZoneName: "short",
  });
  return `${date.format(at)} at ${time.format(at)}`;
}

/**
 * The outcome of an investigation the client asked for (rule flag-outcome): what was found, by whom and when,
 * the staff's note, and the bill on the spending page with the flag's history.
 */
export function flagOutcomeEmail(d: FlagOutcomeData): EmailDoc {
  const what = d.flag.type === "supplier_change" ? "supplier change" : "delivery rate class change";
  const account = `Acct # ${d.account.number}`;
  const o = { outcome: d.outcome.outcome, creditCents: d.outcome.creditCents };
  const stake = d.price?.cents ?? null;
  const words = outcomeWords(o);
  // The flag's own words once closed (rule flag-headings): the spending page's heading and copy.
  const flag = { ...d.flag, status: "completed", details: { previousSupplier: d.flag.previousSupplier } };
  const figures = { price: d.price ?? null, outcome: o };
  return {
    subject: `Investigation closed: ${words} at ${d.location.name}`,
    preview: `${outcomeWords(o, stake)}: the ${what} on the bill of ${formatCalendarDate(d.bill.statementDate)} at ${d.location.name} (${account})`,
    heading: outcomeHeading(o),
    baseUrl: d.baseUrl,
    unsubscribe: unsubscribe("bill_flag", d.unsubscribeHref),
    blocks: [
      { type: "p", text: flagCopy(flag, d.bill.supplier, figures) },
      {
        type: "facts",
        rows: [
          ["Outcome", outcomeWords(o, stake)],
          ...(d.price ? ([["At stake (rate per kWh alone)", d.price.text]] as [string, string][]) : []),
          ["Note", d.outcome.note],
          ["Closed by", `${d.outcome.by}, ${closedWhen(d.outcome.closedAt, d.outcome.timezone)}`],
          ["Location", d.location.name],
          ["Account", account],
          ["Statement date", formatCalendarDate(d.bill.statementDate)],
        ],
      },
      {
        type: "list",
        items: [
          {
            text: "The bill and the history of this bill issue:",
            link: {
              href: absolute(
                d.baseUrl,
                `/locations/${d.location.id}/spending?${new URLSearchParams({ accountId: String(d.account.id), billId: String(d.bill.id), flag: String(d.flag.id) })}#flag-${d.flag.id}`,
              ),
              label: `${d.location.name} bills, ${account}`,
            },
          },
        ],
      },
    ],
  };
}

export type IssueAlertData = Common & {
  kind: "device_issue" | "customer_comfort";
  location: { id: number; name: string; timeZone: string };
  thermostat: {
    id: number;
    name: string;
    vendor: string;
    issueAutoresolve: boolean;
    tempIndoorF: number | null;
    coolSetpointF: number | null;
    heatSetpointF: number | null;
    mode: string | null;
  };
  issueSlug: string;
  currentStatus: string;
  foundAt: string;
  /** A reminder of an issue mailed before and still open (rule alert-resend). */
  reminder?: boolean;
};

const degrees = (f: number) => `${formatNumber(f)}°F`;

/**
 * How far a comfort issue's room is from its setpoint, and since when (rule comfort-alert-reading): the setpoint
 * the issue names (heat or cool), else the one the mode uses, both in auto mode.
 */
/** The setpoint a comfort issue is about: the one its slug names (heat or cool), else the mode's, else both. */
const comfortSetpoint = (d: Pick<IssueAlertData, "thermostat" | "issueSlug">) =>
  /(^|_)cool/.test(d.issueSlug)
    ? "cool"
    : /(^|_)heat/.test(d.issueSlug)
      ? "heat"
      : d.thermostat.mode === "cool" || d.thermostat.mode === "heat"
        ? d.thermostat.mode
        : "auto";

/**
 * Which way a comfort issue's room is off (rule comfort-alert-reading): "too cold" below the heating
 * setpoint, "too warm" above the cooling one (the setpoint the issue is about); null without a reading, or
 * when the room is within its setpoints.
 */
export function comfortDirection(
  d: Pick<IssueAlertData, "thermostat" | "issueSlug">,
): "too warm" | "too cold" | null {
  const t = d.thermostat;
  if (t.tempIndoorF === null) return null;
  const which = comfortSetpoint(d);
  if (which !== "cool" && t.heatSetpointF !== null && t.tempIndoorF < t.heatSetpointF) return "too cold";
  if (which !== "heat" && t.coolSetpointF !== null && t.tempIndoorF > t.coolSetpointF) return "too warm";
  return null;
}

export function comfortReading(d: Pick<IssueAlertData, "thermostat" | "issueSlug" | "foundAt" | "location">) {
  const t = d.thermostat;
  const since = formatLocalDateTime(d.foundAt, d.location.timeZone);
  if (t.tempIndoorF === null)
    return `We have no indoor reading from it right now. The issue has been open since ${since}.`;
  const which = comfortSetpoint(d);
  const against = (kind: "cool" | "heat", sp: number | null) => {
    if (sp === null) return null;
    const diff = Math.round((t.tempIndoorF! - sp) * 10) / 10;
    const gap = diff === 0 ? "right at it" : `${degrees(Math.abs(diff))} ${diff > 0 ? "warmer" : "cooler"}`;
    return `a ${kind === "cool" ? "cooling" : "heating"} setpoint of ${degrees(sp)} (${gap})`;
  };
  const setpoints =
    which === "auto"
      ? [against("heat", t.heatSetpointF), against("cool", t.coolSetpointF)].filter(Boolean).join(" and ")
      : against(which, which === "cool" ? t.coolSetpointF : t.heatSetpointF);
  return `It reads ${degrees(t.tempIndoorF)} indoors against ${setpoints || "no setpoint we can read"}. The issue has been open since ${since}.`;
}

/** What a schedule issue means and what to do about it (rule hold-alert-advice). */
function scheduleAdvice(d: IssueAlertData): string[] {
  const since = formatLocalDateTime(d.foundAt, d.location.timeZone);
  const what =
    d.issueSlug === "permanent_hold"
      ? `${d.thermostat.name} is on a permanent hold since ${since}: it no longer follows its schedule and keeps the same setpoints day and night, also when ${d.location.name} is closed.`
      : `${d.thermostat.name}'s schedule has not changed between open and closed hours since ${since}, so it heats or cools ${d.location.name} when nobody is there.`;
  const todo =
    d.thermostat.vendor === "airzone"
      ? "To put it back on its schedule, change it on the thermostat or in the Airzone app: Airzone thermostats cannot be put back from EnergyOps."
      : `To put it back on its recommended schedule, open the control room and press Resolve Issue on the ${d.thermostat.name} card.`;
  return [what, todo];
}

/**
 * A thermostat issue alert: the issue in the catalogue's words, how bad it is (a comfort issue's reading
 * against its setpoint, a hold's meaning and what to do), the control room, and the dismissal link only where
 * the rule lets the user dismiss it (rule dismissal-offer); elsewhere, why not and what to do instead.
 */
export function issueAlertEmail(d: IssueAlertData): EmailDoc {
  const label = issueLabel(d.issueSlug);
  const comfort = d.kind === "customer_comfort";
  const schedule = d.issueSlug === "permanent_hold" || d.issueSlug === "unchanging_schedule";
  const refusal = dismissalRefusal(d.thermostat, [{ currentStatus: d.currentStatus, isDismissed: false }]);
  const lead = comfort
    ? [
        `The space at ${d.location.name} served by the thermostat ${d.thermostat.name} ${comfortDirection(d) ? `is ${comfortDirection(d)}` : "may be too warm or too cold"}.`,
        comfortReading(d),
      ]
    : schedule
      ? scheduleAdvice(d)
      : [
          `We found an issue with the thermostat ${d.thermostat.name} at ${d.location.name}, open since ${formatLocalDateTime(d.foundAt, d.location.timeZone)}.`,
        ];
  const blocks: Block[] = [
    ...(d.reminder ? [{ type: "p" as const, text: "A reminder: this issue is still open." }] : []),
    ...lead.map((text) => ({ type: "p" as const, text })),
    {
      type: "facts",
      rows: [
        ["Location", d.location.name],
        ["Thermostat", d.thermostat.name],
        ["Issue", label],
        ...(d.thermostat.tempIndoorF !== null
          ? [["Indoor temperature", degrees(d.thermostat.tempIndoorF)] as [string, string]]
          : []),
        ...(d.thermostat.heatSetpointF !== null
          ? [["Heating setpoint", degrees(d.thermostat.heatSetpointF)] as [string, string]]
          : []),
        ...(d.thermostat.coolSetpointF !== null
          ? [["Cooling setpoint", degrees(d.thermostat.coolSetpointF)] as [string, string]]
          : []),
        ["Open since", formatLocalDateTime(d.foundAt, d.location.timeZone)],
      ],
    },
    {
      type: "button",
      link: {
        href: absolute(d.baseUrl, `/locations/${d.location.id}/control`),
        label: `Open the ${d.location.name} control room`,
      },
    },
  ];
  if (refusal === null)
    blocks.push(
      {
        type: "p",
        text: "If this is expected (the thermostat is set this way on purpose), you can dismiss the issue and we will stop flagging it.",
      },
      {
        type: "button",
        secondary: true,
        link: {
          href: absolute(d.baseUrl, dismissalPath(d.thermostat.id, d.issueSlug)),
          label: "Dismiss this thermostat issue",
        },
      },
    );
  else if (refusal === "airzone" || refusal === "autoresolves")
    blocks.push({
      type: "p",
      text: `${DISMISSAL_REFUSALS[refusal].why} ${DISMISSAL_REFUSALS[refusal].instead}`,
    });
  return {
    subject: `${comfort ? "Comfort alert" : "Thermostat issue"}: ${label} at ${d.location.name}`,
    preview: comfort
      ? `${d.thermostat.name} at ${d.location.name}: ${d.thermostat.tempIndoorF === null ? label : `${degrees(d.thermostat.tempIndoorF)} indoors`}`
      : `${d.thermostat.name} at ${d.location.name}: ${label}`,
    heading: `${label}: ${d.thermostat.name}`,
    baseUrl: d.baseUrl,
    unsubscribe: unsubscribe(d.kind, d.unsubscribeHref),
    blocks,
  };
}

/** What each alert kind is called in a grouped email, before the alert's own heading. */
const ALERT_KIND_TITLES: Record<AlertKind, string> = {
  customer_comfort: "Comfort alert",
  device_issue: "Thermostat issue",
  bill_flag: "Bill Audit Alert",
};

export type AlertEmailItem = { kind: AlertKind; location: { id: number; name: string }; doc: EmailDoc };

/** Where what an alert is about can be seen at any time: bill findings are not on the dashboard. */
export const ALERT_PLACES: Record<"bill" | "thermostat", { text: string; path: string; label: string }> = {
  bill: {
    text: "Bill findings, with what is at stake and your answers:",
    path: "/findings",
    label: "Findings at your locations",
  },
  thermostat: {
    text: "Thermostat issues, on each location's row:",
    path: "/locations",
    label: "Your dashboard",
  },
};

/**
 * The note of the day's last alert email (rule alert-email-cap): the cap is the only thing that holds alerts
 * back, so it says that what is found from now waits, until when, and where everything open is meanwhile.
 */
export function capNote(baseUrl: string, nextAt: string | null): Block[] {
  const until = nextAt
    ? `anything we find before ${nextAt} waits, and comes in one email then`
    : "anything we find next waits until a day after the first of them, and comes in one email then";
  return [
    {
      type: "p",
      text: `This is the last of the ${ALERT_EMAILS_PER_DAY} alert emails we send you at most in 24 hours: ${until}. Meanwhile, everything open is here:`,
    },
    {
      type: "list",
      items: [ALERT_PLACES.bill, ALERT_PLACES.thermostat].map((p) => ({
        text: p.text,
        link: { href: absolute(baseUrl, p.path), label: p.label },
      })),
    },
  ];
}

/**
 * One email for everything one run found for one person (rule alert-grouping): by location, then by kind, each
 * alert with its own heading, figures and answer links. One alert alone reads as it always did. Nothing of the
 * run is left out; when this email is the day's last under the cap (`lastOfDay`), it says so and from when the
 * next may come (`nextAt`, already written in the person's zone).
 */
export function alertEmail(d: {
  baseUrl: string;
  items: AlertEmailItem[];
  lastOfDay: { nextAt: string | null } | null;
  unsubscribes: { kind: AlertKind; href: string }[];
}): EmailDoc {
  const more: Block[] = d.lastOfDay ? capNote(d.baseUrl, d.lastOfDay.nextAt) : [];
  const unsubscribes = d.unsubscribes.map((u) => unsubscribe(u.kind, u.href));
  if (d.items.length === 1) {
    const only = d.items[0].doc;
    return { ...only, blocks: [...only.blocks, ...more], unsubscribe: unsubscribes };
  }
  const locations = [...new Map(d.items.map((i) => [i.location.id, i.location.name])).values()];
  const first = d.items[0].doc;
  const blocks: Block[] = [
    {
      type: "p",
      text: `${plural(d.items.length, "alert")} at ${locations.length === 1 ? locations[0] : `${plural(locations.length, "location")}`}, by location. Each has its own links.`,
    },
  ];
  let at: number | null = null;
  for (const item of d.items) {
    if (item.location.id !== at) {
      blocks.push({ type: "h2", text: item.location.name });
      at = item.location.id;
    }
    blocks.push({ type: "h3", text: `${ALERT_KIND_TITLES[item.kind]}: ${item.doc.heading}` });
    blocks.push(...item.doc.blocks);
  }
  blocks.push(...more);
  return {
    subject: `${first.subject}, and ${plural(d.items.length - 1, "more alert")}`,
    preview: `${plural(d.items.length, "alert")} at ${locations.join(", ")}`,
    heading: `${plural(d.items.length, "alert")} at your locations`,
    baseUrl: d.baseUrl,
    unsubscribe: unsubscribes,
    blocks,
  };
}

export type RundownLocation = {
  id: number;
  name: string;
  timeZone: string;
  /** The dashboard's chip for the location's thermostats, and whether it needs attention (shared/location-status.ts). */
  thermostats: { label: string; attention: boolean; count: number };
  /** Utility accounts connected at the location: none means no bills and no usage to report. */
  utilityAccounts: number;
  consumptionKwh: number | null;
  /** "5% more than the week before", or null. */
  consumptionChange: string | null;
  peakKw: number | null;
  upcomingEvents: { id: number; startsAt: string; endsAt: string }[];
  newBills: { statementDate: string; totalChargesCents: number }[];
  /** Accounts whose next statement is overdue (rule missing-bill): the app's words, "No statement since …". */
  missingBills?: { accountNumber: string; text: string }[];
  /** Bill findings awaiting the person's answer and what they put at stake (rule rundown-findings); null: none. */
  awaitingAnswer?: { count: number; stakeCents: number } | null;
};

/** "3 bill findings awaiting your answer, $164.82 at stake" (rule rundown-findings), or null when none wait. */
export function awaitingText(l: Pick<RundownLocation, "awaitingAnswer">): string | null {
  const a = l.awaitingAnswer;
  if (!a?.count) return null;
  return `${plural(a.count, "bill finding")} awaiting your answer, ${priceMoney(a.stakeCents)} at stake`;
}

/** A location needs attention for its thermostats (the dashboard's rule) or for findings awaiting an answer. */
export const needsAttention = (l: Pick<RundownLocation, "thermostats" | "awaitingAnswer">) =>
  l.thermostats.attention || awaitingText(l) !== null;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Where a location's utility accounts are connected, and where its thermostats are told about. */
export const CONNECT_ACCOUNTS_PATH = "/authorize-arcadia";
export const SET_UP_PATH = "/onboarding";

/** The usage page of the digest's week: period=week starting on its Monday (the usage page's URL state). */
export const weekUsagePath = (locationId: number, type: "consumption" | "demand", from: string) =>
  `/locations/${locationId}/usage/${type}?${new URLSearchParams({ period: "week", start: from })}`;

/**
 * The Grid Services page showing one location's upcoming events (rule grid-linked-range): searched by the
 * location's name, over the dates from the first event to the last, with the first event's row open.
 */
export function gridEventsPath(l: Pick<RundownLocation, "name" | "timeZone" | "upcomingEvents">) {
  const first = l.upcomingEvents[0];
  const last = l.upcomingEvents[l.upcomingEvents.length - 1];
  // The page filters by the event's start date as the api stores it (UTC): the range covers both that date and
  // the local one, so an evening event west of UTC is inside it.
  const dates = [first, last].flatMap((e) => [localIsoDate(e.startsAt, l.timeZone), e.startsAt.slice(0, 10)]);
  return `/grid-services?${new URLSearchParams({
    q: l.name,
    from: dates.reduce((a, b) => (b < a ? b : a)),
    to: dates.reduce((a, b) => (b > a ? b : a)),
    open: String(first.id),
  })}`;
}

/**
 * Weekly Rundown (rule rundown-attention): opens with how many locations need attention by the dashboard's
 * own rule and words, those locations first; then per location its thermostats as the dashboard says them, last
 * week's consumption against the week before and its peak (each linked to that week on the usage page), the
 * upcoming grid events with their local times, new bills; and what is not connected, with where to connect it.
 */
export function weeklyRundownEmail(
  d: Common & { from: string; to: string; locations: RundownLocation[] },
): EmailDoc {
  const range = formatRange(d.from, dayBefore(d.to));
  const needing = d.locations.filter(needsAttention);
  const ordered = [...needing, ...d.locations.filter((l) => !needsAttention(l))];
  const findings = { href: absolute(d.baseUrl, ALERT_PLACES.bill.path), label: ALERT_PLACES.bill.label };
  const blocks: Block[] = [{ type: "p", text: attentionLine(needing.length, d.locations.length) }];
  if (needing.length)
    blocks.push({
      type: "list",
      items: needing.flatMap((l) => [
        ...(l.thermostats.attention
          ? [
              {
                text: `${l.name}: ${l.thermostats.label}.`,
                link: {
                  href: absolute(d.baseUrl, `/locations/${l.id}/control`),
                  label: `${l.name} thermostats`,
                },
              },
            ]
          : []),
        ...(awaitingText(l) ? [{ text: `${l.name}: ${awaitingText(l)}.`, link: findings }] : []),
      ]),
    });
  blocks.push({ type: "p", text: `Last week (${range}) at your ${plural(d.locations.length, "location")}:` });
  for (const l of ordered) {
    const at = (path: string) => absolute(d.baseUrl, `/locations/${l.id}${path}`);
    const noAccount = l.utilityAccounts === 0 && l.consumptionKwh === null;
    blocks.push({ type: "h2", text: l.name });
    blocks.push({
      type: "list",
      items: [
        l.thermostats.count
          ? {
              text: `Thermostats: ${l.thermostats.label}.`,
              link: { href: at("/control"), label: `${l.name} thermostats` },
            }
          : {
              text: `Thermostats: ${l.thermostats.label}. None is connected here yet.`,
              link: { href: absolute(d.baseUrl, SET_UP_PATH), label: "Tell us about its thermostats" },
            },
        ...(noAccount
          ? [
              {
                text: "No utility account connected: bills, consumption and demand show here once one is.",
                link: {
                  href: absolute(d.baseUrl, CONNECT_ACCOUNTS_PATH),
                  label: "Connect a utility account",
                },
              },
            ]
          : l.consumptionKwh === null && l.peakKw === null
            ? [{ text: "Consumption and demand: no data last week." }]
            : [
                {
                  text:
                    l.consumptionKwh === null
                      ? "Consumption: no data last week."
                      : `Consumption: ${formatNumber(l.consumptionKwh)} kWh${l.consumptionChange ? `, ${l.consumptionChange}` : ""}.`,
                  link: {
                    href: absolute(d.baseUrl, weekUsagePath(l.id, "consumption", d.from)),
                    label: `${l.name} consumption, ${range}`,
                  },
                },
                {
                  text:
                    l.peakKw === null
                      ? "Peak demand: no data last week."
                      : `Peak demand: ${formatNumber(l.peakKw, 1)} kW.`,
                  link: {
                    href: absolute(d.baseUrl, weekUsagePath(l.id, "demand", d.from)),
                    label: `${l.name} demand, ${range}`,
                  },
                },
              ]),
        ...(l.upcomingEvents.length
          ? [
              {
                text: `Upcoming grid ${l.upcomingEvents.length === 1 ? "event" : "events"}: ${l.upcomingEvents.length === 1 ? "" : `${l.upcomingEvents.length}, the first `}${formatLocalSpan(l.upcomingEvents[0].startsAt, l.upcomingEvents[0].endsAt, l.timeZone)}.`,
                link: { href: absolute(d.baseUrl, gridEventsPath(l)), label: `Grid events for ${l.name}` },
              },
            ]
          : []),
        ...(l.newBills.length
          ? [
              {
                text: `New ${l.newBills.length === 1 ? "bill" : "bills"}: ${l.newBills.map((b) => `${formatCalendarDate(b.statementDate)}, ${formatMoney(b.totalChargesCents)}`).join("; ")}.`,
                link: { href: at("/spending"), label: `${l.name} bills` },
              },
            ]
          : []),
        ...(awaitingText(l) ? [{ text: `Bill findings: ${awaitingText(l)}.`, link: findings }] : []),
        ...(l.missingBills ?? []).map((m) => ({
          text: `${MISSING_BILL_LABEL}: ${m.text}, account ${m.accountNumber}.`,
          link: { href: absolute(d.baseUrl, "/findings"), label: `Findings at your locations` },
        })),
      ],
    });
  }
  return {
    subject: needing.length
      ? `Your Weekly Rundown: ${range}, ${needing.length} ${needing.length === 1 ? "location needs" : "locations need"} attention`
      : `Your Weekly Rundown: ${range}`,
    preview: needing.length
      ? `${attentionLine(needing.length, d.locations.length)} ${needing.map((l) => `${l.name}: ${[l.thermostats.attention ? l.thermostats.label : null, awaitingText(l)].filter(Boolean).join(", ")}`).join("; ")}`
      : `Thermostats, consumption, demand, grid events and bills at your locations, ${range}`,
    heading: "Your Weekly Rundown",
    baseUrl: d.baseUrl,
    unsubscribe: unsubscribe("weekly_rundown", d.unsubscribeHref),
    blocks,
  };
}

export type RecapLocation = {
  id: number;
  name: string;
  spendingCents: number | null;
  /** Utility accounts connected at the location (none: no bill can be reported, rule nothing-connected). */
  utilityAccounts: number;
  compliancePct: number | null;
  gridEvents: number;
};

/** Monthly Recap: last month's spending per location, schedule compliance, grid events taken part in. */
/** The web's dismissal link for one issue of one thermostat (its GET only asks; a button dismisses). */
const dismissalPath = (thermostatId: number, issueSlug: string) =>
  `/dismiss-thermostat-issue?${new URLSearchParams({ thermostatId: String(thermostatId), issueSlug })}`;

export function monthlyRecapEmail(
  d: Common & { month: string; clientCompliancePct: number | null; locations: RecapLocation[] },
): EmailDoc {
  const monthName = formatMonthLong(`${d.month.slice(0, 7)}-01`);
  const total = d.locations.reduce((sum, l) => sum + (l.spendingCents ?? 0), 0);
  const anyAccount = d.locations.some((l) => l.utilityAccounts > 0 || l.spendingCents !== null);
  const blocks: Block[] = [
    { type: "p", text: `${monthName} at your ${plural(d.locations.length, "location")}.` },
    {
      type: "facts",
      rows: [
        ["Spending on bills", anyAccount ? formatMoney(total) : "no utility account connected"],
        [
          "Schedule compliance",
          d.clientCompliancePct === null ? "N/A" : `${Math.round(d.clientCompliancePct)}%`,
        ],
        ["Grid events taken part in", String(d.locations.reduce((n, l) => n + l.gridEvents, 0))],
      ],
    },
    ...(anyAccount
      ? []
      : [
          {
            type: "button" as const,
            link: { href: absolute(d.baseUrl, CONNECT_ACCOUNTS_PATH), label: "Connect a utility account" },
          },
        ]),
    {
      type: "button",
      link: {
        href: absolute(d.baseUrl, `/override-report?period=month&start=${d.month}-01`),
        label: `Schedule compliance report for ${monthName}`,
      },
    },
  ];
  for (const l of d.locations) {
    blocks.push({ type: "h2", text: l.name });
    blocks.push({
      type: "list",
      items: [
        l.spendingCents === null && l.utilityAccounts === 0
          ? {
              text: "No utility account connected: its bills show here once one is.",
              link: { href: absolute(d.baseUrl, CONNECT_ACCOUNTS_PATH), label: "Connect a utility account" },
            }
          : {
              text:
                l.spendingCents === null
                  ? "No bill this month."
                  : `Spending: ${formatMoney(l.spendingCents)}.`,
              link: { href: absolute(d.baseUrl, `/locations/${l.id}/spending`), label: `${l.name} bills` },
            },
        {
          text: `Schedule compliance: ${l.compliancePct === null ? "N/A" : `${Math.round(l.compliancePct)}%`}.`,
        },
        {
          text: `Grid events taken part in: ${l.gridEvents}.`,
          ...(l.gridEvents
            ? { link: { href: absolute(d.baseUrl, "/grid-services"), label: `Grid events for ${l.name}` } }
            : {}),
        },
      ],
    });
  }
  return {
    subject: `Your Monthly Recap: ${monthName}`,
    preview: `Spending, schedule compliance and grid events at your locations in ${monthName}`,
    heading: `Your Monthly Recap: ${monthName}`,
    baseUrl: d.baseUrl,
    unsubscribe: unsubscribe("monthly_recap", d.unsubscribeHref),
    blocks,
  };
}

function dayBefore(iso: string) {
  const t = new Date(`${iso}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() - 1);
  return t.toISOString().slice(0, 10);
}

/** One location's event in a grid event notice (rule grid-notice-day). */
export type NoticeEvent = {
  id: number;
  location: { id: number; name: string; timeZone: string };
  precoolStartsAt: string | null;
  startsAt: string;
  endsAt: string;
  thermostats: { name: string; precoolSetpointF: number | null; targetSetpointF: number | null }[];
};

/** What a thermostat will do in the event: pre-cool to its setpoint from the pre-cool start, then hold. */
export function thermostatPlan(e: NoticeEvent, t: NoticeEvent["thermostats"][number]): string {
  const time = (iso: string) => formatLocalDateTime(iso, e.location.timeZone).split(", ").pop()!;
  const hold =
    t.targetSetpointF === null
      ? `hold from ${time(e.startsAt)} to ${time(e.endsAt)}`
      : `hold at ${degrees(t.targetSetpointF)} from ${time(e.startsAt)} to ${time(e.endsAt)}`;
  if (e.precoolStartsAt && t.precoolSetpointF !== null)
    return `${t.name}: pre-cool to ${degrees(t.precoolSetpointF)} from ${time(e.precoolStartsAt)}, then ${hold}.`;
  return `${t.name}: ${hold}.`;
}

/**
 * Grid event notice, the day before (rule grid-notice-day): when, at which locations, what each thermostat will
 * do (pre-cool, hold), and per location an "Opt out of this event" link that opens the event on the Grid
 * Services page, where a button opts out (the link itself changes nothing).
 */
export function gridNoticeEmail(d: Common & { events: NoticeEvent[] }): EmailDoc {
  const names = [...new Set(d.events.map((e) => e.location.name))];
  const where = names.length === 1 ? names[0] : `${names.length} locations`;
  const blocks: Block[] = [
    {
      type: "p",
      text: `A grid event is scheduled tomorrow at ${names.length === 1 ? names[0] : `${names.length} of your locations`}. Your thermostats will pre-cool before it and hold a higher setpoint during it, lowering demand when the grid needs it. To keep a location out, opt out before the event starts.`,
    },
  ];
  for (const e of d.events) {
    blocks.push({ type: "h2", text: e.location.name });
    blocks.push({
      type: "facts",
      rows: [
        ...(e.precoolStartsAt
          ? ([["Pre-cool from", formatLocalDateTime(e.precoolStartsAt, e.location.timeZone)]] as [
              string,
              string,
            ][])
          : []),
        ["Event", formatLocalSpan(e.startsAt, e.endsAt, e.location.timeZone)],
      ],
    });
    blocks.push({
      type: "list",
      items: e.thermostats.length
        ? e.thermostats.map((t) => ({ text: thermostatPlan(e, t) }))
        : [{ text: "No thermostat here takes part." }],
    });
    blocks.push({
      type: "button",
      secondary: true,
      link: {
        href: absolute(
          d.baseUrl,
          gridEventsPath({
            name: e.location.name,
            timeZone: e.location.timeZone,
            upcomingEvents: [{ id: e.id, startsAt: e.startsAt, endsAt: e.endsAt }],
          }),
        ),
        label: "Opt out of this event",
      },
    });
  }
  const first = d.events[0];
  return {
    subject: `Grid event tomorrow at ${where}`,
    preview: `${formatLocalSpan(first.startsAt, first.endsAt, first.location.timeZone)}: your thermostats will pre-cool, then hold. Opt out before it starts.`,
    heading: "Grid event tomorrow",
    baseUrl: d.baseUrl,
    unsubscribe: unsubscribe("grid_event", d.unsubscribeHref),
    blocks,
  };
}

/** One location's event in the results email the day after (rule grid-results-day). */
export type ResultsEvent = {
  id: number;
  location: { id: number; name: string; timeZone: string };
  status: string;
  internalTest: boolean;
  startsAt: string;
  endsAt: string;
  /** The event's figures as the Grid Services page receives them (camelCased performanceJson). */
  performance: DispatchPerformance;
  thermostats: (ThermostatPartInput & { name: string })[];
};

/** The Grid Services page with one event open (its row's anchor): the results email's link to that event. */
export const gridEventPath = (e: Pick<ResultsEvent, "id" | "location" | "startsAt" | "endsAt">) =>
  `${gridEventsPath({
    name: e.location.name,
    timeZone: e.location.timeZone,
    upcomingEvents: [{ id: e.id, startsAt: e.startsAt, endsAt: e.endsAt }],
  })}#event-${e.id}`;

/**
 * A thermostat's line in the results email, in the page's words (rule grid-thermostat-part): "Bar: Took part;
 * highest indoor 76.3°F (at or below the 77°F setpoint)".
 */
export function thermostatResult(e: ResultsEvent, t: ResultsEvent["thermostats"][number]): string {
  const time = (iso: string) => formatLocalDateTime(iso, e.location.timeZone).split(", ").pop()!;
  const { part, highest } = thermostatPart(e.status, t, time);
  return `${t.name}: ${part}; highest indoor ${highest}.`;
}

/**
 * Grid event results, the day after (rule grid-results-day): per location the event's measured figures in the
 * Grid Services page's words (shared/grid-figures.ts: baseline, actual average, kW and kWh reduced, estimated
 * earnings and how they add up, or why there is no figure), each thermostat's part, the program's rates named as
 * estimates, and a link that opens that event, expanded, on the page.
 */
export function gridResultsEmail(d: Common & { events: ResultsEvent[] }): EmailDoc {
  const names = [...new Set(d.events.map((e) => e.location.name))];
  const where = names.length === 1 ? names[0] : `${names.length} locations`;
  const figures = d.events.map((e) => locationFigures(e.status, e.internalTest, e.performance));
  const measured = figures.some((f) => f.measured);
  const total = seasonTotal(
    d.events.map((e) => ({ earnings: e.performance.earnings, kwhReduced: e.performance.kwhReduced })),
  );
  const headline = measured
    ? seasonHeadline(
        { earningsCents: total.totalCents, events: total.events, kwhReduced: total.kwhReduced },
        "yesterday",
      )
    : null;
  const program = programNote(d.events.find((e) => e.performance.program)?.performance.program);
  const blocks: Block[] = [
    {
      type: "p",
      text: `What yesterday's grid event measured at ${names.length === 1 ? names[0] : `${names.length} of your locations`}: the baseline (the usual load of those hours), the actual load, what was reduced and what it earned.`,
    },
  ];
  if (headline) blocks.push({ type: "p", text: `${headline}.` });
  if (program) blocks.push({ type: "p", text: program });
  d.events.forEach((e, i) => {
    const f = figures[i];
    blocks.push({ type: "h2", text: e.location.name });
    blocks.push({
      type: "facts",
      rows: [
        ["Event", formatLocalSpan(e.startsAt, e.endsAt, e.location.timeZone)],
        ...(f.note ? [] : figureRows(f).map((r): [string, string] => [r.label, r.value])),
      ],
    });
    if (f.note) blocks.push({ type: "p", text: f.note });
    if (f.earningsDetail) blocks.push({ type: "p", text: `${f.earningsDetail}.` });
    blocks.push({
      type: "list",
      items: e.thermostats.length
        ? e.thermostats.map((t) => ({ text: thermostatResult(e, t) }))
        : [{ text: "No thermostats took part in this event." }],
    });
    blocks.push({
      type: "button",
      secondary: true,
      link: { href: absolute(d.baseUrl, gridEventPath(e)), label: `See this event at ${e.location.name}` },
    });
  });
  return {
    subject: `Grid event results at ${where}`,
    preview: headline
      ? `${headline}.`
      : `Yesterday's grid event at ${where}: ${figures[0].note ?? "its figures"}`,
    heading: "Yesterday's grid event",
    baseUrl: d.baseUrl,
    unsubscribe: unsubscribe("grid_event", d.unsubscribeHref),
    blocks,
  };
}
