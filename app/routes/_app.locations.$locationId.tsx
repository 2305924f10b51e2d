import { Outlet } from "@remix-run/react";
import { locationLayoutLoader } from "~/features/locations/locations.server";

export const loader = locationLayoutLoader;

export default function LocationLayout() {
  return <Outlet />;
}
