import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import styles from "~/features/investigations/investigations.css";
import { InvestigationQueue } from "~/features/investigations/components/investigation-queue";
import { investigationsLoader } from "~/features/investigations/investigations.server";

export const handle = { stylesheets: [styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = investigationsLoader;

export default function Investigations() {
  const data = useLoaderData<typeof loader>();
  return <InvestigationQueue {...data} />;
}

export const meta: MetaFunction = () => [{ title: "Investigations · EnergyOps" }];
