import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireSmb } from "~/server/guards.server";

/** /locations/{locationId}/usage → its demand page. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireSmb(request);
  throw redirect(`/locations/${params.locationId}/usage/demand`);
}
