import { data, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { settle } from "~/server/upstream/api-error";
import {
  historyRange,
  isPickableMonth,
  leastCompliantDays,
  LOCATION_FILTER_LIST_MAX,
  parseChartOptions,
  parseDaySort,
  parsePeriod,
  sortLocationsByCompliance,
  parseThermostatSort,
  thermostatTablePage,
  worstLocations,
} from "./compliance";
import { historyChart } from "./history-chart";
import { getOverrideReport, getThermostatHistory, getWorstDays } from "./compliance.server";
import { idParam, parseId } from "~/lib/ids";
import { HOME_TIMEZONE, zonedTime } from "~/lib/zoned";
import { withQuery } from "~/lib/query";
import { pageParam } from "~/ui/pager";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { getConfig } from "~/server/config.server";
import { clientToday } from "~/features/locations/locations.server";
import { requireSmb } from "~/server/upstream/guards.server";

/**
 * The month picker's Apply (a GET form): period=month and start = the first day of the chosen month, as a
 * redirect. A future or unknown month is refused by parsePeriod with a message next to the picker.
 */
export function monthPickerRedirect(url: URL, today: Date) {
  if (!url.searchParams.has("pickerMonth") && !url.searchParams.has("pickerYear")) return;
  const year = Number(url.searchParams.get("pickerYear"));
  const month = Number(url.searchParams.get("pickerMonth"));
  const start = isPickableMonth(year, month, today)
    ? `${year}-${String(month).padStart(2, "0")}-01`
    : `${year}-${String(month || 0).padStart(2, "0")}-00`;
  throw redirect(
    url.pathname +
      withQuery(url.searchParams, { pickerYear: null, pickerMonth: null, period: "month", start }),
  );
}

/**
 * The schedule compliance report's view model: the client's report for the period and, for one thermostat
 * (`thermostatIdParam`), its history and worst days. `report`, `history` and `worstDays` are the primary
 * outcomes (the page's status). A malformed id, an unknown thermostat or another client's one is a thrown 404.
 */
export async function overrideReportView(
  api: ApiClient,
  clientId: number,
  thermostatIdParam: string | undefined,
  url: URL,
  today: Date,
  helpUrl: string,
) {
  const period = parsePeriod(url.searchParams, today);
  // The report, its cards and Least Compliant Days stay the month's; the chart shows the day when one is chosen.
  const range = historyRange(period);
  const thermostatId =
    thermostatIdParam === undefined ? null : idParam(thermostatIdParam, () => data(null, { status: 404 }));
  const [report, history, worstDays] = await Promise.all([
    settle(getOverrideReport(api, clientId, period.start, period.end)),
    thermostatId ? settle(getThermostatHistory(api, thermostatId, range.start, range.end)) : null,
    thermostatId ? settle(getWorstDays(api, clientId, thermostatId, period.start, period.end)) : null,
  ]);
  if (thermostatId && history && !history.ok && history.error.status === 404)
    throw data(null, { status: 404 });
  const selected =
    thermostatId && report.ok
      ? (report.data.thermostats.find((t) => t.thermostatId === thermostatId) ?? null)
      : null;
  if (thermostatId && report.ok && !selected) throw data(null, { status: 404 });
  const timezone = history?.ok ? history.data.buildingTimezone : HOME_TIMEZONE;
  // The chart spans the building's local midnights of the range: a month, or one day (23 or 25 hours across
  // a change of clocks).
  const [sy, sm, sd] = range.start.split("-").map(Number);
  const [ey, em, ed] = range.end.split("-").map(Number);
  const rangeMs = { start: zonedTime(timezone, sy, sm, sd), end: zonedTime(timezone, ey, em, ed) };
  const chart = parseChartOptions(url.searchParams);
  const location = parseId(url.searchParams.get("location"));
  const query = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const dialog = url.searchParams.get("dialog") === "locations";
  const thermostatSort = parseThermostatSort(url.searchParams.get("sort"));
  const buildings = report.ok ? report.data.buildings : [];
  // Only what the page shows goes to the page (HTML and hydration data): with 300 locations the whole report
  // is ~450 thermostats and 300 locations (rule compliance-thermostats-paged).
  const overview =
    report.ok && !thermostatId
      ? {
          worstLocations: worstLocations(buildings),
          locationCount: buildings.length,
          // The "All locations" dialog's content only while it is open (its open state is in the URL).
          allLocations: dialog ? sortLocationsByCompliance(buildings) : null,
          // The filter lists the locations up to 15; past that it is a search of them.
          locationOptions:
            buildings.length <= LOCATION_FILTER_LIST_MAX
              ? buildings.map((b) => ({ buildingId: b.buildingId, addressLine1: b.addressLine1 }))
              : null,
          thermostats: thermostatTablePage(
            report.data.thermostats,
            { location, query: buildings.length > LOCATION_FILTER_LIST_MAX ? query : "" },
            pageParam(url.searchParams),
            thermostatSort,
          ),
        }
      : null;
  return {
    report,
    history,
    worstDays,
    view: {
      todayIso: today.toISOString().slice(0, 10),
      period,
      report: report.ok ? { client: report.data.client } : null,
      overview,
      selected,
      // The chart's compact form, not the raw points: a month is ~1,500 of them (history-chart.ts).
      history: history
        ? history.ok
          ? historyChart(history.data.items, timezone, rangeMs.start, rangeMs.end, chart)
          : ("error" as const)
        : null,
      worstDays: worstDays ? (worstDays.ok ? leastCompliantDays(worstDays.data) : ("error" as const)) : null,
      location,
      query,
      dialog,
      daySort: parseDaySort(url.searchParams.get("daySort")),
      thermostatSort,
      chart,
      helpUrl,
    },
  };
}

export type OverrideReportView = Awaited<ReturnType<typeof overrideReportView>>["view"];

export async function overrideReportLoader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireSmb(request);
  if (!user.clientId) throw redirect("/");
  const url = new URL(request.url);
  const api = await getApi(request, context);
  // The default month, the picker's limits and the day view's last day: the client's own date (rule
  // location-today), not the UTC one (on Nov 30 at 7 PM in Seattle it is Dec 1 in UTC).
  const today = await clientToday(api);
  monthPickerRedirect(url, today);
  const { view, report, history, worstDays } = await overrideReportView(
    api,
    user.clientId,
    params.thermostatId,
    url,
    today,
    getConfig().HELP_URL,
  );
  // With a thermostat chosen, its Least Compliant Days are one of its view's three parts (cards, days, chart), as
  // primary as the chart: their failure shows that card's error state and answers the failure's status (ADR 0009).
  return withPrimaryStatus(view, report, history, worstDays);
}
