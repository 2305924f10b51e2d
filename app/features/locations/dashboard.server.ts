import { accountStatusView as connectionStatus } from "~/features/accounts/account-status";
import {
  formatAddress,
  lastBillView,
  type LastBillView,
  locationLabel,
  locationsPageOf,
  tableRows,
  parseTableState,
  SORT_COOKIE,
  sortCaption,
  sortCookieValue,
  withRememberedSort,
} from "./locations";
import { zonedDate } from "~/lib/zoned";
import { formatCalendarDate } from "~/lib/dates";
import { missingBill } from "../../../shared/missing-bill";
import {
  hasThermostatIssues,
  NO_DEVICES_SUMMARY,
  thermostatChip,
  type Chip,
} from "../../../shared/location-status";
import {
  type Building,
  type EnergyAdvisorBuilding,
  getEnergyAdvisorBuildings,
  getVendorAlert,
  listAllBuildings,
} from "./locations.server";
import { parse as parseCookie, serialize as serializeCookie } from "cookie";
import { commitSession, getSession, secureSessionCookie } from "~/server/upstream/session.server";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { getConfig, supportEmail } from "~/server/config.server";
import { invalidSubmission, parseForm } from "~/server/forms.server";
import { now } from "~/server/clock.server";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireSmb } from "~/server/upstream/guards.server";
import { z } from "zod";
import { settle } from "~/server/upstream/api-error";
import { safeRedirect } from "~/server/safe-redirect";

/** The locations dashboard's view model: what the page shows, computed from the upstream answers. */

export type TableState = ReturnType<typeof parseTableState>;

/**
 * The table's state from the URL, its sort filled in from the remembered one when the URL names none (rule
 * locations-sort-remembered), and the Set-Cookie that remembers a sort the URL names (null when unchanged).
 */
export function dashboardTableState(request: Request) {
  const url = new URL(request.url);
  const remembered = parseCookie(request.headers.get("Cookie") ?? "")[SORT_COOKIE];
  const state = parseTableState(withRememberedSort(url.searchParams, remembered));
  const value = sortCookieValue(state);
  const named = url.searchParams.has("sort") || url.searchParams.has("dir");
  const setCookie =
    named && value !== remembered
      ? serializeCookie(SORT_COOKIE, value, {
          // Every path: the dashboard's data requests (/locations.data) are outside a "/locations" cookie path.
          path: "/",
          httpOnly: true,
          sameSite: "lax",
          secure: secureSessionCookie(),
          // A preference, not a secret: kept for a year.
          maxAge: 60 * 60 * 24 * 365,
        })
      : null;
  return { state, setCookie };
}

/** An account whose latest statement is more than 45 days old: its number and that statement's date. */
export type StaleBill = { id: number; number: string; date: string };

/**
 * The accounts of a location whose latest statement is more than 45 days old (rule old-bill-45-days; an account
 * the utility closed with a final bill expects none, rule missing-bill), counted in the location's days
 * (`today`, `YYYY-MM-DD`). The dashboard warns on the row even when another account's recent bill is its Last
 * Bill: a location's newest bill says nothing of an account that stopped billing.
 */
export function staleBills(
  accounts: {
    id: number;
    number: string;
    lastStatementDate?: string | null;
    arcadiaAccountStatusDetail?: string | null;
  }[],
  today: string,
): StaleBill[] {
  const out: StaleBill[] = [];
  for (const a of accounts) {
    const missing = missingBill(
      { lastStatementDate: a.lastStatementDate, statusDetail: a.arcadiaAccountStatusDetail },
      today,
    );
    if (missing)
      out.push({ id: a.id, number: a.number, date: formatCalendarDate(missing.lastStatementDate) });
  }
  return out;
}

/** A summary card counts every location it is about and links the first ten (the table lists them all). */
export const SUMMARY_LINKS = 10;

/** The vendor alert to show: the upstream's message when it asks for one and the user has not dismissed it. */
export function vendorAlertMessage(
  alert: { showAlert: boolean; message?: string | null } | null,
  dismissed: boolean,
): string | null {
  return alert && alert.showAlert && alert.message && !dismissed ? alert.message : null;
}

/**
 * The summary cards and the table: every building joined with its energy-advisor entry (devices, last bill,
 * demand ratio, accounts). The cards list locations in the Location column's order; the table follows the
 * URL's search and sort, and lists the accounts of the expanded row only. Bills' ages count each location's own
 * days at `nowMs` (rule location-today): its time zone's date, not the UTC one.
 */
export function dashboardView({
  buildings,
  advisor,
  state,
  isStaff,
  nowMs,
}: {
  buildings: Building[];
  advisor: EnergyAdvisorBuilding[];
  state: TableState;
  isStaff: boolean;
  /** The instant of the view: each location's "today" is its time zone's date then. */
  nowMs: number;
}) {
  const byId = new Map(advisor.map((a) => [a.building.id, a]));
  const all = buildings.map((b) => {
    const a = byId.get(b.id);
    const summary = a?.deviceSummary ?? NO_DEVICES_SUMMARY;
    return {
      building: b,
      summary,
      chip: thermostatChip(summary),
      lastBillDate: a?.lastBillDate ?? null,
      lastBillTotalCents: a?.lastBillTotalCents ?? null,
      highDemand: Boolean(a?.peakDemandRatio?.hasHighDemandRatio),
      accounts: a?.accounts ?? [],
    };
  });
  const toLink = (r: (typeof all)[number]) => ({
    id: r.building.id,
    label: locationLabel(r.building, isStaff),
  });
  const ordered = tableRows(all, { sort: "location", dir: "asc", q: "" }, isStaff);
  const issues = ordered.filter((r) => hasThermostatIssues(r.summary));
  const highDemand = ordered.filter((r) => r.highDemand);
  // Search and sort run over every location; only the page shown is turned into rows (rule locations-table-paged).
  const byDefault = state.sort === "location" && state.dir === "asc" && !state.q;
  const paged = locationsPageOf(byDefault ? ordered : tableRows(all, state, isStaff), state.page);
  return {
    caption: sortCaption(state, isStaff),
    total: all.length,
    issues: { count: issues.length, links: issues.slice(0, SUMMARY_LINKS).map(toLink) },
    highDemand: { count: highDemand.length, links: highDemand.slice(0, SUMMARY_LINKS).map(toLink) },
    page: paged.page,
    pages: paged.pages,
    matched: paged.matched,
    // Keys left out rather than null (nickname, old, accounts): 75 rows of them are 2 KiB of hydration data.
    rows: paged.rows.map((r) => {
      const nickname = r.building.nickname && !isStaff ? r.building.nickname : null;
      const today = zonedDate(nowMs, r.building.timezone).toISOString().slice(0, 10);
      const stale = staleBills(r.accounts, today);
      const row: {
        id: number;
        label: string;
        nickname?: string;
        address: string;
        chip: { label: string; tone: Chip["tone"] };
        lastBill: LastBillView | null;
        /** Accounts whose latest statement is more than 45 days old (rule old-bill-45-days). */
        staleBills?: StaleBill[];
        accounts?: {
          id: number;
          number: string;
          utility: string | null;
          status: ReturnType<typeof connectionStatus>;
          /** The latest statement's date when it is more than 45 days old. */
          staleSince?: string;
        }[];
      } = {
        id: r.building.id,
        label: locationLabel(r.building, isStaff),
        address: formatAddress(r.building.address),
        // The chip as shown (its rank only orders the table, done here).
        chip: { label: r.chip.label, tone: r.chip.tone },
        lastBill: lastBillView(r.lastBillDate, r.lastBillTotalCents, today),
      };
      if (nickname) row.nickname = nickname;
      if (stale.length) row.staleBills = stale;
      if (state.expanded === r.building.id)
        row.accounts = r.accounts.map((acc) => {
          const account: NonNullable<typeof row.accounts>[number] = {
            id: acc.id,
            number: acc.number,
            utility: acc.utilityDisplayName ?? null,
            status: connectionStatus(acc.arcadiaAccountStatus, acc.arcadiaAccountStatusDetail),
          };
          const since = stale.find((s) => s.id === acc.id)?.date;
          if (since) account.staleSince = since;
          return account;
        });
      return row;
    }),
  };
}

export type DashboardView = ReturnType<typeof dashboardView>;
export type DashboardRow = DashboardView["rows"][number];
export type LocationLink = DashboardView["issues"]["links"][number];

/** The dashboard's one form: Dismiss on the vendor alert, back to the page it was on. */
const vendorAlertSchema = z.object({
  intent: z.literal("dismiss-vendor-alert"),
  redirectTo: z.string().optional(),
});

export async function dashboardLoader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSmb(request);
  const api = await getApi(request, context);
  const session = await getSession(request);
  // The sort the URL names, or the one the user chose last (a cookie): it survives a visit to another page.
  const { state, setCookie } = dashboardTableState(request);
  const headers = setCookie ? { "Set-Cookie": setCookie } : undefined;
  const [buildings, advisor, alert] = await Promise.all([
    settle(listAllBuildings(api)),
    settle(getEnergyAdvisorBuildings(api, user.clientId)),
    settle(getVendorAlert(api)),
  ]);
  const base = {
    state,
    vendorAlert: vendorAlertMessage(
      alert.ok ? alert.data : null,
      Boolean(session.get("vendorAlertDismissed")),
    ),
    energyAdvisorUrl: getConfig().ENERGY_ADVISOR_URL,
    supportEmail: supportEmail(),
  };
  if (!buildings.ok || !advisor.ok)
    return withPrimaryStatus(
      {
        ...base,
        error: true as const,
        total: 0,
        page: 1,
        pages: 1,
        matched: 0,
        rows: [],
        issues: { count: 0, links: [] },
        highDemand: { count: 0, links: [] },
        caption: "",
      },
      buildings,
      advisor,
    );
  const view = dashboardView({
    buildings: buildings.data,
    advisor: advisor.data,
    state,
    isStaff: user.isStaff,
    nowMs: now().getTime(),
  });
  return data({ ...base, error: false as const, ...view }, { headers });
}

export async function dashboardAction({ request }: ActionFunctionArgs) {
  await requireSmb(request);
  const submission = parseForm(await request.formData(), { schema: vendorAlertSchema });
  if (submission.status !== "success") return invalidSubmission(submission);
  const session = await getSession(request);
  session.set("vendorAlertDismissed", true);
  const to = safeRedirect(submission.value.redirectTo, "/locations");
  return redirect(to.startsWith("/locations") ? to : "/locations", {
    headers: { "Set-Cookie": await commitSession(session) },
  });
}
