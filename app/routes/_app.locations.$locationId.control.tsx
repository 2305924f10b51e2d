import { locationLabelFromMatches, locationPageTitle } from "~/features/locations/page-title";
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ControlRoom, usePolledData } from "~/features/thermostats/components/control-room";
import { LocationSuffix } from "~/features/locations/components/location-heading";
import { controlRoomAction, controlRoomLoader } from "~/features/thermostats/control-room.server";
import styles from "~/features/thermostats/thermostats.css";

export const handle = { stylesheets: [styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = controlRoomLoader;

export const action = controlRoomAction;

export default function ThermostatsPage() {
  const page = usePolledData(useLoaderData<typeof loader>());
  const actionData = useActionData<typeof action>();
  return (
    <ControlRoom
      page={page}
      reply={actionData?.thermostatId ? actionData : undefined}
      locationSuffix={<LocationSuffix />}
    />
  );
}

export const meta: MetaFunction = ({ matches }) => [
  { title: locationPageTitle(["Thermostats"], locationLabelFromMatches(matches)) },
];
