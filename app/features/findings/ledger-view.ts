/**
 * What the findings page (/findings) draws and links, safe in the browser: the columns, the period choices and
 * the sort links. The rules that fill them (period, totals, sort, rows) are in findings.ts, which runs on the
 * server only: the page's rows arrive as words (rules findings-period, findings-sort, docs/rules.md).
 */
export const FINDINGS_ERROR = "Unable to fetch findings.";
export const FINDINGS_EMPTY = "No findings in this period.";

export const PERIOD_KEYS = ["this-month", "last-month", "this-year", "range"] as const;
export type PeriodKey = (typeof PERIOD_KEYS)[number];
export const PERIOD_LABELS: Record<PeriodKey, string> = {
  "this-month": "This month",
  "last-month": "Last month",
  "this-year": "This year",
  range: "A chosen range",
};
export const DEFAULT_PERIOD = "this-year" satisfies PeriodKey;

export type Period = {
  key: PeriodKey;
  /** The first and last day of the period (`YYYY-MM-DD`, both included). */
  from: string;
  to: string;
  /** "Jan 1, 2026 – Dec 31, 2026" */
  label: string;
  /** What the form's date fields show: the typed values of a range, kept even when they are wrong. */
  fromInput: string;
  toInput: string;
  /** Why a chosen range was not taken (this year is shown instead), or null. */
  error: string | null;
};

export const COLUMNS = [
  { key: "found", label: "Found" },
  { key: "location", label: "Location" },
  { key: "account", label: "Account #" },
  { key: "bill", label: "Bill" },
  { key: "kind", label: "Kind" },
  { key: "stake", label: "At stake" },
  { key: "state", label: "State" },
  { key: "answered", label: "Answered" },
  { key: "outcome", label: "Outcome" },
  { key: "recovered", label: "Recovered" },
] as const;
export type ColumnKey = (typeof COLUMNS)[number]["key"];

export type LedgerRow = {
  key: string;
  locationId: number;
  /** The bill on the spending page, its flag marked (rule bill-alert-account); the account's bills for a missing one. */
  href: string;
  open: boolean;
  stakeCents: number;
  recoveredCents: number;
  cells: Record<ColumnKey, string>;
};

export const SORT_KEYS = ["found", "location", "account", "kind", "stake", "state", "recovered"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDir = "asc" | "desc";
export const DEFAULT_SORT: { sort: SortKey; dir: SortDir } = { sort: "found", dir: "desc" };
/** A column's first direction: the newest and the largest amounts first, names from A. */
export const FIRST_DIR: Record<SortKey, SortDir> = {
  found: "desc",
  location: "asc",
  account: "asc",
  kind: "asc",
  stake: "desc",
  state: "asc",
  recovered: "desc",
};

/** The sort a column's header link asks for: the other direction when it is the sort, its first otherwise. */
export const nextSort = (current: { sort: SortKey; dir: SortDir }, column: SortKey) => ({
  sort: column,
  dir: current.sort === column ? (current.dir === "asc" ? "desc" : "asc") : FIRST_DIR[column],
});

/** The page's query with some parameters replaced (null removes one): period, range and sort travel together. */
export function findingsQuery(params: URLSearchParams, changes: Record<string, string | null>) {
  const next = new URLSearchParams();
  for (const k of ["period", "from", "to", "sort", "dir"]) {
    const v = k in changes ? changes[k] : params.get(k);
    if (v) next.set(k, v);
  }
  const s = next.toString();
  return s ? `?${s}` : "";
}
