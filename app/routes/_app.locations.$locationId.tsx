import { data } from "@remix-run/node";
import { failureStatus, getApi } from "~/server/upstream/upstream.server";
import { findLocation, locationZone } from "~/features/locations/locations.server";
import { redirectWithToast } from "~/server/upstream/session.server";
import { requireSmb } from "~/server/upstream/guards.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { locationLabel } from "~/features/locations/locations";
import { LOCATION_UNAVAILABLE } from "~/features/shell/notices";
import { isApiError } from "~/server/upstream/api-error";

/**
 * A location's pages (SMB only). An unknown or foreign location id goes back to /locations, with a toast that
 * says why (rule redirect-says-why). When the location
 * list itself fails, no page of the location can be shown: the error page, with the outage status (ADR 0009).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireSmb(request);
  const location = await findLocation(await getApi(request, context), params.locationId).catch(
    (error: unknown) => {
      throw isApiError(error) ? data(null, { status: failureStatus(error) }) : error;
    },
  );
  if (!location)
    throw await redirectWithToast(request, "/locations", { kind: "info", message: LOCATION_UNAVAILABLE });
  // The label (name, or code for staff) names the location in each page's title and heading; the zone label
  // ("ET") goes next to its local times, written here because the browser builds no Intl formatter.
  return {
    location: {
      id: location.id,
      label: locationLabel(location, user.isStaff),
      zone: locationZone(location),
    },
  };
}

export default function LocationLayout() {
  return <Outlet />;
}
