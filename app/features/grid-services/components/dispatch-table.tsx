import { Fragment } from "react";
import { Form, Link } from "@remix-run/react";
import { SubmitButton } from "~/ui/pending";
import { Pill } from "~/ui/pill";
import { SortableHeader } from "~/ui/sortable-header";
import {
  ariaSort,
  fullEventTime,
  gridHref,
  toggleOpen,
  toggleSort,
  type DispatchRow,
  type EventTimeView,
  type GridState,
  type SortField,
  OPT_OUT_TEXT,
} from "../grid-services";
import { figureRows, type LocationFiguresView } from "../../../../shared/grid-figures";

const COLUMNS: { field: SortField | null; label: string }[] = [
  { field: "building_address", label: "Location" },
  { field: null, label: "Event type" },
  { field: "status", label: "Status" },
  { field: "precool_start_time", label: "Precool start" },
  { field: "start_time", label: "Start" },
  { field: "end_time", label: "End" },
];

/** An event time, written by the server in the building's timezone (app/lib/local-time.ts). */
function EventTime({ at }: { at: EventTimeView | null }) {
  if (!at) return <>—</>;
  return (
    <time dateTime={at.iso} className="event-time">
      <span>{at.day}</span> <span>{at.time}</span>
    </time>
  );
}

const num = (v: number | null | undefined, unit = "") =>
  v === null || v === undefined ? "—" : `${v}${unit}`;

/** The opt-out's outcome to show on its row: done (after the action's redirect), or the action's refusal. */
export type OptOutOutcome = {
  doneId: number | null;
  error: { dispatchId: number | null; error: string } | null;
};

export function DispatchTable({
  rows,
  state,
  optOut,
}: {
  rows: DispatchRow[];
  state: GridState;
  optOut?: OptOutOutcome;
}) {
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
                  href={gridHref(toggleSort(state, c.field))}
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
          {rows.map((d) => {
            const thermostats = d.thermostats;
            const open = thermostats !== undefined;
            const detailsId = `dispatch-${d.id}-details`;
            return (
              <Fragment key={d.id}>
                <tr id={`event-${d.id}`} data-testid="dispatch-row" className={open ? "row-open" : undefined}>
                  <td className="col-expander">
                    <Link
                      to={gridHref(toggleOpen(state, d.id))}
                      preventScrollReset
                      replace
                      discover="none"
                      className="expand-link"
                      aria-expanded={open}
                      aria-controls={open ? detailsId : undefined}
                    >
                      <span aria-hidden="true">{open ? "▾" : "▸"}</span>
                      <span className="visually-hidden">
                        {`${open ? "Hide" : "Show"} thermostat details for the event at ${d.address}`}
                      </span>
                    </Link>
                  </td>
                  <td className="col-name">
                    <span className="grid-address">{d.address}</span>{" "}
                    {d.internalTest ? <Pill tone="info">Internal test</Pill> : null}{" "}
                    {d.overridden ? <Pill tone="yellow">Overridden thermostats</Pill> : null}
                  </td>
                  <td data-label="Event type">{d.eventType}</td>
                  <td data-label="Status">
                    <Pill tone={d.tone}>{d.status}</Pill>
                  </td>
                  <td data-label="Precool start">
                    <EventTime at={d.precool} />
                  </td>
                  <td data-label="Start">
                    <EventTime at={d.start} />
                  </td>
                  <td data-label="End">
                    <EventTime at={d.end} />
                  </td>
                </tr>
                {thermostats ? (
                  <tr className="grid-details-row">
                    <td colSpan={7} id={detailsId} data-testid="dispatch-details">
                      <dl className="grid-times">
                        <div>
                          <dt>Precool start</dt>
                          <dd>{fullEventTime(d.precool)}</dd>
                        </div>
                        <div>
                          <dt>Start</dt>
                          <dd>{fullEventTime(d.start)}</dd>
                        </div>
                        <div>
                          <dt>End</dt>
                          <dd>{fullEventTime(d.end)}</dd>
                        </div>
                      </dl>
                      <OptOut row={d} outcome={optOut} />
                      {d.figures ? <LocationFigures address={d.address} figures={d.figures} /> : null}
                      {thermostats.length ? (
                        <div className="table-wrap table-cards">
                          <table className="table table-compact">
                            <caption className="visually-hidden">
                              {`Thermostats in the event at ${d.address}`}
                            </caption>
                            <thead>
                              <tr>
                                <th scope="col">Device name</th>
                                <th scope="col">Part in the event</th>
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
                                <th scope="col">Highest indoor</th>
                                <th scope="col">Override</th>
                              </tr>
                            </thead>
                            <tbody>
                              {thermostats.map((t) => (
                                <tr key={t.thermostatId} data-testid="thermostat-insight">
                                  <td className="device-name">{t.deviceName}</td>
                                  <td data-label="Part in the event" data-testid="thermostat-part">
                                    {t.part}
                                  </td>
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
                                  <td data-label="Highest indoor" data-testid="thermostat-highest">
                                    {t.highest}
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

/**
 * The expanded row's opt-out (rule grid-opt-out): while the event allows it, what opting out does and a button
 * that POSTs (the notice's link only opens this row); afterwards, that the location is out; or the refusal.
 */
function OptOut({ row, outcome }: { row: DispatchRow; outcome?: OptOutOutcome }) {
  const error = outcome?.error && outcome.error.dispatchId === row.id ? outcome.error.error : null;
  const done = outcome?.doneId === row.id && !row.optOut;
  if (!row.optOut && !done && !error) return null;
  return (
    <section className="grid-opt-out stack" aria-label={`Opt out of the event at ${row.address}`}>
      {done ? (
        <p role="status" data-testid="opt-out-done">
          {OPT_OUT_TEXT.done}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="field-error" data-testid="opt-out-error">
          {error}
        </p>
      ) : null}
      {row.optOut ? (
        <Form method="post" preventScrollReset className="stack no-print">
          <p className="muted">{OPT_OUT_TEXT.explanation}</p>
          <input type="hidden" name="dispatchId" value={row.id} />
          <input type="hidden" name="buildingId" value={row.optOut.buildingId} />
          <div>
            <SubmitButton className="btn btn-secondary" data-testid="opt-out-button">
              {OPT_OUT_TEXT.button}
            </SubmitButton>
          </div>
        </Form>
      ) : null}
    </section>
  );
}

/**
 * An event's figures at its location (rule grid-event-figures): baseline, actual, reduction and estimated
 * earnings, or why there is none; the method and the days it used on request (a details element: no script).
 */
function LocationFigures({ address, figures: f }: { address: string; figures: LocationFiguresView }) {
  return (
    <section className="grid-figures" data-testid="location-figures" aria-label={`Figures at ${address}`}>
      {f.note ? (
        <p className="grid-figures-note" data-testid="figures-note">
          {f.note}
        </p>
      ) : (
        <dl className="grid-times">
          {figureRows(f).map((r) => (
            <div key={r.key}>
              <dt>{r.label}</dt>
              <dd data-testid={`figure-${r.key}`}>{r.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {f.earningsDetail ? <p className="muted grid-figures-detail">{f.earningsDetail}</p> : null}
      {f.method ? (
        <details className="grid-method" data-testid="grid-method">
          <summary>Method and days used</summary>
          <p>{f.method}</p>
          {f.days.length ? (
            <ul className="grid-days">
              {f.days.map((day) => (
                <li key={day.date} data-used={day.used ? "yes" : "no"}>
                  {`${day.date}: ${day.averageKw}${day.used ? " (used)" : ""}`}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No eligible days.</p>
          )}
        </details>
      ) : null}
    </section>
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
