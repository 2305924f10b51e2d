import { data } from "@remix-run/node";
import { getApi } from "~/server/upstream/upstream.server";
import { clientToday } from "~/features/locations/locations.server";
import { requireSmb } from "~/server/upstream/guards.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  historyCsvRows,
  historyRange,
  parseChartOptions,
  parsePeriod,
} from "~/features/compliance/compliance";
import { getThermostatHistory } from "~/features/compliance/compliance.server";
import { settle } from "~/server/upstream/api-error";
import { csvDownload } from "~/server/csv";
import { idParam } from "~/lib/ids";

/**
 * CSV of exactly what the thermostat chart plots (the visible series, in the building's local time), for the
 * chart's "Download CSV": /override-report/{thermostatId}/csv with the page's period (a month or one day) and
 * series parameters.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireSmb(request);
  const thermostatId = idParam(params.thermostatId);
  const url = new URL(request.url);
  const api = await getApi(request, context);
  // The page's period, from the same "today" as the page (rule location-today).
  const range = historyRange(parsePeriod(url.searchParams, await clientToday(api)));
  const history = await settle(getThermostatHistory(api, thermostatId, range.start, range.end));
  if (!history.ok) {
    if (history.error.status === 404 || history.error.status === 403) throw data(null, { status: 404 });
    return new Response("Unable to load the thermostat history. Please try again.", {
      status: 502,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return csvDownload(
    historyCsvRows(
      history.data.items,
      parseChartOptions(url.searchParams).visible,
      history.data.buildingTimezone,
    ),
    `thermostat-${thermostatId}-${range.start}.csv`,
  );
}
