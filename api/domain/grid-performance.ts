import type { DB } from "../db";
import { wallClockSeconds } from "../lib/wall-clock";
import {
  CBL_LOOKBACK_DAYS,
  dateOf,
  eventEarnings,
  measureEvent,
  type Earnings,
  type EventMeasure,
} from "../../shared/grid-performance";

/**
 * Each grid event measured from its location's 15-minute demand data (rules grid-cbl, grid-event-reduction,
 * grid-event-earnings, docs/rules.md): the api's side, which reads the rows the pure rules need.
 */

export type DispatchForMeasure = {
  id: number;
  building_id: number;
  building_timezone: string | null;
  status: string;
  is_internal_test: number;
  start_time: string;
  end_time: string;
  program_id: number | null;
};

type ProgramRow = {
  id: number;
  name: string;
  utility: string;
  reservation_cents_per_kw_month: number;
  performance_cents_per_kwh: number;
  estimated: number;
};

export type DispatchPerformance = {
  /** measured | no_data | not_enough_days | not_measured (the event did not take part, or has not ended). */
  measurement: "measured" | "no_data" | "not_enough_days" | "not_measured";
  measure: EventMeasure | null;
  /** Paid events of the location in the same local month (the reservation's share). */
  eventsInMonth: number;
  earnings: Earnings | null;
  program: ProgramRow | null;
};

const DAY_S = 86_400;

/** The program of each id (one query). */
function programs(db: DB, ids: (number | null)[]) {
  const wanted = [...new Set(ids.filter((i): i is number => i !== null))];
  if (wanted.length === 0) return new Map<number, ProgramRow>();
  const rows = db
    .prepare(`SELECT * FROM grid_programs WHERE id IN (${wanted.map(() => "?").join(",")})`)
    .all(...wanted) as ProgramRow[];
  return new Map(rows.map((r) => [r.id, r]));
}

/** Whether an event is paid: it took part, ended, and is not an internal test. */
const isPaid = (d: { status: string; is_internal_test: number }) =>
  d.status === "SUCCESS" && d.is_internal_test === 0;

/**
 * The figures of each dispatch (keyed by id): only events that took part and have ended (`SUCCESS`) are
 * measured; internal tests are measured but earn nothing. The baseline excludes every day on which the
 * location had a dispatch, whatever its status (ConEd's "event days"); the demo data has no holiday calendar.
 */
export function measureDispatches(db: DB, dispatches: DispatchForMeasure[]) {
  const out = new Map<number, DispatchPerformance>();
  const progs = programs(
    db,
    dispatches.map((d) => d.program_id),
  );
  const eventDays = db.prepare(
    "SELECT start_time, status, is_internal_test FROM dispatches WHERE building_id = ? AND start_time >= ? AND start_time < ?",
  );
  const intervals = db.prepare(
    `SELECT ts, kw FROM usage_intervals WHERE building_id = ? AND ts >= ? AND ts < ? AND (ts % 86400) >= ? AND (ts % 86400) < ?`,
  );
  for (const d of dispatches) {
    const program = d.program_id === null ? null : (progs.get(d.program_id) ?? null);
    if (d.status !== "SUCCESS") {
      out.set(d.id, {
        measurement: "not_measured",
        measure: null,
        eventsInMonth: 0,
        earnings: null,
        program,
      });
      continue;
    }
    const tz = d.building_timezone;
    const startS = wallClockSeconds(Date.parse(d.start_time), tz);
    const endS = wallClockSeconds(Date.parse(d.end_time), tz);
    const fromS = startS - (CBL_LOOKBACK_DAYS + 1) * DAY_S;
    const [tod0, tod1] = [startS % DAY_S, endS % DAY_S];
    const sameDay = tod0 < tod1 && endS - startS < DAY_S;
    const rows = intervals.all(d.building_id, fromS, endS, sameDay ? tod0 : 0, sameDay ? tod1 : DAY_S) as {
      ts: number;
      kw: number;
    }[];
    const load = new Map(rows.map((r) => [r.ts, r.kw]));
    // Event days of the look-back and the month: from 40 days before to 40 days after (UTC instants).
    const around = eventDays.all(
      d.building_id,
      new Date(Date.parse(d.start_time) - 40 * DAY_S * 1000).toISOString(),
      new Date(Date.parse(d.start_time) + 40 * DAY_S * 1000).toISOString(),
    ) as { start_time: string; status: string; is_internal_test: number }[];
    const excludedDates = new Set<string>();
    const month = dateOf(startS).slice(0, 7);
    let eventsInMonth = 0;
    for (const e of around) {
      const local = wallClockSeconds(Date.parse(e.start_time), tz);
      excludedDates.add(dateOf(local));
      if (isPaid(e) && dateOf(local).slice(0, 7) === month) eventsInMonth += 1;
    }
    const measure = measureEvent({ startS, endS, load, excludedDates });
    const earnings =
      measure.kind === "measured" && program && isPaid(d)
        ? eventEarnings(
            measure,
            {
              reservationCentsPerKwMonth: program.reservation_cents_per_kw_month,
              performanceCentsPerKwh: program.performance_cents_per_kwh,
            },
            eventsInMonth,
          )
        : null;
    out.set(d.id, { measurement: measure.kind, measure, eventsInMonth, earnings, program });
  }
  return out;
}

const r2 = (n: number) => Math.round(n * 100) / 100;

/** A dispatch's figures as the api answers them (docs/api/grid.md). */
export function performanceJson(p: DispatchPerformance) {
  const m = p.measure;
  const baseline = m && m.kind !== "no_data" ? m.baseline : null;
  return {
    measurement: p.measurement,
    baseline_kw: m?.kind === "measured" ? r2(m.baseline.kw) : null,
    actual_kw: m && m.kind !== "no_data" ? r2(m.actualKw) : null,
    kw_reduced: m?.kind === "measured" ? r2(m.kwReduced) : null,
    kwh_reduced: m?.kind === "measured" ? r2(m.kwhReduced) : null,
    hours: m?.kind === "measured" ? m.hours : null,
    cbl_method: baseline?.method ?? null,
    cbl_days: baseline
      ? baseline.eligible.map((day) => ({
          date: day.date,
          average_kw: r2(day.averageKw),
          used: baseline.kind === "baseline" && baseline.used.includes(day),
        }))
      : [],
    events_in_month: p.eventsInMonth,
    earnings: p.earnings
      ? {
          reservation_cents: p.earnings.reservationCents,
          performance_cents: p.earnings.performanceCents,
          total_cents: p.earnings.totalCents,
        }
      : null,
    program: p.program
      ? {
          name: p.program.name,
          utility: p.program.utility,
          reservation_cents_per_kw_month: p.program.reservation_cents_per_kw_month,
          performance_cents_per_kwh: p.program.performance_cents_per_kwh,
          estimated: p.program.estimated === 1,
        }
      : null,
  };
}
