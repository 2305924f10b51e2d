import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { OverrideReportPage, ReportError } from "~/features/compliance/components/report-page";
import styles from "~/features/compliance/compliance.css";
import { GeneralErrorBoundary } from "~/ui/error-boundary";
import plotStyles from "~/ui/plot.css";
import { overrideReportLoader } from "~/features/compliance/report.server";

export const handle = { stylesheets: [plotStyles, styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = overrideReportLoader;

export default function OverrideReport() {
  return <OverrideReportPage d={useLoaderData<typeof loader>()} />;
}

export const meta: MetaFunction = () => [{ title: "Schedule Compliance · EnergyOps" }];

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{ 404: () => <ReportError notFound /> }}
      defaultStatusHandler={() => <ReportError notFound={false} />}
      unexpectedErrorHandler={() => <ReportError notFound={false} />}
    />
  );
}
