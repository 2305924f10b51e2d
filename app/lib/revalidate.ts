import type { ShouldRevalidateFunction } from "@remix-run/react";

/**
 * For a layout whose data depends only on who is signed in and which location is open (the app shell, a
 * location's layout): a link within the same location keeps the data it has, so the `.data` request of an in-app
 * navigation runs the page's own loader and not the layout's again. Anything posted, and a move to another
 * location, reload it as Remix would.
 */
export const keepWithinLocation: ShouldRevalidateFunction = ({
  formMethod,
  currentParams,
  nextParams,
  defaultShouldRevalidate,
}) => {
  if (formMethod && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
  if (currentParams.locationId !== nextParams.locationId) return defaultShouldRevalidate;
  return false;
};
