import { LocationSuffix, useLocationZone } from "~/features/locations/components/location-heading";
import { locationLabelFromMatches, locationPageTitle } from "~/features/locations/page-title";
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { usageChart } from "~/features/usage/chart-data";
import { BillPicker, DatePicker } from "~/features/usage/components/picker-dialogs";
import { ChartFigure } from "~/features/usage/components/energy-chart";
import { PeriodStepper } from "~/features/usage/components/period-stepper";
import { rangeLabel, usageHref, usageTitle, type UsageType } from "~/features/usage/usage";
import styles from "~/features/usage/usage.css";
import { LinkTabs } from "~/ui/link-tabs";
import { ErrorState } from "~/ui/states";
import plotStyles from "~/ui/plot.css";
import { usagePageLoader } from "~/features/usage/usage.server";

export const handle = { stylesheets: [plotStyles, styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = usagePageLoader;

export default function UsagePage() {
  const d = useLoaderData<typeof loader>();
  const { locationId, usageType, view } = d;
  const state = { period: view.period, start: view.start };
  const href = (extra: Record<string, string | null | undefined>, type: UsageType = usageType) =>
    usageHref(locationId, type, { ...state, ...extra });
  const action = `/locations/${locationId}/usage/${usageType}`;
  const title = usageTitle(usageType);
  const zone = useLocationZone();
  const chart = d.usage.ok ? usageChart(d.usage.points, usageType, d.granularity, d.usage.units, zone) : null;
  const empty = d.usage.ok && d.usage.points.every((p) => p.energy === null);
  const query = new URLSearchParams(state).toString();
  return (
    <div className="stack usage-page">
      <h1>
        Usage Details
        <LocationSuffix />
      </h1>
      <LinkTabs
        label="Usage type"
        value={usageType}
        tabs={(["demand", "consumption"] as const).map((t) => ({
          value: t,
          label: usageTitle(t),
          href: href({}, t),
        }))}
      >
        <section className="card stack" aria-labelledby="usage-heading">
          <div className="row usage-head">
            <h2 id="usage-heading">
              {title} · {rangeLabel(view)}
            </h2>
            <PeriodStepper
              period={view.period}
              start={view.start}
              today={d.today}
              href={(start) => href({ start })}
            />
            <div className="row date-selector" role="group" aria-label="Date selector">
              <Link
                to={href({ picker: "date", tab: d.tab })}
                id="select-date"
                className="btn btn-secondary btn-small"
                preventScrollReset
              >
                Select date
              </Link>{" "}
              <Link
                to={href({ picker: "bill" })}
                id="select-bill"
                className="btn btn-secondary btn-small"
                preventScrollReset
              >
                Select bill
              </Link>
            </div>
          </div>
          {chart ? (
            <>
              {empty ? <p className="muted">No usage data is available for this period.</p> : null}
              {d.summary && !empty ? (
                <dl className="usage-summary" data-testid="usage-summary">
                  {d.summary.map((st) => (
                    <div key={st.label}>
                      <dt>{st.label}</dt>
                      <dd>{st.value}</dd>
                    </div>
                  ))}
                </dl>
              ) : null}
              <ChartFigure
                title={`${title} · ${rangeLabel(view)}`}
                headingId="usage-heading"
                chart={chart}
                csvHref={`/locations/${locationId}/usage/${usageType}/csv?${query}`}
                csvName={`${usageType}-${locationId}-${view.startDate}.csv`}
              />
            </>
          ) : (
            <ErrorState title="Error loading data" />
          )}
        </section>
      </LinkTabs>
      <DatePicker
        open={d.picker === "date"}
        tab={d.tab}
        cal={d.cal}
        current={{ period: view.period, startDate: view.startDate }}
        today={d.today}
        href={(extra) => href(extra)}
        action={action}
      />
      <BillPicker
        open={d.picker === "bill"}
        bills={d.bills}
        failed={d.billsFailed}
        selected={view.period === "bill" ? view.start : null}
        closeHref={`${href({})}#select-bill`}
        action={action}
      />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: locationPageTitle(
      [data ? usageTitle(data.usageType) : "Usage", "Usage Details"],
      locationLabelFromMatches(matches),
    ),
  },
];
