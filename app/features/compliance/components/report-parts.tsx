import { Form, Link, useSubmit } from "@remix-run/react";
import { ariaSortOf, SortableHeader } from "~/ui/sortable-header";
import { Tooltip } from "~/ui/tooltip";
import { Pager } from "~/ui/pager";
import { UrlDialog } from "~/ui/url-dialog";
import {
  AUTO_RESETS_TOOLTIP,
  barWidth,
  COMPLIANCE_LEVEL_LABELS,
  complianceLevel,
  formatDay,
  formatPercent,
  NO_HISTORY_MESSAGE,
  nextDaySort,
  nextThermostatSort,
  rankedCompliance,
  sortDays,
  type BuildingCompliance,
  type DaySort,
  type DaySortKey,
  type ThermostatSort,
  type ThermostatSortKey,
  type WorstDay,
} from "../compliance";
import { SubmitButton } from "~/ui/pending";
import { Alert } from "~/ui/states";

export function ComplianceCards({
  compliance,
  autoResets,
}: {
  compliance: number | null;
  autoResets: number;
}) {
  return (
    <div className="card-grid compliance-cards">
      <section className="card stat-card" aria-labelledby="card-compliance">
        <h2 id="card-compliance">Schedule Compliance</h2>
        <p className="stat" data-testid="schedule-compliance">
          {formatPercent(compliance)}
        </p>
      </section>
      <section className="card stat-card" aria-labelledby="card-resets">
        <h2 id="card-resets">
          Auto Resets{" "}
          <Tooltip content={AUTO_RESETS_TOOLTIP}>
            <span aria-hidden="true" className="info-dot">
              i
            </span>
            <span className="visually-hidden">About Auto Resets</span>
          </Tooltip>
        </h2>
        <p className="stat" data-testid="auto-resets">
          {autoResets}
        </p>
      </section>
    </div>
  );
}

function LocationBars({ buildings, testId }: { buildings: BuildingCompliance[]; testId: string }) {
  return (
    <ul className="location-bars" data-testid={testId}>
      {buildings.map((b) => {
        const value = rankedCompliance(b);
        const level = complianceLevel(b);
        return (
          <li key={b.buildingId} data-level={level}>
            <div className="location-bar-label">
              <span>{b.addressLine1}</span>
              <strong>
                {b.reachableDuration ? formatPercent(b.scheduleCompliancePercentage) : "No reachable time"}
                {level === "none" ? null : (
                  <>
                    {" "}
                    <span className={`compliance-level compliance-level-${level}`}>
                      {COMPLIANCE_LEVEL_LABELS[level]}
                    </span>
                  </>
                )}
              </strong>
            </div>
            <div className="location-bar-track" aria-hidden="true">
              <div
                className={`location-bar location-bar-${level}`}
                style={{ width: `${barWidth(value)}%` }}
              />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export function LeastCompliantLocations({
  worst,
  all,
  dialogOpen,
  openHref,
  closeHref,
}: {
  /** The least compliant few, worst first. */
  worst: BuildingCompliance[];
  /** Every location, least compliant first: only while the dialog is open (the server sends them then). */
  all: BuildingCompliance[] | null;
  dialogOpen: boolean;
  openHref: string;
  closeHref: string;
}) {
  return (
    <section className="card stack" aria-labelledby="worst-locations">
      <div className="row section-head">
        <h2 id="worst-locations">Least Compliant Locations</h2>
        <Link
          to={openHref}
          preventScrollReset
          replace
          className="btn btn-ghost btn-small"
          data-testid="view-all-locations"
        >
          View all locations
        </Link>
      </div>
      {worst.length === 0 ? (
        <p className="muted">N/A</p>
      ) : (
        <LocationBars buildings={worst} testId="worst-locations" />
      )}
      <UrlDialog
        open={dialogOpen}
        closeHref={closeHref}
        title="All locations"
        full
        description="Schedule compliance of every location, least compliant first."
      >
        {all ? <LocationBars buildings={all} testId="all-locations" /> : null}
      </UrlDialog>
    </section>
  );
}

export type ThermostatRow = {
  thermostatId: number;
  buildingId: number;
  addressLine1: string;
  deviceName: string;
  scheduleCompliancePercentage: number | null;
  permanentHoldCount: number;
  autoResetCount: number;
  reachableDuration: number;
};

export function ThermostatTable({
  table,
  locationOptions,
  locationCount,
  location,
  query,
  keep,
  sort,
  sortHref,
  viewHref,
  pageHref,
}: {
  /** One page of the table, filtered and paged on the server. */
  table: { rows: ThermostatRow[]; page: number; pages: number; matched: number };
  /** The filter's list of locations, or null past 15 locations (then the filter is a search). */
  locationOptions: { buildingId: number; addressLine1: string }[] | null;
  locationCount: number;
  location: number | null;
  query: string;
  keep: [string, string][];
  sort: ThermostatSort;
  sortHref: (s: ThermostatSort) => string;
  viewHref: (id: number) => string;
  pageHref: (page: number) => string;
}) {
  const submit = useSubmit();
  const rows = table.rows;
  const sortHeader = (key: ThermostatSortKey, label: string, className?: string) => (
    <SortableHeader
      label={label}
      sort={ariaSortOf(sort.key === key, sort.dir)}
      href={sortHref(nextThermostatSort(sort, key))}
      className={className}
      replace
    />
  );
  return (
    <section className="card stack" aria-labelledby="by-thermostat">
      <h2 id="by-thermostat">Compliance by Thermostat</h2>
      <Form method="get" className="row location-filter" preventScrollReset>
        {keep.map(([k, v], i) => (
          <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
        ))}
        <label htmlFor="location-filter">Location</label>
        {locationOptions ? (
          <select
            id="location-filter"
            name="location"
            className="select"
            defaultValue={location ?? ""}
            onChange={(e) => submit(e.currentTarget.form, { replace: true, preventScrollReset: true })}
          >
            <option value="">All locations</option>
            {locationOptions.map((b) => (
              <option key={b.buildingId} value={b.buildingId}>
                {b.addressLine1}
              </option>
            ))}
          </select>
        ) : (
          <input
            id="location-filter"
            type="search"
            name="q"
            className="input"
            defaultValue={query}
            placeholder={`Search ${locationCount} locations`}
            maxLength={100}
          />
        )}
        <SubmitButton className="btn btn-secondary btn-small">Filter</SubmitButton>
      </Form>
      {rows.length === 0 ? (
        <p className="muted">No thermostats found.</p>
      ) : (
        <div className="table-wrap table-cards-wide">
          <table className="table thermostat-table" data-testid="thermostat-table">
            <thead>
              <tr>
                {sortHeader("location", "Location")}
                <th scope="col">Thermostat</th>
                {sortHeader("compliance", "Compliance", "num")}
                {sortHeader("holds", "Holds", "num")}
                {sortHeader("resets", "Auto Resets", "num")}
                <th scope="col" className="col-action">
                  <span className="visually-hidden">Detail</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <tr key={t.thermostatId} data-testid="thermostat-row">
                  <td data-label="Location">{t.addressLine1}</td>
                  <td data-label="Thermostat">{t.deviceName}</td>
                  <td className="num" data-label="Compliance">
                    {formatPercent(t.scheduleCompliancePercentage)}
                  </td>
                  <td className="num" data-label="Holds">
                    {t.permanentHoldCount}
                  </td>
                  <td className="num" data-label="Auto Resets">
                    {t.autoResetCount}
                  </td>
                  <td className="col-action">
                    {t.reachableDuration > 0 ? (
                      <Link
                        to={viewHref(t.thermostatId)}
                        replace
                        className="btn btn-small"
                        aria-label={`VIEW ${t.deviceName} at ${t.addressLine1}`}
                      >
                        VIEW
                      </Link>
                    ) : (
                      <button
                        type="button"
                        className="btn btn-small"
                        disabled
                        aria-label={`VIEW ${t.deviceName} at ${t.addressLine1} (no reachable time)`}
                      >
                        VIEW
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {table.pages > 1 ? (
        <Pager
          page={table.page}
          pages={table.pages}
          label="Pages of thermostats"
          status={`Page ${table.page} of ${table.pages} · ${table.matched} thermostats`}
          href={pageHref}
          testId="thermostats-pager"
        />
      ) : null}
    </section>
  );
}

export function WorstDaysTable({
  days,
  sort,
  sortHref,
  dayHref,
  selectedDay,
}: {
  /** The month's least compliant days; "error" when they could not be read (not the same as none). */
  days: WorstDay[] | "error" | null;
  sort: DaySort;
  sortHref: (s: DaySort) => string;
  /** Where a row's date goes: that day in the Thermostat Settings chart (a plain link, with or without JavaScript). */
  dayHref: (date: string) => string;
  /** The day the chart shows, or null when it shows the month. */
  selectedDay: string | null;
}) {
  const header = (key: DaySortKey, label: string) => (
    <SortableHeader
      label={label}
      sort={ariaSortOf(sort.key === key, sort.dir)}
      href={sortHref(nextDaySort(sort, key))}
      className="num"
      replace
    />
  );
  return (
    <section className="card stack" aria-labelledby="worst-days">
      <h2 id="worst-days">Least Compliant Days</h2>
      {days === "error" ? (
        // A failed read is not "no data": the report's error state, not the empty table's N/A.
        <Alert tone="error">{NO_HISTORY_MESSAGE}</Alert>
      ) : !days || days.length === 0 ? (
        <p data-testid="worst-days-empty">N/A</p>
      ) : (
        <div className="table-wrap table-cards">
          <table className="table" data-testid="worst-days">
            <thead>
              <tr>
                <th scope="col">DATE</th>
                {header("compliance", "COMPLIANCE")}
                {header("holds", "HOLDS")}
              </tr>
            </thead>
            <tbody>
              {sortDays(days, sort).map((d) => (
                <tr key={d.date} data-testid="worst-day">
                  <td className="day">
                    <Link
                      to={dayHref(d.date)}
                      aria-current={d.date === selectedDay ? "page" : undefined}
                      aria-label={`${formatDay(d.date)}: show this day in the Thermostat Settings chart`}
                    >
                      {formatDay(d.date)}
                    </Link>
                  </td>
                  <td className="num" data-label="COMPLIANCE">
                    {formatPercent(d.scheduleCompliancePercentage)}
                  </td>
                  <td className="num" data-label="HOLDS">
                    {d.permanentHoldCount ?? 0}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function ReportSkeleton() {
  return (
    <div className="stack" aria-busy="true" data-testid="report-skeleton">
      <span className="visually-hidden">Loading the report</span>
      <div className="card-grid compliance-cards">
        <div className="skeleton skeleton-card" />
        <div className="skeleton skeleton-card" />
      </div>
      <div className="skeleton skeleton-block" />
      <div className="skeleton skeleton-block" />
    </div>
  );
}
