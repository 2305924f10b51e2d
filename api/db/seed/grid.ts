import { prng } from "../../lib/prng";
import { addDays, type SeedContext } from "./context";
import { THERMOSTAT_ROWS } from "./devices";
import { CLIENT, HARBOR_BUILDINGS } from "./ids";

const EVENT_TYPES = ["demand_response", "peak_shaving", "capacity_event"];
/** An upstream status web does not know: shown as 'No status available'. */
export const UNKNOWN_DISPATCH_STATUS = "CANCELLED_BY_UTILITY";

/**
 * Grid-services dispatches of Harbor Coffee Co. from June 1 of this year (ids from 2; dispatch 1, the one
 * under way, is seeded by devices.ts): every status, internal tests, overridden thermostats, per-thermostat
 * details. Relative to the api clock's `now` (api/lib/clock.ts), whatever the hour: past events end before
 * today began and have final statuses (SUCCESS, OPT_OUT, NO DEVICES or one the web does not know); upcoming
 * ones start tomorrow or later and are PENDING. Only dispatch 1 is running.
 */
export function seedGrid(ctx: SeedContext) {
  const { db, today } = ctx;
  const rand = prng(60606);
  const june1 = new Date(Date.UTC(today.getUTCFullYear(), 5, 1));
  const insert = db.prepare(
    `INSERT INTO dispatches (id, client_id, building_id, status, event_type, is_internal_test, precool_start_time, start_time, end_time)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertDt = db.prepare(
    `INSERT INTO dispatch_thermostats (dispatch_id, thermostat_id, precool_setpoint, target_setpoint, pre_event_observed, participating_minutes, was_overridden)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const byBuilding = new Map<number, number[]>();
  for (const t of THERMOSTAT_ROWS) {
    if (t.unlinked) continue;
    byBuilding.set(t.building, [...(byBuilding.get(t.building) ?? []), t.id]);
  }
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
    const internal = rand() < 0.15 ? 1 : 0;
    insert.run(
      id,
      CLIENT.harbor,
      building,
      status,
      EVENT_TYPES[Math.floor(rand() * EVENT_TYPES.length)],
      internal,
      precool?.toISOString() ?? null,
      start.toISOString(),
      endTime.toISOString(),
    );
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
        insertDt.run(id, t, precoolSp, target, observed, minutes, overridden ? 1 : 0);
      }
    }
    id += 1;
    day = addDays(day, 2 + Math.floor(rand() * 3));
  }
}
