import * as clock from "../lib/clock";
import type { DB } from "../db";

/**
 * The grid operator's side of a dispatch: an event is PENDING until it ends, then it gets its final status.
 * Upcoming demo events (and the running one) are seeded PENDING; with the demo running for days, or the clock
 * moved forward, each one that has ended by `now` is finalised here: `SUCCESS` when thermostats took part
 * (each one's participating minutes the event's length, its pre-event reading the device's indoor
 * temperature when none was recorded), `NO DEVICES` when none did. Run before every read of dispatches
 * (GET /insights/{clientId}/dispatches), so a status never lags the api's clock; idempotent. A rule the read
 * applies (rule dispatch-final-status), not a background simulator: the grid route calls it, and only the api's
 * wiring (api/server.ts) starts simulators.
 */
export function finaliseEndedDispatches(db: DB, now = clock.now()) {
  const at = now.toISOString();
  const ended = db
    .prepare("SELECT id, start_time, end_time FROM dispatches WHERE status = 'PENDING' AND end_time <= ?")
    .all(at) as { id: number; start_time: string; end_time: string }[];
  if (ended.length === 0) return 0;
  const count = db.prepare("SELECT count(*) AS n FROM dispatch_thermostats WHERE dispatch_id = ?");
  const setStatus = db.prepare("UPDATE dispatches SET status = ? WHERE id = ? AND status = 'PENDING'");
  const setDetails = db.prepare(
    `UPDATE dispatch_thermostats SET
       participating_minutes = coalesce(participating_minutes, ?),
       pre_event_observed = coalesce(pre_event_observed, (SELECT t.temp_indoor_f FROM thermostats t WHERE t.id = thermostat_id))
     WHERE dispatch_id = ?`,
  );
  db.transaction(() => {
    for (const d of ended) {
      const { n } = count.get(d.id) as { n: number };
      const minutes = Math.round((Date.parse(d.end_time) - Date.parse(d.start_time)) / 60_000);
      setStatus.run(n > 0 ? "SUCCESS" : "NO DEVICES", d.id);
      if (n > 0) setDetails.run(minutes, d.id);
    }
  })();
  return ended.length;
}
