import { LocationSuffix, useLocationZone } from "~/features/locations/components/location-heading";
import { locationLabelFromMatches, locationPageTitle } from "~/features/locations/page-title";
import { data, redirect } from "@remix-run/node";
import { getApi } from "~/server/upstream/upstream.server";
import { loadUsage } from "~/features/usage/usage.server";
import { locationIdParam, todayUtc } from "~/features/bills/bills.server";
import { requireSmb } from "~/server/upstream/guards.server";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { billWindow, formatMoney } from "~/features/bills/bills";
import { usageChart } from "~/features/usage/chart-data";
import { BillPickerDialog, DatePickerDialog, isPickerTab } from "~/features/usage/components/date-pickers";
import { ChartFigure } from "~/features/usage/components/energy-chart";
import { PeriodStepper } from "~/features/usage/components/period-stepper";
import { clampStart, isSteppedPeriod } from "~/features/usage/period-range";
import {
  isUsageType,
  pickerBills,
  rangeLabel,
  todayParts,
  usageHref,
  usageSummary,
  usageTitle,
  type UsageType,
} from "~/features/usage/usage";
import styles from "~/features/usage/usage.css";
import { LinkTabs } from "~/ui/link-tabs";
import { ErrorState } from "~/ui/states";
import plotStyles from "~/ui/plot.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: plotStyles },
  { rel: "stylesheet", href: styles },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireSmb(request);
  const locationId = locationIdParam(params.locationId);
  const url = new URL(request.url);
  if (!isUsageType(params.usageType)) throw redirect(`/locations/${locationId}/usage/demand${url.search}`);
  const usageType: UsageType = params.usageType;
  const picker = url.searchParams.get("picker");
  // A hand-typed start outside the allowed range shows the nearest allowed period (rule usage-period-range).
  const period = url.searchParams.get("period");
  const clamped =
    isSteppedPeriod(period) && clampStart(period, url.searchParams.get("start"), todayParts(todayUtc()));
  if (clamped) {
    url.searchParams.set("start", clamped);
    throw redirect(`${url.pathname}${url.search}`);
  }
  const result = await loadUsage(await getApi(request, context), {
    locationId,
    usageType,
    search: url.searchParams,
    needBills: picker === "bill",
  });
  const today = todayParts(todayUtc());
  const tabParam = url.searchParams.get("tab");
  return data(
    {
      locationId,
      usageType,
      today,
      view: result.view,
      granularity: result.granularity,
      usage: result.usage,
      summary: result.usage.ok
        ? usageSummary(
            result.usage.points,
            usageType,
            result.view.bill ? formatMoney(result.view.bill.totalCharges) : null,
          )
        : null,
      picker: picker === "date" || picker === "bill" ? picker : null,
      tab: isPickerTab(tabParam) ? tabParam : result.view.period === "bill" ? "month" : result.view.period,
      cal: url.searchParams.get("cal"),
      bills: result.bills?.ok ? pickerBills(result.bills.items, billWindow(todayUtc()).minDate) : [],
      billsFailed: result.bills ? !result.bills.ok : false,
    },
    { status: result.status },
  );
}

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
      <DatePickerDialog
        open={d.picker === "date"}
        tab={d.tab}
        cal={d.cal}
        current={{ period: view.period, startDate: view.startDate }}
        today={d.today}
        href={(extra) => href(extra)}
        action={action}
      />
      <BillPickerDialog
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
