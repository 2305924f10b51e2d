import { redirect, requireSmb } from "~/route-kit.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/** /locations/{locationId}/usage → its demand page. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireSmb(request);
  throw redirect(`/locations/${params.locationId}/usage/demand`);
}
