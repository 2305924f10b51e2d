import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import styles from "~/features/findings/findings.css";
import { FindingsLedger } from "~/features/findings/components/findings-ledger";
import { findingsLoader } from "~/features/findings/findings.server";

export const handle = { stylesheets: [styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = findingsLoader;

export default function Findings() {
  const data = useLoaderData<typeof loader>();
  return <FindingsLedger {...data} />;
}

export const meta: MetaFunction = () => [{ title: "Findings · EnergyOps" }];
