import { getApi } from "~/server/upstream/upstream.server";
import { loadUsage } from "~/features/usage/usage.server";
import { locationTodayOf, requireLocationId } from "~/features/locations/locations.server";
import { redirect } from "@remix-run/node";
import { requireSmb } from "~/server/upstream/guards.server";
import { pageNotFound } from "~/features/shell/shell.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { usageCsvRows } from "~/features/usage/chart-data";
import { isUsageType } from "~/features/usage/usage";
import { csvDownload } from "~/server/csv";

/**
 * CSV of exactly what the usage chart plots for the same period and start
 * (resource route: /locations/{id}/usage/{demand|consumption}/csv?period=…&start=…).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireSmb(request);
  const locationId = await requireLocationId(request, params.locationId);
  const url = new URL(request.url);
  // Not demand or consumption: an unknown path, which goes to the index (spec part 1 §2).
  if (!isUsageType(params.usageType)) throw await pageNotFound(request);
  const usageType = params.usageType;
  let result;
  try {
    const api = await getApi(request, context);
    result = await loadUsage(api, {
      request,
      locationId,
      usageType,
      search: url.searchParams,
      needBills: false,
      today: await locationTodayOf(api, locationId),
    });
  } catch (thrown) {
    // A redirect to the canonical page URL (defaults, bill fallback) becomes the CSV of that view.
    if (
      thrown instanceof Response &&
      thrown.status >= 300 &&
      thrown.status < 400 &&
      thrown.headers.get("Location")?.includes(`/usage/${usageType}?`)
    ) {
      const location = thrown.headers.get("Location")!;
      throw redirect(location.replace(`/usage/${usageType}?`, `/usage/${usageType}/csv?`));
    }
    throw thrown;
  }
  if (!result.usage.ok)
    return new Response("Error loading data", {
      status: 502,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  return csvDownload(
    usageCsvRows(result.usage.points, usageType, result.usage.units),
    `${usageType}-${locationId}-${result.view.startDate}.csv`,
  );
}
