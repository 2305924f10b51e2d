import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { getConfig } from "~/server/config.server";
import { now } from "~/server/clock.server";
import { redirect } from "@remix-run/node";
import { requireSmb } from "~/server/upstream/guards.server";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { OverrideReportPage, ReportError } from "~/features/compliance/components/report-page";
import styles from "~/features/compliance/compliance.css";
import { monthPickerRedirect, overrideReportView } from "~/features/compliance/report.server";
import { GeneralErrorBoundary } from "~/ui/error-boundary";
import plotStyles from "~/ui/plot.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: plotStyles },
  { rel: "stylesheet", href: styles },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireSmb(request);
  if (!user.clientId) throw redirect("/");
  const url = new URL(request.url);
  const today = now();
  monthPickerRedirect(url, today);
  const api = await getApi(request, context);
  const { view, report, history } = await overrideReportView(
    api,
    user.clientId,
    params.thermostatId,
    url,
    today,
    getConfig().HELP_URL,
  );
  return withPrimaryStatus(view, report, history);
}

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
