import { ANSWER_LABELS, type FlagAnswerStatus } from "../../../shared/bill-flags";
import { type FlagOutcome, OUTCOME_LABELS } from "../../../shared/flag-outcome";
import { priceMoney } from "../../../shared/flag-price";
import { calendarDate, MISSING_BILL_LABEL } from "../../../shared/missing-bill";
import type { CsvCell } from "../../../shared/csv";
import { localTimeParts } from "~/lib/local-time";
import {
  COLUMNS,
  DEFAULT_PERIOD,
  DEFAULT_SORT,
  FIRST_DIR,
  type LedgerRow,
  type Period,
  PERIOD_KEYS,
  type PeriodKey,
  SORT_KEYS,
  type SortDir,
  type SortKey,
} from "./ledger-view";

/**
 * The findings ledger (/findings and /findings.csv; rules findings-period, findings-totals, findings-sort,
 * docs/rules.md): every bill finding and missing bill of the locations a person may see, for a period, sorted,
 * with totals per location and for the client, and the owner's headline. Pure: the loaders build every string
 * on the server (money goes through Intl there), the page and the CSV show the same rows.
 */

/** One finding as the api answers it (GET /client/{id}/findings, docs/api-contract.md). */
export type Finding = {
  kind: string;
  flagId: number | null;
  status: string;
  foundOn: string;
  building: { id: number; name: string; timezone?: string | null };
  accountId: number;
  accountNumber: string;
  bill: { id: number; statementDate: string } | null;
  atStake: { cents: number | null; text: string } | null;
  answered: { answer: FlagAnswerStatus; by: { name: string }; answeredAt: string } | null;
  outcome: {
    outcome: FlagOutcome;
    creditCents: number | null;
    by: { name: string };
    closedAt: string;
  } | null;
  missing: { lastStatementDate: string; days: number; text: string } | null;
};

/* ---------- the period (rule findings-period) ---------- */

export const RANGE_ERRORS = {
  both: "Enter both dates of the range.",
  invalid: "Enter each date as a real date, e.g. 2026-01-31.",
  order: "The range must start on or before its end.",
} as const;

const pad = (n: number) => String(n).padStart(2, "0");
const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar date written `YYYY-MM-DD` (not 2026-02-30). */
export const isRealDate = (s: string) =>
  ISO_DATE.test(s) && iso(Number(s.slice(0, 4)), Number(s.slice(5, 7)) - 1, Number(s.slice(8, 10))) === s;

/** The first and last day of a named period around `today` (`YYYY-MM-DD`, UTC calendar days). */
export function periodBounds(key: Exclude<PeriodKey, "range">, today: string) {
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7)) - 1;
  if (key === "this-month") return { from: `${y}-${pad(m + 1)}-01`, to: iso(y, m + 1, 0) };
  if (key === "last-month") return { from: iso(y, m - 1, 1), to: iso(y, m, 0) };
  return { from: `${y}-01-01`, to: `${y}-12-31` };
}

const rangeLabel = (from: string, to: string) => `${calendarDate(from)} – ${calendarDate(to)}`;

/**
 * The period of the URL (`period`, and `from`/`to` for a chosen range): this year by default or for an unknown
 * value; a chosen range needs two real dates in order, otherwise this year is shown with the reason, and the
 * typed dates stay in the form.
 */
export function parsePeriod(params: URLSearchParams, today: string): Period {
  const raw = params.get("period");
  const key: PeriodKey = PERIOD_KEYS.includes(raw as PeriodKey) ? (raw as PeriodKey) : DEFAULT_PERIOD;
  const fromInput = (params.get("from") ?? "").trim().slice(0, 40);
  const toInput = (params.get("to") ?? "").trim().slice(0, 40);
  if (key !== "range") {
    const b = periodBounds(key, today);
    return { key, ...b, label: rangeLabel(b.from, b.to), fromInput: b.from, toInput: b.to, error: null };
  }
  const error =
    !fromInput || !toInput
      ? RANGE_ERRORS.both
      : !isRealDate(fromInput) || !isRealDate(toInput)
        ? RANGE_ERRORS.invalid
        : fromInput > toInput
          ? RANGE_ERRORS.order
          : null;
  if (error) {
    const b = periodBounds(DEFAULT_PERIOD, today);
    return { key, ...b, label: rangeLabel(b.from, b.to), fromInput, toInput, error };
  }
  return {
    key,
    from: fromInput,
    to: toInput,
    label: rangeLabel(fromInput, toInput),
    fromInput,
    toInput,
    error,
  };
}

/**
 * The printed sheet's title (rule findings-print): whose findings and which period, as a partner or an accountant
 * reads a sheet handed to them: "Harbor Coffee Co. · Findings, Nov 1 – Nov 30, 2026". A period within one year
 * names the year once. No client name (none on record): "Findings, …".
 */
export function printTitle(clientName: string | null | undefined, period: Pick<Period, "from" | "to">) {
  const sameYear = period.from.slice(0, 4) === period.to.slice(0, 4);
  const from = sameYear ? calendarDate(period.from).replace(/, \d{4}$/, "") : calendarDate(period.from);
  const title = `Findings, ${from} – ${calendarDate(period.to)}`;
  return clientName?.trim() ? `${clientName.trim()} · ${title}` : title;
}

export const inPeriod = (f: Pick<Finding, "foundOn">, p: Pick<Period, "from" | "to">) =>
  f.foundOn >= p.from && f.foundOn <= p.to;

/* ---------- rows ---------- */

export const KIND_LABELS: Record<string, string> = {
  supplier_change: "Supplier change",
  rate_class_change: "Rate class change",
  missing_bill: MISSING_BILL_LABEL,
};

export const STATE_LABELS: Record<string, string> = {
  unacknowledged: "Awaiting your answer",
  action_requested: "Under investigation",
  dismissed: "Confirmed as expected",
  completed: "Closed",
  missing: "Awaiting the statement",
};

/** Open: still waiting on someone (an answer, our investigation, the utility's statement). */
export const isOpen = (f: Pick<Finding, "status">) =>
  f.status === "unacknowledged" || f.status === "action_requested" || f.status === "missing";

/** The amount at stake in cents: a priced finding's; none otherwise (counted as $0.00 in totals). */
export const stakeCents = (f: Pick<Finding, "atStake">) => f.atStake?.cents ?? 0;
/** The amount recovered: a closed investigation's credit. */
export const recoveredCents = (f: Pick<Finding, "outcome">) =>
  f.outcome?.outcome === "credit_received" ? (f.outcome.creditCents ?? 0) : 0;

const NONE = "—";
/** An instant's calendar day in the location's timezone (the day the emails and pages say). */
const dayOf = (instant: string, timezone: string | null | undefined) =>
  localTimeParts(instant, timezone)?.[0] ?? calendarDate(instant.slice(0, 10));

const COUNTED_WITH = "counted with ";

function stakeText(f: Finding) {
  if (!f.atStake) return "Not priced";
  if (f.atStake.cents !== null) return priceMoney(f.atStake.cents);
  if (f.atStake.text.startsWith(COUNTED_WITH))
    return `Counted with the ${f.atStake.text.slice(COUNTED_WITH.length)}`;
  return f.atStake.text.startsWith("nothing") ? "Nothing, the rate did not rise" : "Not priced";
}

/**
 * One bill's dollars once (rule findings-totals): a supplier change and a rate class change on the same bill are
 * both priced from that bill's rise in $/kWh (rule flag-price), the same money. The bill's first priced finding
 * (lowest flag id, whatever the sort) carries the amount; the others say where it is counted and add nothing, so
 * the totals stay the sums of the rows and no dollar is counted twice.
 */
export function stakeOncePerBill(findings: Finding[]): Finding[] {
  const carrier = new Map<number, Finding>();
  for (const f of findings) {
    if (!f.bill || f.flagId === null || f.atStake?.cents == null) continue;
    const c = carrier.get(f.bill.id);
    if (!c || f.flagId < (c.flagId ?? Infinity)) carrier.set(f.bill.id, f);
  }
  return findings.map((f) => {
    const c = f.bill ? carrier.get(f.bill.id) : undefined;
    if (!c || c === f || f.atStake?.cents == null) return f;
    const label = (KIND_LABELS[c.kind] ?? c.kind).toLowerCase();
    return { ...f, atStake: { cents: null, text: `${COUNTED_WITH}${label}` } };
  });
}

export function ledgerRow(f: Finding): LedgerRow {
  const spending = `/locations/${f.building.id}/spending`;
  return {
    key: f.flagId !== null ? `flag-${f.flagId}` : `missing-${f.accountId}`,
    locationId: f.building.id,
    href: f.bill
      ? `${spending}?${new URLSearchParams({ accountId: String(f.accountId), billId: String(f.bill.id) })}#flag-${f.flagId}`
      : `${spending}?${new URLSearchParams({ accountId: String(f.accountId) })}`,
    open: isOpen(f),
    stakeCents: stakeCents(f),
    recoveredCents: recoveredCents(f),
    cells: {
      found: calendarDate(f.foundOn),
      location: f.building.name,
      account: f.accountNumber,
      bill: f.bill ? calendarDate(f.bill.statementDate) : (f.missing?.text ?? NONE),
      kind: KIND_LABELS[f.kind] ?? f.kind,
      stake: stakeText(f),
      state: STATE_LABELS[f.status] ?? f.status,
      answered: f.answered
        ? `${ANSWER_LABELS[f.answered.answer]} · ${f.answered.by.name}, ${dayOf(f.answered.answeredAt, f.building.timezone)}`
        : NONE,
      outcome: f.outcome
        ? `${OUTCOME_LABELS[f.outcome.outcome]} · ${f.outcome.by.name}, ${dayOf(f.outcome.closedAt, f.building.timezone)}`
        : NONE,
      recovered: f.outcome?.outcome === "credit_received" ? priceMoney(recoveredCents(f)) : NONE,
    },
  };
}

/* ---------- sort (rule findings-sort) ---------- */

export function parseSort(params: URLSearchParams): { sort: SortKey; dir: SortDir } {
  const raw = params.get("sort");
  if (!SORT_KEYS.includes(raw as SortKey)) return DEFAULT_SORT;
  const sort = raw as SortKey;
  const dir = params.get("dir");
  return { sort, dir: dir === "asc" || dir === "desc" ? dir : FIRST_DIR[sort] };
}

const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Rows and their findings sorted; ties by found date (newest first), then the row key, so the order is stable. */
export function sortRows<T extends { row: LedgerRow; finding: Finding }>(
  list: T[],
  { sort, dir }: { sort: SortKey; dir: SortDir },
): T[] {
  const sign = dir === "asc" ? 1 : -1;
  const by = (a: T, b: T): number => {
    switch (sort) {
      case "found":
        return text(a.finding.foundOn, b.finding.foundOn);
      case "stake":
        return a.row.stakeCents - b.row.stakeCents;
      case "recovered":
        return a.row.recoveredCents - b.row.recoveredCents;
      default:
        return text(a.row.cells[sort].toLowerCase(), b.row.cells[sort].toLowerCase());
    }
  };
  return [...list].sort(
    (a, b) => sign * by(a, b) || text(b.finding.foundOn, a.finding.foundOn) || text(a.row.key, b.row.key),
  );
}

/* ---------- totals and the headline (rule findings-totals) ---------- */

export type Totals = { count: number; open: number; stakeCents: number; recoveredCents: number };
const add = (t: Totals, r: LedgerRow): Totals => ({
  count: t.count + 1,
  open: t.open + (r.open ? 1 : 0),
  stakeCents: t.stakeCents + r.stakeCents,
  recoveredCents: t.recoveredCents + r.recoveredCents,
});
const ZERO: Totals = { count: 0, open: 0, stakeCents: 0, recoveredCents: 0 };

/** Totals per location (by name) and for the client: the sums of the rows shown, nothing else. */
export function ledgerTotals(rows: { row: LedgerRow }[]) {
  const per = new Map<number, { name: string; totals: Totals }>();
  let client = ZERO;
  for (const { row } of rows) {
    const entry = per.get(row.locationId) ?? { name: row.cells.location, totals: ZERO };
    per.set(row.locationId, { name: entry.name, totals: add(entry.totals, row) });
    client = add(client, row);
  }
  const locations = [...per.entries()]
    .map(([id, e]) => ({ id, name: e.name, ...e.totals }))
    .sort((a, b) => text(a.name.toLowerCase(), b.name.toLowerCase()) || a.id - b.id);
  return { locations, client };
}

/** The locations a ledger covers (the api's `scope`): a person limited to some reads "At your N locations". */
export type LedgerScope = { locations: number; all: boolean } | null;

/** "At your 5 locations" for a person who sees only some of the client's locations; null for all of them. */
export const scopeLabel = (scope: LedgerScope) =>
  scope && !scope.all ? `At your ${scope.locations} location${scope.locations === 1 ? "" : "s"}` : null;

const findingsCount = (n: number, what: string) => `${n} ${what} finding${n === 1 ? "" : "s"}`;

/**
 * The owner's headline: this year's findings whatever the period shown, open and closed money apart:
 * what is at stake on the findings still open, and what was found on the closed ones (confirmed as expected or
 * investigated), of which recovered. "$290.63 at stake on 15 open findings this year; $212.77 found on 9 closed
 * findings, of which $182.50 recovered." A limited person's starts "At your 5 locations: ".
 */
export function headline(findings: Finding[], today: string, scope: LedgerScope = null) {
  const year = periodBounds("this-year", today);
  const rows = stakeOncePerBill(findings)
    .filter((f) => inPeriod(f, year))
    .map((f) => ({ row: ledgerRow(f) }));
  const open = ledgerTotals(rows.filter((r) => r.row.open)).client;
  const closed = ledgerTotals(rows.filter((r) => !r.row.open)).client;
  const text =
    `${priceMoney(open.stakeCents)} at stake on ${findingsCount(open.count, "open")} this year; ` +
    `${priceMoney(closed.stakeCents)} found on ${findingsCount(closed.count, "closed")}, of which ${priceMoney(closed.recoveredCents)} recovered.`;
  const label = scopeLabel(scope);
  return label ? `${label}: ${text}` : text;
}

/* ---------- the CSV: the table as shown ---------- */

export function csvRows(rows: { row: LedgerRow }[]): CsvCell[][] {
  return [COLUMNS.map((c) => c.label), ...rows.map(({ row }) => COLUMNS.map((c) => row.cells[c.key]))];
}

/** The ledger of a period and a sort: its rows, their totals, and the headline (one pure step for page and CSV). */
export function buildLedger(
  findings: Finding[],
  params: URLSearchParams,
  today: string,
  scope: LedgerScope = null,
) {
  const period = parsePeriod(params, today);
  const sort = parseSort(params);
  const shown = sortRows(
    stakeOncePerBill(findings)
      .filter((f) => inPeriod(f, period))
      .map((finding) => ({ finding, row: ledgerRow(finding) })),
    sort,
  );
  const totals = ledgerTotals(shown);
  // Money is written here, on the server: the page builds no Intl formatter while it hydrates.
  const money = (t: Totals) => ({ stake: priceMoney(t.stakeCents), recovered: priceMoney(t.recoveredCents) });
  return {
    period,
    sort,
    rows: shown.map((s) => s.row),
    totals: {
      locations: totals.locations.map((l) => ({ ...l, ...money(l) })),
      client: { ...totals.client, ...money(totals.client) },
    },
    headline: headline(findings, today, scope),
    /** The totals' last row: "All locations", or "Your 5 locations" for a person limited to some. */
    allLabel:
      scope && !scope.all
        ? `Your ${scope.locations} location${scope.locations === 1 ? "" : "s"}`
        : "All locations",
  };
}
