import type { DB } from "../db";

/**
 * 1 when a history sample was on the recommended schedule (docs/api/compliance.md): there is a schedule
 * setpoint and the setpoint the mode acts on is within 0.5 °F of it (cool mode: cool setpoint; heat and
 * emergency heat: heat setpoint; auto: either). Other modes (off, fan, dry) are off schedule. `row` is the
 * history row's alias in the query (or NEW/OLD in a trigger).
 */
export const onScheduleSql = (row: string) => `coalesce(CASE
  WHEN ${row}.schedule_setpoint_f IS NULL THEN 0
  WHEN ${row}.mode = 'cool' THEN abs(${row}.cool_setpoint_f - ${row}.schedule_setpoint_f) <= 0.5
  WHEN ${row}.mode IN ('heat', 'emergencyheat') THEN abs(${row}.heat_setpoint_f - ${row}.schedule_setpoint_f) <= 0.5
  WHEN ${row}.mode = 'auto' THEN (abs(${row}.cool_setpoint_f - ${row}.schedule_setpoint_f) <= 0.5 OR abs(${row}.heat_setpoint_f - ${row}.schedule_setpoint_f) <= 0.5)
  ELSE 0 END, 0)`;

/** The daily aggregates of every (thermostat, local date) in the history. */
export const DAILY_FROM_HISTORY_SQL = `INSERT INTO thermostat_history_daily (thermostat_id, local_date, reach_s, on_s, holds, resets, samples)
  SELECT h.thermostat_id, h.local_date, sum(h.duration_s), sum(h.duration_s * ${onScheduleSql("h")}),
    sum(coalesce(h.event, '') = 'permanent_hold'), sum(coalesce(h.event, '') = 'auto_reset'), count(*)
  FROM thermostat_history h GROUP BY h.thermostat_id, h.local_date`;

/**
 * Brings the daily aggregates up to date after history was written (one statement over the history: the
 * seed writes ~600,000 samples, and a trigger per row would make seeding about 40 % slower).
 */
export function refreshHistoryDaily(db: DB) {
  db.transaction(() => {
    db.prepare("DELETE FROM thermostat_history_daily").run();
    db.prepare(DAILY_FROM_HISTORY_SQL).run();
  })();
}
