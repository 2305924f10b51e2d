import type { SerializeFrom } from "@remix-run/node";
import { Link, useLocation, useNavigation } from "@remix-run/react";
import { Alert, EmptyState, ErrorState } from "~/ui/states";
import { formatDay, monthLabel, NO_HISTORY_MESSAGE, type DaySort } from "../compliance";
import type { OverrideReportView } from "../report.server";
import { MonthPicker } from "./month-picker";
import {
  ComplianceCards,
  LeastCompliantLocations,
  ReportSkeleton,
  ThermostatTable,
  WorstDaysTable,
} from "./report-parts";
import { ThermostatChart } from "./thermostat-chart";
import { withQuery } from "~/lib/query";

export const REPORT_ERROR = "Unable to load the schedule compliance report. Please try again.";

/** Current query parameters except some, as hidden inputs for a GET form. */
function keepParams(search: string, drop: string[]): [string, string][] {
  return [...new URLSearchParams(search).entries()].filter(([k]) => !drop.includes(k));
}

const withParams = withQuery;

/** Sorting days, toggling series or opening the dialog re-render instantly enough: no skeleton for those. */
function onlyUiParamsChanged(a: string, b: string) {
  const ui = {
    daySort: null,
    chart: null,
    show: null,
    plotBands: null,
    showMarker: null,
    dialog: null,
    location: null,
  };
  const strip = (s: string) => withQuery(s, ui);
  return strip(a) === strip(b);
}

/** The schedule compliance report: the client's cards and tables, or one thermostat's days and chart. */
export function OverrideReportPage({ d }: { d: SerializeFrom<OverrideReportView> }) {
  const { search, pathname } = useLocation();
  const navigation = useNavigation();
  const loading =
    navigation.state === "loading" &&
    navigation.location.pathname.startsWith("/override-report") &&
    !(navigation.location.pathname === pathname && onlyUiParamsChanged(navigation.location.search, search));
  const selected = d.selected;
  const client = d.report?.client[0];
  const dropForChart = ["chart", "show", "plotBands", "showMarker"];
  const day = d.period.day;
  // The day view and the month view of the chart: the same page and options, the period in the URL.
  const dayHref = (date: string) => `${withParams(search, { period: "day", start: date })}#day-view`;
  const monthHref = `${withParams(search, { period: "month", start: d.period.start })}#day-view`;

  return (
    <div className="stack report-page">
      <div className="row report-head">
        <h1>Schedule Compliance</h1>
        <span className="spacer" />
        <MonthPicker
          start={d.period.start}
          todayIso={d.todayIso}
          keep={keepParams(search, ["period", "start", "pickerYear", "pickerMonth", "dialog"])}
        />
      </div>
      {d.period.error ? <Alert tone="warning">{d.period.error}</Alert> : null}
      {loading ? (
        <ReportSkeleton />
      ) : !d.report ? (
        <ErrorState title={REPORT_ERROR} />
      ) : selected ? (
        <>
          <div className="row thermostat-head">
            <Link
              to={`/override-report${withParams(search, {
                daySort: null,
                chart: null,
                show: null,
                plotBands: null,
                showMarker: null,
                ...(day ? { period: "month", start: d.period.start } : {}),
              })}`}
              replace
              className="btn btn-secondary btn-small"
            >
              BACK
            </Link>
            <h2 data-testid="thermostat-header">
              {selected.addressLine1} <span className="muted">·</span> {selected.deviceName}
            </h2>
          </div>
          <ComplianceCards
            compliance={selected.scheduleCompliancePercentage}
            autoResets={selected.autoResetCount}
          />
          <WorstDaysTable
            days={d.worstDays}
            sort={d.daySort}
            sortHref={(s: DaySort) => withParams(search, { daySort: `${s.key}:${s.dir}` })}
            dayHref={dayHref}
            selectedDay={day}
          />
          <div className="row day-view" id="day-view" data-testid="day-view">
            {day ? (
              <>
                <p>
                  Thermostat Settings for <strong>{formatDay(day)}</strong>.
                </p>
                <Link to={monthHref} className="btn btn-secondary btn-small" data-testid="whole-month">
                  Whole month: {monthLabel(d.period.start)}
                </Link>
              </>
            ) : (
              <p className="muted">Choose a date in Least Compliant Days to see that day in the chart.</p>
            )}
          </div>
          {d.history === "error" || d.history === null ? (
            <Alert tone="error">{NO_HISTORY_MESSAGE}</Alert>
          ) : d.history.count === 0 ? (
            <Alert tone="warning">{NO_HISTORY_MESSAGE}</Alert>
          ) : (
            <ThermostatChart
              chart={d.history}
              options={d.chart}
              keep={keepParams(search, dropForChart)}
              helpUrl={d.helpUrl}
              csvHref={`/override-report/${selected.thermostatId}/csv${search}`}
            />
          )}
        </>
      ) : (
        <>
          <ComplianceCards
            compliance={client?.scheduleCompliancePercentage ?? null}
            autoResets={client?.autoResetCount ?? 0}
          />
          {d.overview ? (
            <>
              <LeastCompliantLocations
                worst={d.overview.worstLocations}
                all={d.overview.allLocations}
                dialogOpen={d.dialog}
                openHref={withParams(search, { dialog: "locations" })}
                closeHref={withParams(search, { dialog: null })}
              />
              <ThermostatTable
                table={d.overview.thermostats}
                locationOptions={d.overview.locationOptions}
                locationCount={d.overview.locationCount}
                location={d.location}
                query={d.query}
                keep={keepParams(search, ["location", "q", "page", "dialog"])}
                sort={d.thermostatSort}
                sortHref={(s) =>
                  `/override-report${withParams(search, { sort: `${s.key}:${s.dir}`, page: null })}`
                }
                viewHref={(id) => `/override-report/${id}${search}`}
                pageHref={(p) => `/override-report${withParams(search, { page: p > 1 ? String(p) : null })}`}
              />
            </>
          ) : null}
        </>
      )}
    </div>
  );
}

/** A thermostat that is not the user's: not found; any other failure: the report's error state. */
export function ReportError({ notFound }: { notFound: boolean }) {
  return (
    <div className="stack report-page">
      <h1>Schedule Compliance</h1>
      {notFound ? (
        <EmptyState title="Thermostat not found">
          <p>This thermostat does not exist or is not one of your locations.</p>
        </EmptyState>
      ) : (
        <ErrorState title={REPORT_ERROR} />
      )}
      <p>
        <Link to="/override-report" className="btn btn-secondary btn-small">
          BACK
        </Link>
      </p>
    </div>
  );
}
