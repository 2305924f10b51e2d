import { pageOf } from "~/lib/paging";
import type { Building } from "./locations.server";
import { parseId } from "~/lib/ids";
import { formatCalendarDate } from "~/lib/dates";
import { formatMoney } from "~/features/bills/bills";
import type { Chip } from "../../../shared/location-status";
// The age the dashboard warns on is the missing-bill rule's (rule old-bill-45-days): one rule, in shared/.
import { isBillOld } from "../../../shared/missing-bill";
import { locationName } from "../../../shared/location-name";

/** "1912 Pike Pl, Seattle, WA 98101" */
export function formatAddress(a: Building["address"]) {
  return [a.addressLine1, a.addressLine2, `${a.city}, ${a.state} ${a.zipcode}`].filter(Boolean).join(", ");
}

/** The street number of an address line ("1912 Pike Pl" → 1912); none sorts last. */
export function streetNumber(line: string) {
  const m = /^\s*(\d+)/.exec(line);
  return m ? Number(m[1]) : Number.POSITIVE_INFINITY;
}

/** The number of a location code, its last run of digits ("HCC-007" → 7); none sorts last. */
export function codeNumber(code: string | null | undefined) {
  // Scanned from the end: a pattern for "the last digits" retries from every digit (quadratic on long codes).
  const s = code ?? "";
  const isDigit = (i: number) => s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;
  let end = s.length;
  while (end > 0 && !isDigit(end - 1)) end--;
  let start = end;
  while (start > 0 && isDigit(start - 1)) start--;
  return start < end ? Number(s.slice(start, end)) : Number.POSITIVE_INFINITY;
}

/** The label a user sees for a location: staff see its code; everyone else its name (rule location-name). */
export function locationLabel(b: Building, isStaff: boolean) {
  return isStaff && b.code ? b.code : locationName(b);
}

/** Numeric-aware, case-blind text order ("7 A St" < "88 A St" < "301 A St" < "1100 A St"). Server-side only. */
let collator: Intl.Collator | undefined;
const naturalCompare = (a: string, b: string) =>
  (collator ??= new Intl.Collator("en", { numeric: true, sensitivity: "base" })).compare(a, b);

/**
 * The selector's and the Location column's order as a comparator (rule location-selector-order): staff by
 * code number; everyone else by street address as people read it: the street number, then the rest of the
 * line in a numeric-aware order, then the name. Each location's number and line are read once per
 * comparator, not once per comparison (a 300-location sort compares ~2,500 pairs): make one comparator per sort.
 */
export function locationComparator(isStaff: boolean) {
  const keys = new Map<Building, { n: number; line: string }>();
  const keyOf = (b: Building) => {
    let k = keys.get(b);
    if (k === undefined) {
      const line = isStaff ? "" : b.address.addressLine1;
      k = { n: isStaff ? codeNumber(b.code) : streetNumber(line), line };
      keys.set(b, k);
    }
    return k;
  };
  return (a: Building, b: Building) => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    return (
      ka.n - kb.n ||
      (isStaff
        ? String(a.code).localeCompare(String(b.code))
        : naturalCompare(ka.line, kb.line) || naturalCompare(a.name, b.name))
    );
  };
}

/**
 * The selector's order (rule location-selector-order, docs/rules.md): staff see codes sorted by code number;
 * everyone else sees names sorted by street address (number, then street), then name.
 */
export function sortLocations(list: Building[], isStaff: boolean): Building[] {
  return [...list].sort(locationComparator(isStaff));
}

/** Up to this many locations, the selector lists every one (rule location-selector-light). */
export const SELECTOR_FULL_LIST_MAX = 15;

/**
 * The selector's entries (rule location-selector-light): every location of a client with up to 15; for more,
 * only the current one (if any), and the selector offers a search of all of them on the locations page.
 * `locationCount` is how many there are in all.
 */
export function selectorLocations<T extends { id: number }>(list: T[], currentId: number | null) {
  return {
    locations: list.length <= SELECTOR_FULL_LIST_MAX ? list : list.filter((l) => l.id === currentId),
    locationCount: list.length,
  };
}

/* ---------- Last Bill ---------- */

export const OLD_BILL_MESSAGE = "This bill is more than 45 days old.";

/** The Last Bill cell: the bill's date, its total when the data has one, and whether it is old. */
export type LastBillView = { date: string; amount?: string; old?: true };

/** The Last Bill cell; `today` is the location's date (`YYYY-MM-DD`, its time zone's: rule location-today). */
export function lastBillView(
  date: string | null | undefined,
  totalCents: number | null | undefined,
  today: string,
): LastBillView | null {
  if (!date) return null;
  const view: LastBillView = { date: formatCalendarDate(date) };
  if (typeof totalCents === "number" && Number.isFinite(totalCents)) view.amount = formatMoney(totalCents);
  if (isBillOld(date, today)) view.old = true;
  return view;
}

/* ---------- the table: search and sort (state in the URL) ---------- */

export type SortKey = "location" | "thermostats" | "lastBill";
export type SortDir = "asc" | "desc";
export const SORT_KEYS: SortKey[] = ["location", "thermostats", "lastBill"];

/** The dashboard table's page size: the spec's location list page size (part 1, section 9). */
export const LOCATIONS_PAGE_SIZE = 75;

export function parseTableState(params: URLSearchParams) {
  const page = Number(params.get("page"));
  const sort = SORT_KEYS.includes(params.get("sort") as SortKey)
    ? (params.get("sort") as SortKey)
    : "location";
  const dir: SortDir = params.get("dir") === "desc" ? "desc" : "asc";
  const q = (params.get("q") ?? "").trim().slice(0, 100);
  return {
    sort,
    dir,
    q,
    // 1-based; anything else (missing, 0, negative, not a whole number) is the first page.
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
    expanded: parseId(params.get("expanded")),
  };
}

/**
 * What the table's order is, said in words above it (rule locations-table-order): the Location column sorts
 * by street address (by code number for staff), which the arrow on "Location" alone does not tell.
 */
export function sortCaption(state: { sort: SortKey; dir: SortDir }, isStaff: boolean): string {
  const up = state.dir === "asc";
  if (state.sort === "thermostats")
    return `Sorted by thermostat status, ${up ? "most urgent" : "least urgent"} first`;
  if (state.sort === "lastBill")
    return `Sorted by last bill date, ${up ? "oldest" : "newest"} first; locations without bills last`;
  return isStaff
    ? `Sorted by location code, ${up ? "lowest" : "highest"} number first`
    : `Sorted by street address, ${up ? "lowest" : "highest"} number first`;
}

/**
 * The table's sort is remembered in a cookie (rule locations-sort-remembered): the nav, the selector's "See
 * all locations", a location page's links and the browser's address bar all lead to a bare /locations, and a
 * user who sorted by Last Bill expects to find it so when coming back, with or without JavaScript. A sort the
 * URL names wins and is remembered; a URL without one takes the remembered one.
 */
export const SORT_COOKIE = "locations_sort";

/** The cookie's value for a sort: "lastBill.desc". */
export const sortCookieValue = (state: { sort: SortKey; dir: SortDir }) => `${state.sort}.${state.dir}`;

/** The URL's query with the remembered sort filled in when the URL names none; anything unknown is ignored. */
export function withRememberedSort(params: URLSearchParams, remembered: string | null | undefined) {
  if (params.has("sort") || params.has("dir") || !remembered) return params;
  const [sort, dir] = remembered.split(".");
  if (!SORT_KEYS.includes(sort as SortKey) || (dir !== "asc" && dir !== "desc")) return params;
  const out = new URLSearchParams(params);
  out.set("sort", sort);
  out.set("dir", dir);
  return out;
}

export type TableRow = { building: Building; chip: Chip; lastBillDate: string | null };

/** Matches the search text against what the user sees of a location (name, nickname, code for staff, address). */
export function matchesSearch(b: Building, q: string, isStaff: boolean) {
  if (!q) return true;
  const hay = [b.name, b.nickname, isStaff ? b.code : null, formatAddress(b.address)]
    .filter(Boolean)
    .join(" ")
    .toLowerCase();
  return q
    .toLowerCase()
    .split(/\s+/)
    .every((word) => hay.includes(word));
}

/** Filters and sorts the table rows. Location sorts like the selector; Thermostats by chip; Last Bill by date (none last). */
export function tableRows<T extends TableRow>(
  rows: T[],
  state: { sort: SortKey; dir: SortDir; q: string },
  isStaff: boolean,
): T[] {
  const sign = state.dir === "desc" ? -1 : 1;
  const compareLocations = locationComparator(isStaff);
  const byLocation = (a: T, b: T) => compareLocations(a.building, b.building);
  const compare = (a: T, b: T): number => {
    if (state.sort === "thermostats")
      return (
        sign *
          (a.chip.rank - b.chip.rank || a.chip.label.localeCompare(b.chip.label, "en", { numeric: true })) ||
        byLocation(a, b)
      );
    if (state.sort === "lastBill") {
      if (!a.lastBillDate || !b.lastBillDate)
        return (a.lastBillDate ? -1 : b.lastBillDate ? 1 : 0) || byLocation(a, b);
      return sign * a.lastBillDate.localeCompare(b.lastBillDate) || byLocation(a, b);
    }
    return sign * byLocation(a, b);
  };
  return rows.filter((r) => matchesSearch(r.building, state.q, isStaff)).sort(compare);
}

/** The page of the table to show (75 rows a page, rule locations-table-paged). */
export const locationsPageOf = <T>(rows: T[], page: number) => pageOf(rows, page, LOCATIONS_PAGE_SIZE);

/* ---------- the shell's navigation by context (rule shell-nav-by-context, docs/rules.md) ---------- */

export type NavLinkItem = { label: string; to: string; download?: boolean };

export function shellNav(opts: {
  locationId: number | null;
  usageAvailable: boolean;
  clientId: number | null;
}): NavLinkItem[] {
  const items: NavLinkItem[] = opts.locationId
    ? [
        { label: "Thermostats", to: `/locations/${opts.locationId}/control` },
        { label: "Bill History", to: `/locations/${opts.locationId}/spending` },
        ...(opts.usageAvailable
          ? [{ label: "Usage Details", to: `/locations/${opts.locationId}/usage/demand` }]
          : []),
      ]
    : [
        { label: "Connect Utility Accounts", to: "/accounts" },
        { label: "Grid Services", to: "/grid-services" },
      ];
  if (opts.clientId) {
    // The findings ledger, for every client user (its data is limited to the locations each may see).
    items.push({ label: "Findings", to: "/findings" });
    items.push({
      label: "Download Bill Statements Summary",
      to: `/api/client/${opts.clientId}/bill-statements/export-csv`,
      download: true,
    });
  }
  return items;
}

/** 'Set up your account' shows while any onboarding step is not complete. */
export const onboardingIncomplete = (steps: { status: string }[]) =>
  steps.some((s) => s.status !== "complete");
