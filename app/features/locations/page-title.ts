/**
 * Titles and headings of a location's pages (rule location-page-title, docs/rules.md): each page's `<title>`
 * names the page, then the location (its name, or its code for staff, as in the selector), then the product,
 * so fourteen locations no longer share one title: "Thermostats · Harbor Coffee Pike Place · EnergyOps".
 */
export const PRODUCT_NAME = "EnergyOps";

/** The route id of the location layout, whose loader carries the location's label. */
export const LOCATION_ROUTE_ID = "routes/_app.locations.$locationId";

export type LocationRouteData =
  | {
      location: {
        id: number;
        label: string;
        /** "ET": how the building's timezone is named. */ zone?: string;
      };
    }
  | null
  | undefined;

export function locationPageTitle(parts: (string | null | undefined)[], location: string | null | undefined) {
  return [...parts, location, PRODUCT_NAME].filter((p): p is string => Boolean(p && p.trim())).join(" · ");
}

/** The location's label from route matches (a `meta` function's `matches`), or null. */
export function locationLabelFromMatches(matches: readonly { id: string; data?: unknown }[]) {
  const data = matches.find((m) => m.id === LOCATION_ROUTE_ID)?.data as LocationRouteData;
  return data?.location?.label ?? null;
}
