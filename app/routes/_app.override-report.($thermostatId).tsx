import { TZDate } from "@date-fns/tz";
import {
  data,
  redirect,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { MonthPicker } from "~/features/compliance/components/month-picker";
import {
  ComplianceCards,
  LeastCompliantLocations,
  ReportSkeleton,
  ThermostatTable,
  WorstDaysTable,
} from "~/features/compliance/components/report-parts";
import { ThermostatChart } from "~/features/compliance/components/thermostat-chart";
import styles from "~/features/compliance/compliance.css";
import {
  isPickableMonth,
  NO_HISTORY_MESSAGE,
  parseChartOptions,
  parseDaySort,
  parsePeriod,
  type DaySort,
} from "~/features/compliance/compliance";
import {
  getOverrideReport,
  getThermostatHistory,
  getWorstDays,
} from "~/features/compliance/compliance.server";
import { settle } from "~/server/api-error";
import { getConfig } from "~/server/config.server";
import { requireSmb } from "~/server/guards.server";
import { getApi, withPrimaryStatus } from "~/server/upstream.server";
import { GeneralErrorBoundary } from "~/ui/error-boundary";
import { Alert, EmptyState, ErrorState } from "~/ui/states";
import { now } from "~/server/clock.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

const REPORT_ERROR = "Unable to load the schedule compliance report. Please try again.";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireSmb(request);
  if (!user.clientId) throw redirect("/");
  const clientId = user.clientId;
  const url = new URL(request.url);
  const today = now();

  // The month picker's Apply: period=month and start = the first day of the chosen month.
  if (url.searchParams.has("pickerMonth") || url.searchParams.has("pickerYear")) {
    const year = Number(url.searchParams.get("pickerYear"));
    const month = Number(url.searchParams.get("pickerMonth"));
    const next = new URLSearchParams(url.searchParams);
    next.delete("pickerYear");
    next.delete("pickerMonth");
    next.set("period", "month");
    // A future or unknown month is refused by parsePeriod with a message next to the picker.
    next.set(
      "start",
      isPickableMonth(year, month, today)
        ? `${year}-${String(month).padStart(2, "0")}-01`
        : `${year}-${String(month || 0).padStart(2, "0")}-00`,
    );
    throw redirect(`${url.pathname}?${next.toString()}`);
  }

  const period = parsePeriod(url.searchParams, today);
  const rawId = params.thermostatId;
  if (rawId !== undefined && !/^\d{1,9}$/.test(rawId)) throw data(null, { status: 404 });
  const thermostatId = rawId ? Number(rawId) : null;
  const api = await getApi(request, context);
  const [report, history, worstDays] = await Promise.all([
    settle(getOverrideReport(api, clientId, period.start, period.end)),
    thermostatId ? settle(getThermostatHistory(api, thermostatId, period.start, period.end)) : null,
    thermostatId ? settle(getWorstDays(api, clientId, thermostatId, period.start, period.end)) : null,
  ]);
  if (thermostatId && history && !history.ok && history.error.status === 404)
    throw data(null, { status: 404 });
  const selected =
    thermostatId && report.ok
      ? (report.data.thermostats.find((t) => t.thermostatId === thermostatId) ?? null)
      : null;
  if (thermostatId && report.ok && !selected) throw data(null, { status: 404 });
  const location = Number(url.searchParams.get("location"));
  const timezone = history?.ok ? history.data.buildingTimezone : "America/New_York";
  const [sy, sm] = period.start.split("-").map(Number);
  return withPrimaryStatus(
    {
      todayIso: today.toISOString().slice(0, 10),
      period,
      report: report.ok ? report.data : null,
      selected,
      history: history ? (history.ok ? { items: history.data.items, timezone } : ("error" as const)) : null,
      rangeMs: {
        start: +new TZDate(sy, sm - 1, 1, 0, 0, timezone),
        end: +new TZDate(sy, sm, 1, 0, 0, timezone),
      },
      worstDays: worstDays ? (worstDays.ok ? worstDays.data : ("error" as const)) : null,
      location: Number.isSafeInteger(location) && location > 0 ? location : null,
      dialog: url.searchParams.get("dialog") === "locations",
      daySort: parseDaySort(url.searchParams.get("daySort")),
      chart: parseChartOptions(url.searchParams),
      helpUrl: getConfig().HELP_URL,
    },
    report,
    history,
  );
}

export const meta: MetaFunction = () => [{ title: "Schedule Compliance · EnergyOps" }];

/** Current query parameters except some, as hidden inputs for a GET form. */
function keepParams(search: string, drop: string[]): [string, string][] {
  return [...new URLSearchParams(search).entries()].filter(([k]) => !drop.includes(k));
}

function withParams(search: string, set: Record<string, string | null>) {
  const p = new URLSearchParams(search);
  for (const [k, v] of Object.entries(set)) {
    if (v === null) p.delete(k);
    else p.set(k, v);
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}

export default function OverrideReport() {
  const d = useLoaderData<typeof loader>();
  const { search, pathname } = useLocation();
  const navigation = useNavigation();
  const loading =
    navigation.state === "loading" &&
    navigation.location.pathname.startsWith("/override-report") &&
    !(navigation.location.pathname === pathname && onlyUiParamsChanged(navigation.location.search, search));
  const selected = d.selected;
  const client = d.report?.client[0];
  const dropForChart = ["chart", "show", "plotBands", "showMarker"];

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
              to={`/override-report${withParams(search, { daySort: null, chart: null, show: null, plotBands: null, showMarker: null })}`}
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
            days={d.worstDays === "error" ? null : d.worstDays}
            sort={d.daySort}
            sortHref={(s: DaySort) => withParams(search, { daySort: `${s.key}:${s.dir}` })}
          />
          {d.history === "error" || d.history === null ? (
            <Alert tone="error">{NO_HISTORY_MESSAGE}</Alert>
          ) : d.history.items.length === 0 ? (
            <Alert tone="warning">{NO_HISTORY_MESSAGE}</Alert>
          ) : (
            <ThermostatChart
              items={d.history.items}
              timezone={d.history.timezone}
              startMs={d.rangeMs.start}
              endMs={d.rangeMs.end}
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
          <LeastCompliantLocations
            buildings={d.report.buildings}
            dialogOpen={d.dialog}
            openHref={withParams(search, { dialog: "locations" })}
            closeHref={withParams(search, { dialog: null })}
          />
          <ThermostatTable
            thermostats={d.report.thermostats}
            buildings={d.report.buildings}
            location={d.location}
            keep={keepParams(search, ["location", "dialog"])}
            viewHref={(id) => `/override-report/${id}${search}`}
          />
        </>
      )}
    </div>
  );
}

/** Sorting days, toggling series or opening the dialog re-render instantly enough: no skeleton for those. */
function onlyUiParamsChanged(a: string, b: string) {
  const strip = (s: string) => {
    const p = new URLSearchParams(s);
    for (const k of ["daySort", "chart", "show", "plotBands", "showMarker", "dialog", "location"])
      p.delete(k);
    return p.toString();
  };
  return strip(a) === strip(b);
}

/** An unknown or another client's thermostat is not found; anything else is the report's error state. */
/** A thermostat that is not the user's: not found; any other failure: the report's error state. */
function ReportError({ notFound }: { notFound: boolean }) {
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

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{ 404: () => <ReportError notFound /> }}
      defaultStatusHandler={() => <ReportError notFound={false} />}
      unexpectedErrorHandler={() => <ReportError notFound={false} />}
    />
  );
}
