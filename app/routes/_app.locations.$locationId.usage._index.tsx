import { requireLocationId } from "~/features/locations/locations.server";
import { redirect } from "@remix-run/node";
import { requireSmb } from "~/server/upstream/guards.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/** /locations/{locationId}/usage → its demand page. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireSmb(request);
  // Only a parsed id goes into the Location header: the raw parameter is whatever the visitor typed.
  throw redirect(`/locations/${await requireLocationId(request, params.locationId)}/usage/demand`);
}
