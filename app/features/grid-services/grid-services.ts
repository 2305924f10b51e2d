import { parseId } from "~/lib/ids";
import { isRealDate, periodBounds, RANGE_ERRORS } from "~/features/findings/findings";
import { calendarDate } from "../../../shared/missing-bill";
import type { LocationFiguresView } from "../../../shared/grid-figures";

/** Grid services rules (docs/rules.md, Grid services): status labels, default sort and range, URL state. */

export const GRID_PAGE_SIZE = 15;

export const DISPATCH_STATUS_LABELS: Record<string, string> = {
  OPT_OUT: "Opted out",
  "NO DEVICES": "No available thermostats",
  SUCCESS: "Participated",
  PENDING: "Pending",
};
export const NO_STATUS_LABEL = "No status available";

/** The label of a PENDING dispatch under way (rule dispatch-display-status, docs/rules.md). */
export const IN_PROGRESS_LABEL = "In progress";

/** What decides whether a dispatch is under way: its window, precooling included. */
export type DispatchWindow = {
  precoolStartTime?: string | null;
  startTime?: string | null;
  endTime?: string | null;
};

/**
 * Whether `nowMs` (the web's clock, app/server/clock.server.ts) lies in the dispatch's window: from its
 * precool start (or its start without precooling) up to, not including, its end. The same test the api
 * makes to put a dispatch on a control-room card ("event in progress"), so the two screens agree.
 */
export function isDispatchRunning(d: DispatchWindow, nowMs: number): boolean {
  const from = Date.parse(d.precoolStartTime ?? d.startTime ?? "");
  const to = Date.parse(d.endTime ?? "");
  if (Number.isNaN(from) || Number.isNaN(to)) return false;
  return from <= nowMs && nowMs < to;
}

/**
 * The label a dispatch shows (rule dispatch-display-status): a PENDING dispatch under way is "In progress";
 * otherwise the spec's label for its upstream status (Opted out, No available thermostats, Participated,
 * Pending), "No status available" for any other. `running` comes from the loader (`isDispatchRunning`).
 */
export function dispatchStatusLabel(status: string | null | undefined, running = false) {
  if (status === "PENDING" && running) return IN_PROGRESS_LABEL;
  return status && Object.hasOwn(DISPATCH_STATUS_LABELS, status)
    ? DISPATCH_STATUS_LABELS[status]
    : NO_STATUS_LABEL;
}

/** The pill's tone: green for a participation and for an event under way (the control room's event border). */
export function dispatchStatusTone(
  status: string | null | undefined,
  running = false,
): "success" | "info" | "grey" | "yellow" {
  if (status === "SUCCESS") return "success";
  if (status === "PENDING") return running ? "success" : "info";
  if (status === "OPT_OUT") return "yellow";
  return "grey";
}

export const GRID_ERROR =
  "An Error Occurred. Please try again. If the issue persist, please reach out to your Energy Advisor.";
export const GRID_EMPTY = "No events found";

export const SORT_FIELDS = [
  "building_address",
  "status",
  "precool_start_time",
  "start_time",
  "end_time",
] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export type SortDir = "ASC" | "DESC";
export type SortItem = { field: SortField; dir: SortDir };

/** Default sort: end time descending, then building address descending. */
export const DEFAULT_SORT: SortItem[] = [
  { field: "end_time", dir: "DESC" },
  { field: "building_address", dir: "DESC" },
];

const pad = (n: number) => String(n).padStart(2, "0");

/** From June 1 of the current year for 6 months: June 1 to November 30. */
export function defaultDateRange(today: Date) {
  const y = today.getUTCFullYear();
  const start = new Date(Date.UTC(y, 5, 1));
  const end = new Date(Date.UTC(y, 5 + 6, 0));
  const iso = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return { startDate: iso(start), endDate: iso(end) };
}

export const sortToParam = (s: SortItem) => `${s.field}:${s.dir}`;

function parseSortItem(value: string): SortItem | null {
  const [field, dir] = value.split(":");
  if (!(SORT_FIELDS as readonly string[]).includes(field) || (dir !== "ASC" && dir !== "DESC")) return null;
  return { field: field as SortField, dir };
}

export type DateRange = { startDate: string; endDate: string };

/**
 * The period choices (rule grid-period): those of /findings (this month, last month, this year, a chosen
 * range) and, first and by default, this season (June 1 to November 30, rule grid-default-range).
 */
export const GRID_PERIOD_KEYS = ["season", "this-month", "last-month", "this-year", "range"] as const;
export type GridPeriodKey = (typeof GRID_PERIOD_KEYS)[number];
export type NamedGridPeriod = "this-month" | "last-month" | "this-year";
export const GRID_PERIOD_LABELS: Record<GridPeriodKey, string> = {
  season: "This season",
  "this-month": "This month",
  "last-month": "Last month",
  "this-year": "This year",
  range: "A chosen range",
};
const NAMED_PERIODS: readonly string[] = ["this-month", "last-month", "this-year"];
export const RANGE_TOO_LONG = `The range must be at most ${366} days long.`;

export type GridState = {
  q: string;
  page: number;
  sort: SortItem[];
  open: number[];
  /** A range the URL names (`from`, `to`: a chosen range, or an email's link to its events), instead of the default range. */
  range?: DateRange;
  /** A named period of the URL (`period`), instead of this season. */
  period?: NamedGridPeriod;
  /** A chosen range that was not taken (this season is shown instead): why, and what was typed. */
  rangeError?: { message: string; from: string; to: string };
};

/** The key of the period a state shows. */
export const periodKeyOf = (state: GridState): GridPeriodKey =>
  state.range ? "range" : state.rangeError ? "range" : (state.period ?? "season");

/** The dates a state covers: its range, its named period around `today` (UTC), or this season. */
export function stateRange(state: GridState, today: Date): DateRange {
  if (state.range) return state.range;
  if (state.period) {
    const b = periodBounds(state.period, today.toISOString().slice(0, 10));
    return { startDate: b.from, endDate: b.to };
  }
  return defaultDateRange(today);
}

/** The period in the head's words: "this season", "this month", … or "from Jun 1, 2026 to Jul 1, 2026". */
export function periodWords(state: GridState, range: DateRange) {
  const key = periodKeyOf(state);
  if (key === "range" && state.range)
    return `from ${calendarDate(range.startDate)} to ${calendarDate(range.endDate)}`;
  if (key === "this-month") return "this month";
  if (key === "last-month") return "last month";
  if (key === "this-year") return "this year";
  return "this season";
}

/** The longest range a URL may name, in days (the default range is six months). */
export const MAX_RANGE_DAYS = 366;
const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The URL's `from` and `to` (rule grid-linked-range): both real dates, `from` not after `to`, at most a year
 * apart; anything else is no range (the page shows its default one).
 */
export function parseGridRange(params: URLSearchParams): DateRange | undefined {
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  if (!isoDate.test(from) || !isoDate.test(to)) return undefined;
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  if (!Number.isFinite(a) || !Number.isFinite(b) || new Date(a).toISOString().slice(0, 10) !== from)
    return undefined;
  if (new Date(b).toISOString().slice(0, 10) !== to || b < a || b - a > MAX_RANGE_DAYS * 86_400_000)
    return undefined;
  return { startDate: from, endDate: to };
}

/** The page's state from its URL; anything malformed falls back to the defaults. */
export function parseGridState(params: URLSearchParams): GridState {
  const q = (params.get("q") ?? "").trim().slice(0, 100);
  const page = parseId(params.get("page")) ?? 1;
  const parsed = params.getAll("sort").map(parseSortItem);
  const sort = parsed.length > 0 && parsed.every(Boolean) ? (parsed as SortItem[]).slice(0, 3) : DEFAULT_SORT;
  const open = params
    .getAll("open")
    .map(parseId)
    .filter((n) => n !== null);
  // A named period wins over the dates the form sends with it; without `period`, `from` and `to` are a range
  // (the links of emails, rule grid-linked-range).
  const period = params.get("period") ?? "";
  if (NAMED_PERIODS.includes(period)) return { q, page, sort, open, period: period as NamedGridPeriod };
  if (period === "season") return { q, page, sort, open };
  const range = parseGridRange(params);
  if (range) return { q, page, sort, open, range };
  if (period === "range") {
    const from = (params.get("from") ?? "").trim().slice(0, 40);
    const to = (params.get("to") ?? "").trim().slice(0, 40);
    const message =
      !from || !to
        ? RANGE_ERRORS.both
        : !isRealDate(from) || !isRealDate(to)
          ? RANGE_ERRORS.invalid
          : from > to
            ? RANGE_ERRORS.order
            : RANGE_TOO_LONG;
    return { q, page, sort, open, rangeError: { message, from, to } };
  }
  return { q, page, sort, open };
}

/** The URL query for a state; defaults are left out so the plain /grid-services is the default view. */
export function gridSearch(state: GridState) {
  const p = new URLSearchParams();
  if (state.q) p.set("q", state.q);
  if (state.range) {
    p.set("from", state.range.startDate);
    p.set("to", state.range.endDate);
  } else if (state.period) p.set("period", state.period);
  const isDefaultSort = state.sort.map(sortToParam).join(",") === DEFAULT_SORT.map(sortToParam).join(",");
  if (!isDefaultSort) for (const s of state.sort) p.append("sort", sortToParam(s));
  if (state.page > 1) p.set("page", String(state.page));
  for (const id of state.open) p.append("open", String(id));
  const s = p.toString();
  return s ? `?${s}` : "";
}

/**
 * The page's address for a state, for links (a `<Link to>` or a bare `<a href>`): the path always written, as a
 * bare query of the default view would be `href=""`, a link to the page the user is on (clicking "End" on an
 * ascending End column did nothing).
 */
export const gridHref = (state: GridState) => `/grid-services${gridSearch(state)}`;

/**
 * Clicking a column: the same primary column flips its direction; another column becomes the primary sort
 * (ascending for text, descending for times) with building address descending as the tie-breaker.
 * Sorting goes back to the first page.
 */
export function toggleSort(state: GridState, field: SortField): GridState {
  const primary = state.sort[0];
  let first: SortItem;
  if (primary?.field === field) first = { field, dir: primary.dir === "ASC" ? "DESC" : "ASC" };
  else first = { field, dir: field.endsWith("_time") ? "DESC" : "ASC" };
  const sort =
    field === "building_address" ? [first] : [first, { field: "building_address", dir: "DESC" } as SortItem];
  return { ...state, sort, page: 1, open: [] };
}

export function toggleOpen(state: GridState, id: number): GridState {
  const open = state.open.includes(id) ? state.open.filter((o) => o !== id) : [...state.open, id];
  return { ...state, open };
}

export function ariaSort(state: GridState, field: SortField): "ascending" | "descending" | "none" {
  const primary = state.sort[0];
  if (primary?.field !== field) return "none";
  return primary.dir === "ASC" ? "ascending" : "descending";
}

export const pageCount = (total: number, size = GRID_PAGE_SIZE) => Math.max(1, Math.ceil(total / size));

export const EVENT_TYPE_LABELS: Record<string, string> = {
  demand_response: "Demand response",
  peak_shaving: "Peak shaving",
  capacity_event: "Capacity event",
};
export const eventTypeLabel = (t: string) =>
  Object.hasOwn(EVENT_TYPE_LABELS, t) ? EVENT_TYPE_LABELS[t] : t.replace(/_/g, " ");

/** An event time as the table shows it, written by the server (app/lib/local-time.ts): the instant and its two halves. */
export type EventTimeView = { iso: string; day: string; time: string };

/** A thermostat's part in an event, as the details of an expanded row list it. */
export type ThermostatInsightView = {
  thermostatId: number;
  deviceName: string;
  precoolSetpoint?: number | null;
  targetSetpoint?: number | null;
  preEventObserved?: number | null;
  participatingMinutes?: number | null;
  wasOverridden?: boolean | null;
  /** Took part / Opted out / Overrode at … to …°F (rule grid-thermostat-part). */
  part: string;
  /** The highest indoor temperature during the event against its setpoint. */
  highest: string;
};

/**
 * A row of the table, as the loader sends it: only what the page writes, the labels and times already in
 * words. `thermostats` comes only with an expanded row (`open` in the URL): a closed row's details are neither
 * rendered nor sent, and expanding one is a navigation that fetches them (with or without JavaScript).
 */
export type DispatchRow = {
  id: number;
  address: string;
  internalTest: boolean;
  overridden: boolean;
  eventType: string;
  status: string;
  tone: ReturnType<typeof dispatchStatusTone>;
  precool: EventTimeView | null;
  start: EventTimeView | null;
  end: EventTimeView | null;
  thermostats?: ThermostatInsightView[];
  /** What the event measured and earned at its location, in words (with the expanded row only). */
  figures?: LocationFiguresView;
  /** The location whose opt-out the expanded row offers (rule grid-opt-out), while the event allows it. */
  optOut?: { buildingId: number };
};

/** The opt-out's words on the Grid Services page (rule grid-opt-out). */
export const OPT_OUT_TEXT = {
  button: "Opt out of this event",
  explanation:
    "Opting out keeps this location's thermostats out of this event: they will not pre-cool or hold. You can opt out until the event starts.",
  done: "This location is opted out of the event: its thermostats stay out.",
  failed: "The opt-out could not be saved. Please try again.",
} as const;

/**
 * Whether the page offers to opt a location out of an event (rule grid-opt-out): a pending event that has not
 * started by the web's clock (the api refuses from its start time on).
 */
export function canOptOut(
  d: { status?: string | null; startTime?: string | null; buildingId?: number | null },
  nowMs: number,
): boolean {
  const start = Date.parse(d.startTime ?? "");
  return d.status === "PENDING" && typeof d.buildingId === "number" && !Number.isNaN(start) && nowMs < start;
}

/** An event time in full, as an expanded row's details write it: "Nov 3, 2026, 2:00 PM PST", or "—". */
export const fullEventTime = (t: EventTimeView | null) => (t ? `${t.day}, ${t.time}` : "—");

/** The Grid Services CSV's header row: what the table shows, each time with its zone, and the thermostats. */
export const DISPATCH_CSV_HEADER = [
  "Location",
  "Event type",
  "Status",
  "Precool start",
  "Start",
  "End",
  "Overridden thermostats",
  "Internal test",
  "Baseline kW",
  "Actual kW",
  "kW reduced",
  "kWh reduced",
  "Estimated earnings",
  "Note",
] as const;

/** The figure columns of a CSV row: numbers without units (a spreadsheet sums them), a note when none. */
function figureCells(f: LocationFiguresView | undefined): string[] {
  if (!f) return ["", "", "", "", "", ""];
  const bare = (s: string) =>
    s === "—"
      ? ""
      : s
          .replace(/ kWh?$/, "")
          .replace(/^\$/, "")
          .replace(/,/g, "");
  return [
    bare(f.baseline),
    bare(f.actual),
    bare(f.kwReduced),
    bare(f.kwhReduced),
    bare(f.earnings),
    f.note ?? "",
  ];
}

/**
 * The Grid Services table as CSV rows, header first: every event of the search and sort (not one page), in
 * the table's words, with times in the building's zone as the page writes them ("Nov 3, 2026, 2:00 PM PST").
 */
export function dispatchCsvRows(rows: DispatchRow[]): string[][] {
  return [
    [...DISPATCH_CSV_HEADER],
    ...rows.map((r) => [
      r.address,
      r.eventType,
      r.status,
      r.precool ? fullEventTime(r.precool) : "",
      r.start ? fullEventTime(r.start) : "",
      r.end ? fullEventTime(r.end) : "",
      r.overridden ? "Yes" : "No",
      r.internalTest ? "Yes" : "No",
      ...figureCells(r.figures),
    ]),
  ];
}

/** Events a CSV asks the upstream for at a time (its largest page), and at most how many such pages. */
export const CSV_PAGE_SIZE = 100;
export const CSV_MAX_PAGES = 50;
