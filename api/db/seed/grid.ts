import { prng } from "../../lib/prng";
import { wallClockSeconds } from "../../lib/wall-clock";
import { addDays, type SeedContext } from "./context";
import { HARBOR_BUILDING_ROWS } from "./core";
import { THERMOSTAT_ROWS } from "./devices";
import { CLIENT, HARBOR_BUILDINGS } from "./ids";

const EVENT_TYPES = ["demand_response", "peak_shaving", "capacity_event"];
/** An upstream status web does not know: shown as 'No status available'. */
export const UNKNOWN_DISPATCH_STATUS = "CANCELLED_BY_UTILITY";

/**
 * The demo's demand-response program and its rates: our estimate of Con Edison's Commercial System Relief
 * Program (reservation $18.00 per pledged kW-month, performance $1.00 per kWh), named on the page as an
 * estimate, not a statement from the utility.
 */
export const DEMO_PROGRAM = {
  id: 1,
  name: "Commercial System Relief Program",
  utility: "Con Edison",
  reservationCentsPerKwMonth: 1800,
  performanceCentsPerKwh: 100,
};

/** The location of the pending event tomorrow (the notice before): Harbor Coffee Mission, three thermostats. */
export const TOMORROW_EVENT_BUILDING = 104;

export type PlannedThermostat = {
  id: number;
  precoolSetpoint: number | null;
  targetSetpoint: number;
  observed: number | null;
  minutes: number | null;
  overridden: boolean;
  overriddenAt: Date | null;
  overrideSetpoint: number | null;
  maxIndoorF: number | null;
  /** The load this thermostat's unit sheds while it takes part, kW (precooling adds half of it). */
  sheddingKw: number;
};
export type PlannedEvent = {
  id: number;
  building: number;
  status: string;
  eventType: string;
  internal: boolean;
  precool: Date | null;
  start: Date;
  end: Date;
  thermostats: PlannedThermostat[];
};

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * The grid-services dispatches of Harbor Coffee Co. (see seedGrid), as a pure function of the day: the usage
 * seed (api/db/seed/usage.ts) reads the same plan to shape the load of each event's hours, so the measured
 * figures (shared/grid-performance.ts) come out of the data as they would from a meter.
 */
export function planGridEvents(today: Date): PlannedEvent[] {
  const rand = prng(60606);
  const june1 = new Date(Date.UTC(today.getUTCFullYear(), 5, 1));
  const byBuilding = new Map<number, number[]>();
  for (const t of THERMOSTAT_ROWS) {
    if (t.unlinked) continue;
    byBuilding.set(t.building, [...(byBuilding.get(t.building) ?? []), t.id]);
  }
  const events: PlannedEvent[] = [];
  let id = 2;
  // Past events every 2 to 4 days from June 1 until yesterday, then a few upcoming ones (PENDING). Events
  // start between 18:00 and 21:00 UTC and last at most 3 hours, so yesterday's have ended by midnight; none
  // is put on today, where it could be running (or not) depending on the hour.
  let day = addDays(june1, 1);
  const end = addDays(today, 12);
  while (day < end) {
    if (day.getTime() === today.getTime()) day = addDays(today, 1);
    const future = day > today;
    const building = HARBOR_BUILDINGS[Math.floor(rand() * HARBOR_BUILDINGS.length)];
    const thermostats = byBuilding.get(building) ?? [];
    const r = rand();
    let status: string;
    if (future) status = "PENDING";
    else if (thermostats.length === 0) status = "NO DEVICES";
    else if (r < 0.62) status = "SUCCESS";
    else if (r < 0.78) status = "OPT_OUT";
    else if (r < 0.88) status = "NO DEVICES";
    else status = UNKNOWN_DISPATCH_STATUS;
    const startHourUtc = 18 + Math.floor(rand() * 4);
    const start = new Date(day.getTime() + startHourUtc * 3_600_000);
    const durationMin = [60, 90, 120, 180][Math.floor(rand() * 4)];
    const endTime = new Date(start.getTime() + durationMin * 60_000);
    const precool = rand() < 0.85 ? new Date(start.getTime() - 60 * 60_000) : null;
    const internal = rand() < 0.15;
    const eventType = EVENT_TYPES[Math.floor(rand() * EVENT_TYPES.length)];
    const planned: PlannedThermostat[] = [];
    if (status !== "NO DEVICES") {
      for (const t of thermostats) {
        const target = 76 + Math.floor(rand() * 4);
        const precoolSp = precool ? target - 4 : null;
        const overridden = status === "SUCCESS" || status === "OPT_OUT" ? rand() < 0.3 : false;
        const minutes =
          future || status === "PENDING"
            ? null
            : status === "OPT_OUT"
              ? 0
              : overridden
                ? Math.floor(durationMin * (0.2 + rand() * 0.5))
                : durationMin;
        const observed = future ? null : Math.round((70 + rand() * 5) * 10) / 10;
        // What the thermostat reported of the event, from its own generator (the sequence above is unchanged).
        const own = prng(id * 10_000 + t);
        const h = own();
        const sheddingKw = round1(0.9 + own() * 0.7);
        const tookPart = status === "SUCCESS" && !future;
        const overriddenAt =
          overridden && minutes !== null && minutes > 0 ? new Date(start.getTime() + minutes * 60_000) : null;
        planned.push({
          id: t,
          precoolSetpoint: precoolSp,
          targetSetpoint: target,
          observed,
          minutes,
          overridden,
          overriddenAt,
          overrideSetpoint: overriddenAt ? target - 5 : null,
          maxIndoorF: future
            ? null
            : overriddenAt
              ? round1(target + 0.5 + h)
              : tookPart
                ? round1(target - 1.5 + h * 1.4)
                : round1((observed ?? 72) + 0.4 + h),
          sheddingKw,
        });
      }
    }
    events.push({
      id,
      building,
      status,
      eventType,
      internal,
      precool,
      start,
      end: endTime,
      thermostats: planned,
    });
    id += 1;
    day = addDays(day, 2 + Math.floor(rand() * 3));
  }
  // The notice before needs an event tomorrow: one at Harbor Coffee Mission unless the schedule has one.
  const tomorrow = addDays(today, 1);
  if (!events.some((e) => e.start >= tomorrow && e.start < addDays(tomorrow, 1))) {
    const start = new Date(tomorrow.getTime() + 19 * 3_600_000);
    events.push({
      id,
      building: TOMORROW_EVENT_BUILDING,
      status: "PENDING",
      eventType: "demand_response",
      internal: false,
      precool: new Date(start.getTime() - 3_600_000),
      start,
      end: new Date(start.getTime() + 2 * 3_600_000),
      thermostats: (byBuilding.get(TOMORROW_EVENT_BUILDING) ?? []).map((t) => ({
        id: t,
        precoolSetpoint: 73,
        targetSetpoint: 77,
        observed: null,
        minutes: null,
        overridden: false,
        overriddenAt: null,
        overrideSetpoint: null,
        maxIndoorF: null,
        sheddingKw: 1.2,
      })),
    });
  }
  return events;
}

/** The past events that took part and were paid (not internal tests), most recent first. */
const paidEvents = (events: PlannedEvent[]) =>
  events.filter((e) => e.status === "SUCCESS" && !e.internal).sort((a, b) => +b.start - +a.start);

/**
 * The past event whose location has no demand data for the event hours (a meter outage): the second most
 * recent paid event without an override, so the page shows "no data" instead of a figure for it.
 */
export function noDataEvent(events: PlannedEvent[]): PlannedEvent | undefined {
  return paidEvents(events).filter((e) => !e.thermostats.some((t) => t.overridden))[1];
}

const timezoneOf = new Map(HARBOR_BUILDING_ROWS.map((b) => [b[0], b[9]]));
const STEP_MS = 900_000;

/**
 * How each event shapes its location's 15-minute demand (the usage seed applies it): while a thermostat takes
 * part its unit sheds `sheddingKw` (until its override, pro rata within the interval), and precooling adds
 * half of that in the hour before. Keys are wall-clock seconds (usage_intervals.ts). Also the intervals left
 * without data (`noDataEvent`).
 */
export function gridLoadEffects(today: Date) {
  const events = planGridEvents(today);
  const deltas = new Map<number, Map<number, number>>();
  const gaps = new Map<number, Set<number>>();
  const add = (building: number, ms: number, kw: number) => {
    const tz = timezoneOf.get(building);
    const ts = wallClockSeconds(ms, tz);
    const m = deltas.get(building) ?? new Map<number, number>();
    m.set(ts, (m.get(ts) ?? 0) + kw);
    deltas.set(building, m);
  };
  for (const e of events) {
    if (e.status !== "SUCCESS") continue;
    for (const t of e.thermostats) {
      if (e.precool)
        for (let ms = +e.precool; ms < +e.start; ms += STEP_MS) add(e.building, ms, t.sheddingKw / 2);
      const until = t.overriddenAt ? +t.overriddenAt : +e.end;
      for (let ms = +e.start; ms < +e.end; ms += STEP_MS) {
        const share = Math.max(0, Math.min(1, (until - ms) / STEP_MS));
        if (share > 0) add(e.building, ms, -t.sheddingKw * share);
      }
    }
  }
  const missing = noDataEvent(events);
  if (missing) {
    const set = new Set<number>();
    for (let ms = +missing.start; ms < +missing.end; ms += STEP_MS)
      set.add(wallClockSeconds(ms, timezoneOf.get(missing.building)));
    gaps.set(missing.building, set);
  }
  return { deltas, gaps };
}

/**
 * Grid-services dispatches of Harbor Coffee Co. from June 1 of this year (ids from 2; dispatch 1, the one
 * under way, is seeded by devices.ts): every status, internal tests, overridden thermostats (when and to
 * what), per-thermostat details and the highest indoor temperature, all in the demo program. Relative to the
 * api clock's `now` (api/lib/clock.ts), whatever the hour: past events end before today began and have final
 * statuses (SUCCESS, OPT_OUT, NO DEVICES or one the web does not know); upcoming ones start tomorrow or later
 * and are PENDING, one of them tomorrow. Only dispatch 1 is running.
 */
export function seedGrid(ctx: SeedContext) {
  const { db, today } = ctx;
  db.prepare(
    `INSERT INTO grid_programs (id, name, utility, reservation_cents_per_kw_month, performance_cents_per_kwh, estimated)
     VALUES (?, ?, ?, ?, ?, 1)`,
  ).run(
    DEMO_PROGRAM.id,
    DEMO_PROGRAM.name,
    DEMO_PROGRAM.utility,
    DEMO_PROGRAM.reservationCentsPerKwMonth,
    DEMO_PROGRAM.performanceCentsPerKwh,
  );
  db.prepare("UPDATE dispatches SET program_id = ? WHERE client_id = ?").run(DEMO_PROGRAM.id, CLIENT.harbor);
  const insert = db.prepare(
    `INSERT INTO dispatches (id, client_id, building_id, status, event_type, is_internal_test, precool_start_time, start_time, end_time, program_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertDt = db.prepare(
    `INSERT INTO dispatch_thermostats (dispatch_id, thermostat_id, precool_setpoint, target_setpoint, pre_event_observed,
       participating_minutes, was_overridden, overridden_at, override_setpoint, max_indoor_f)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const e of planGridEvents(today)) {
    insert.run(
      e.id,
      CLIENT.harbor,
      e.building,
      e.status,
      e.eventType,
      e.internal ? 1 : 0,
      e.precool?.toISOString() ?? null,
      e.start.toISOString(),
      e.end.toISOString(),
      DEMO_PROGRAM.id,
    );
    for (const t of e.thermostats)
      insertDt.run(
        e.id,
        t.id,
        t.precoolSetpoint,
        t.targetSetpoint,
        t.observed,
        t.minutes,
        t.overridden ? 1 : 0,
        t.overriddenAt?.toISOString() ?? null,
        t.overrideSetpoint,
        t.maxIndoorF,
      );
  }
}
