import { Link } from "@remix-run/react";
import { Fragment } from "react";
import { Pill } from "~/ui/pill";
import { SortableHeader } from "~/ui/sortable-header";
import {
  ariaSort,
  dispatchStatusLabel,
  dispatchStatusTone,
  eventTimeParts,
  eventTypeLabel,
  formatEventTime,
  gridSearch,
  toggleOpen,
  toggleSort,
  type GridState,
  type SortField,
} from "../grid-services";
import type { DispatchInsight } from "../grid-services.server";

const COLUMNS: { field: SortField | null; label: string }[] = [
  { field: "building_address", label: "Location" },
  { field: null, label: "Event type" },
  { field: "status", label: "Status" },
  { field: "precool_start_time", label: "Precool start" },
  { field: "start_time", label: "Start" },
  { field: "end_time", label: "End" },
];

function EventTime({ iso, tz }: { iso: string | null | undefined; tz: string | null | undefined }) {
  const parts = eventTimeParts(iso, tz);
  if (!parts || !iso) return <>—</>;
  return (
    <time dateTime={iso} className="event-time">
      <span>{parts[0]}</span> <span>{parts[1]}</span>
    </time>
  );
}

const num = (v: number | null | undefined, unit = "") =>
  v === null || v === undefined ? "—" : `${v}${unit}`;

export function DispatchTable({ items, state }: { items: DispatchInsight[]; state: GridState }) {
  return (
    <div className="table-wrap table-cards-wide">
      <table className="table grid-table" data-testid="dispatch-table">
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Details</span>
            </th>
            {COLUMNS.map((c) =>
              c.field ? (
                <SortableHeader
                  key={c.label}
                  label={c.label}
                  sort={ariaSort(state, c.field)}
                  href={gridSearch(toggleSort(state, c.field))}
                />
              ) : (
                <th key={c.label} scope="col">
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {items.map((d) => {
            const open = state.open.includes(d.id);
            const detailsId = `dispatch-${d.id}-details`;
            const tz = d.buildingTimezone;
            return (
              <Fragment key={d.id}>
                <tr data-testid="dispatch-row" className={open ? "row-open" : undefined}>
                  <td className="col-expander">
                    <Link
                      to={gridSearch(toggleOpen(state, d.id))}
                      preventScrollReset
                      replace
                      className="expand-link"
                      aria-expanded={open}
                      aria-controls={open ? detailsId : undefined}
                    >
                      <span aria-hidden="true">{open ? "▾" : "▸"}</span>
                      <span className="visually-hidden">
                        {open ? "Hide" : "Show"} thermostat details for the event at {d.buildingAddress}
                      </span>
                    </Link>
                  </td>
                  <td className="col-name">
                    <span className="grid-address">{d.buildingAddress}</span>{" "}
                    {d.isInternalTest ? <Pill tone="info">Internal test</Pill> : null}{" "}
                    {d.wereOverriddenThermostats ? <Pill tone="yellow">Overridden thermostats</Pill> : null}
                  </td>
                  <td data-label="Event type">{d.eventType ? eventTypeLabel(d.eventType) : "—"}</td>
                  <td data-label="Status">
                    <Pill tone={dispatchStatusTone(d.status, d.running)}>
                      {dispatchStatusLabel(d.status, d.running)}
                    </Pill>
                  </td>
                  <td data-label="Precool start">
                    <EventTime iso={d.precoolStartTime} tz={tz} />
                  </td>
                  <td data-label="Start">
                    <EventTime iso={d.startTime} tz={tz} />
                  </td>
                  <td data-label="End">
                    <EventTime iso={d.endTime} tz={tz} />
                  </td>
                </tr>
                {open ? (
                  <tr className="grid-details-row">
                    <td colSpan={7} id={detailsId} data-testid="dispatch-details">
                      <dl className="grid-times">
                        <div>
                          <dt>Precool start</dt>
                          <dd>{formatEventTime(d.precoolStartTime, tz)}</dd>
                        </div>
                        <div>
                          <dt>Start</dt>
                          <dd>{formatEventTime(d.startTime, tz)}</dd>
                        </div>
                        <div>
                          <dt>End</dt>
                          <dd>{formatEventTime(d.endTime, tz)}</dd>
                        </div>
                      </dl>
                      {d.thermostatActionsInsights?.length ? (
                        <div className="table-wrap table-cards">
                          <table className="table table-compact">
                            <caption className="visually-hidden">
                              Thermostats in the event at {d.buildingAddress}
                            </caption>
                            <thead>
                              <tr>
                                <th scope="col">Device name</th>
                                <th scope="col" className="num">
                                  Precool setpoint
                                </th>
                                <th scope="col" className="num">
                                  Target setpoint
                                </th>
                                <th scope="col" className="num">
                                  Observed pre-event
                                </th>
                                <th scope="col" className="num">
                                  Participating minutes
                                </th>
                                <th scope="col">Override</th>
                              </tr>
                            </thead>
                            <tbody>
                              {d.thermostatActionsInsights.map((t) => (
                                <tr key={t.thermostatId} data-testid="thermostat-insight">
                                  <td className="device-name">{t.deviceName}</td>
                                  <td className="num" data-label="Precool setpoint">
                                    {num(t.precoolSetpoint, "°F")}
                                  </td>
                                  <td className="num" data-label="Target setpoint">
                                    {num(t.targetSetpoint, "°F")}
                                  </td>
                                  <td className="num" data-label="Observed pre-event">
                                    {num(t.preEventObserved, "°F")}
                                  </td>
                                  <td className="num" data-label="Participating minutes">
                                    {num(t.participatingMinutes)}
                                  </td>
                                  <td data-label="Override">
                                    {t.wasOverridden ? (
                                      <Pill tone="yellow">Overridden</Pill>
                                    ) : (
                                      <span className="muted">No</span>
                                    )}
                                  </td>
                                </tr>
                              ))}
                            </tbody>
                          </table>
                        </div>
                      ) : (
                        <p className="muted">No thermostats took part in this event.</p>
                      )}
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function DispatchTableSkeleton() {
  return (
    <div className="table-wrap" aria-busy="true" data-testid="grid-skeleton">
      <span className="visually-hidden">Loading events</span>
      {Array.from({ length: 8 }, (_, i) => (
        <div key={i} className="skeleton skeleton-row" />
      ))}
    </div>
  );
}
