import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { findLocation } from "~/features/locations/locations.server";
import { requireSmb } from "~/server/guards.server";
import { getApi } from "~/server/upstream.server";

/** A location's pages (SMB only). An unknown or foreign location id goes back to /locations. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireSmb(request);
  const location = await findLocation(await getApi(request, context), params.locationId);
  if (!location) throw redirect("/locations");
  return null;
}

export default function LocationLayout() {
  return <Outlet />;
}
