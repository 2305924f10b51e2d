import { Outlet } from "@remix-run/react";
import { locationLayoutLoader } from "~/features/locations/location-layout.server";

export const loader = locationLayoutLoader;

export default function LocationLayout() {
  return <Outlet />;
}
