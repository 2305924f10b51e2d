import { Outlet } from "@remix-run/react";
import { locationLayoutLoader } from "~/features/locations/location-layout.server";
import { keepWithinLocation } from "~/lib/revalidate";

export const loader = locationLayoutLoader;

/** The location's label and zone are kept on a link between its pages. */
export const shouldRevalidate = keepWithinLocation;

export default function LocationLayout() {
  return <Outlet />;
}
