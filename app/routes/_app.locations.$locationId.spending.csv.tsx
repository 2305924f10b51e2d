import type { LoaderFunctionArgs } from "@remix-run/node";
import { chartBills } from "~/features/bills/bills";
import { getApi } from "~/server/upstream/upstream.server";
import { loadLocationBills } from "~/features/bills/bills.server";
import { requireLocationId } from "~/features/locations/locations.server";
import { requireSmb } from "~/server/upstream/guards.server";
import { billChartCsvRows } from "~/features/usage/chart-data";
import { csvDownload } from "~/server/csv";

/** CSV of exactly what the spending page's Energy Usage chart plots (resource route: /locations/{id}/spending/csv). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireSmb(request);
  const locationId = await requireLocationId(request, params.locationId);
  const accountParam = new URL(request.url).searchParams.get("accountId");
  const result = await loadLocationBills(request, await getApi(request, context), locationId, accountParam);
  if (!result.ok) {
    return new Response("There was a problem loading your bills. Our team has been notified.", {
      status: 502,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return csvDownload(
    billChartCsvRows(chartBills(result.bills)),
    `energy-usage-${locationId}${result.accountId ? `-${result.accountId}` : ""}.csv`,
  );
}
