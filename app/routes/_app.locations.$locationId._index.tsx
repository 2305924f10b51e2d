import { redirect, requireSmb } from "~/route-kit.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/** /locations/{locationId} → its spending page (the layout has already checked the id). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireSmb(request);
  throw redirect(`/locations/${params.locationId}/spending`);
}
