import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { zoneLabel } from "~/lib/zoned";
import { now } from "~/server/clock.server";
import { requireSmb } from "~/server/upstream/guards.server";
import { isApiError } from "~/server/upstream/api-error";
import { failureStatus, getApi } from "~/server/upstream/upstream.server";
import { locationLabel } from "./locations";
import { findLocation, locationUnavailable, type Building } from "./locations.server";

/*
 * The location layout's server side (app/routes/_app.locations.$locationId.tsx): the location every page of it
 * names, with its label and time zone.
 */

export function locationZone(location: Pick<Building, "timezone">) {
  return zoneLabel(location.timezone, now().getTime());
}

/**
 * A location's pages (SMB only). An unknown or foreign location id goes back to /locations, with a toast that
 * says why (rule redirect-says-why). When the location
 * list itself fails, no page of the location can be shown: the error page, with the outage status (ADR 0009).
 */
export async function locationLayoutLoader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireSmb(request);
  const location = await findLocation(await getApi(request, context), params.locationId).catch(
    (error: unknown) => {
      throw isApiError(error) ? data(null, { status: failureStatus(error) }) : error;
    },
  );
  if (!location) throw await locationUnavailable(request);
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
