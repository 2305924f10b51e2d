import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { dispatchCsvRows, parseGridState, stateRange } from "~/features/grid-services/grid-services";
import { listAllDispatches } from "~/features/grid-services/grid-services.server";
import { settle } from "~/server/upstream/api-error";
import { now } from "~/server/clock.server";
import { csvDownload } from "~/server/csv";
import { requireUser } from "~/server/upstream/guards.server";
import { getApi } from "~/server/upstream/upstream.server";

/**
 * CSV of the Grid Services table (/grid-services/csv with the page's search, period and sort): every event of
 * the page's period, not only the page on screen, like every other table's "Download CSV", each with its
 * measured figures and estimated earnings (or why it has none).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!user.clientId) throw redirect("/");
  const url = new URL(request.url);
  const state = parseGridState(url.searchParams);
  const { q, sort } = state;
  const range = stateRange(state, now());
  const rows = await settle(
    listAllDispatches(await getApi(request, context), user.clientId, { q, sort }, range),
  );
  if (!rows.ok)
    return new Response("Unable to load the grid services events. Please try again.", {
      status: 502,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  return csvDownload(dispatchCsvRows(rows.data), `grid-services-${range.startDate}-${range.endDate}.csv`);
}
