// The flag's heading and question are the spec's words, shared with the web's spending page.
import { flagCopy, flagHeading } from "../../shared/bill-flags";
import { flagPrice, priceLine } from "../../shared/flag-price";
import { type FlagOutcome, OUTCOME_LABELS, outcomeWords } from "../../shared/flag-outcome";
import { issueLabel } from "../../shared/status-labels";
import {
  formatCalendarDate,
  formatMoney,
  formatMonthLong,
  formatNumber,
  formatRange,
  formatRate,
} from "./format";
import { KIND_NAMES, type NotificationKind } from "../domain/notifications";
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
  const heading = flagHeading(d.flag);
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
      {
        type: "p",
        text: priceLine(
          flagPrice({ rateCents: d.bill.rateCents, kwh: d.bill.consumptionKwh }, d.previousBill),
        ),
      },
      { type: "p", text: flagCopy(flag, d.bill.supplier) },
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
            // and billId, server-rendered; the fragment is the flag's anchor).
            text: "This bill and the other bills of this account:",
            link: {
              href: absolute(
                d.baseUrl,
                `/locations/${d.location.id}/spending?${new URLSearchParams({ accountId: String(d.account.id), billId: String(d.billId) })}#flag-${d.flag.id}`,
              ),
              label: `${d.location.name} bills, ${account}`,
            },
          },
        ],
      },
    ],
  };
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
  const words = outcomeWords({ outcome: d.outcome.outcome, creditCents: d.outcome.creditCents });
  const lead: Record<FlagOutcome, string> = {
    credit_received: `We investigated the ${what} on your bill and the utility credited your account.`,
    billing_correct: `We investigated the ${what} on your bill: the billing was correct.`,
    closed_by_client: `The investigation of the ${what} on your bill was closed at your request.`,
  };
  return {
    subject: `Investigation closed: ${words} at ${d.location.name}`,
    preview: `${words}: the ${what} on the bill of ${formatCalendarDate(d.bill.statementDate)} at ${d.location.name} (${account})`,
    heading: `Investigation closed: ${OUTCOME_LABELS[d.outcome.outcome]}`,
    baseUrl: d.baseUrl,
    unsubscribe: unsubscribe("bill_flag", d.unsubscribeHref),
    blocks: [
      { type: "p", text: lead[d.outcome.outcome] },
      {
        type: "facts",
        rows: [
          ["Outcome", words],
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
                `/locations/${d.location.id}/spending?${new URLSearchParams({ accountId: String(d.account.id), billId: String(d.bill.id) })}#flag-${d.flag.id}`,
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
  location: { id: number; name: string };
  thermostat: { id: number; name: string };
  issueSlug: string;
  foundAt: string;
};

/** A thermostat issue alert: the issue in the catalogue's words, the control room, and the dismissal link. */
export function issueAlertEmail(d: IssueAlertData): EmailDoc {
  const label = issueLabel(d.issueSlug);
  const comfort = d.kind === "customer_comfort";
  return {
    subject: `${comfort ? "Comfort alert" : "Thermostat issue"}: ${label} at ${d.location.name}`,
    preview: `${d.thermostat.name} at ${d.location.name}: ${label}`,
    heading: `${label}: ${d.thermostat.name}`,
    baseUrl: d.baseUrl,
    unsubscribe: unsubscribe(d.kind, d.unsubscribeHref),
    blocks: [
      {
        type: "p",
        text: comfort
          ? `The thermostat ${d.thermostat.name} at ${d.location.name} may be keeping the space too warm or too cold.`
          : `We found an issue with the thermostat ${d.thermostat.name} at ${d.location.name}.`,
      },
      {
        type: "facts",
        rows: [
          ["Location", d.location.name],
          ["Thermostat", d.thermostat.name],
          ["Issue", label],
          ["Found", formatCalendarDate(d.foundAt.slice(0, 10))],
        ],
      },
      {
        type: "button",
        link: {
          href: absolute(d.baseUrl, `/locations/${d.location.id}/control`),
          label: `Open the ${d.location.name} control room`,
        },
      },
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
    ],
  };
}

export type RundownLocation = {
  id: number;
  name: string;
  openIssues: number;
  consumptionKwh: number | null;
  /** "5% more than the week before", or null. */
  consumptionChange: string | null;
  peakKw: number | null;
  upcomingEvents: { startsAt: string }[];
  newBills: { statementDate: string; totalChargesCents: number }[];
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Weekly Rundown: per location, issues, last week's consumption against the week before, peak, events, bills. */
export function weeklyRundownEmail(
  d: Common & { from: string; to: string; locations: RundownLocation[] },
): EmailDoc {
  const range = formatRange(d.from, dayBefore(d.to));
  const blocks: Block[] = [
    { type: "p", text: `Last week (${range}) at your ${plural(d.locations.length, "location")}.` },
  ];
  for (const l of d.locations) {
    const at = (path: string) => absolute(d.baseUrl, `/locations/${l.id}${path}`);
    blocks.push({ type: "h2", text: l.name });
    blocks.push({
      type: "list",
      items: [
        {
          text: l.openIssues ? `Open thermostat issues: ${l.openIssues}.` : "No open thermostat issues.",
          link: { href: at("/control"), label: `${l.name} thermostats` },
        },
        {
          text:
            l.consumptionKwh === null
              ? "Consumption: no data last week."
              : `Consumption: ${formatNumber(l.consumptionKwh)} kWh${l.consumptionChange ? `, ${l.consumptionChange}` : ""}.`,
          link: { href: at("/usage/consumption"), label: `${l.name} consumption` },
        },
        {
          text:
            l.peakKw === null
              ? "Peak demand: no data last week."
              : `Peak demand: ${formatNumber(l.peakKw, 1)} kW.`,
          link: { href: at("/usage/demand"), label: `${l.name} demand` },
        },
        ...(l.upcomingEvents.length
          ? [
              {
                text: `Upcoming grid events: ${l.upcomingEvents.length}, the first on ${formatCalendarDate(l.upcomingEvents[0].startsAt.slice(0, 10))}.`,
                link: { href: absolute(d.baseUrl, "/grid-services"), label: `Grid events for ${l.name}` },
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
      ],
    });
  }
  return {
    subject: `Your Weekly Rundown: ${range}`,
    preview: `Thermostats, consumption, demand, grid events and bills at your locations, ${range}`,
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
  const blocks: Block[] = [
    { type: "p", text: `${monthName} at your ${plural(d.locations.length, "location")}.` },
    {
      type: "facts",
      rows: [
        ["Spending on bills", formatMoney(total)],
        [
          "Schedule compliance",
          d.clientCompliancePct === null ? "N/A" : `${Math.round(d.clientCompliancePct)}%`,
        ],
        ["Grid events taken part in", String(d.locations.reduce((n, l) => n + l.gridEvents, 0))],
      ],
    },
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
        {
          text:
            l.spendingCents === null ? "No bill this month." : `Spending: ${formatMoney(l.spendingCents)}.`,
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
