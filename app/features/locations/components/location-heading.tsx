import { useRouteLoaderData } from "@remix-run/react";
import { LOCATION_ROUTE_ID, type LocationRouteData } from "../page-title";

/** " · Harbor Coffee Pike Place" after a location page's h1 text: which location this page is about. */
export function LocationSuffix() {
  const label = (useRouteLoaderData(LOCATION_ROUTE_ID) as LocationRouteData)?.location?.label;
  return label ? (
    <span className="page-location" data-testid="page-location">
      {" "}
      · {label}
    </span>
  ) : null;
}

/** The location's timezone label ("ET", "PT"), written by the location layout's loader; null outside it. */
export function useLocationZone(): string | null {
  return (useRouteLoaderData(LOCATION_ROUTE_ID) as LocationRouteData)?.location?.zone ?? null;
}
