/**
 * The backfill as it was when this migration was written: `DAILY_FROM_HISTORY_SQL` with the on-schedule rule of
 * that day (api/domain/schedule-compliance.ts). A migration is history: once applied it must do the same on every
 * database it meets, so it imports nothing of ours (no domain rule that may change later) and keeps this copy.
 */
const DAILY_FROM_HISTORY_SQL = `INSERT INTO thermostat_history_daily (thermostat_id, local_date, reach_s, on_s, holds, resets, samples)
  SELECT h.thermostat_id, h.local_date, sum(h.duration_s), sum(h.duration_s * coalesce(CASE
  WHEN h.schedule_setpoint_f IS NULL THEN 0
  WHEN h.mode = 'cool' THEN abs(h.cool_setpoint_f - h.schedule_setpoint_f) <= 0.5
  WHEN h.mode IN ('heat', 'emergencyheat') THEN abs(h.heat_setpoint_f - h.schedule_setpoint_f) <= 0.5
  WHEN h.mode = 'auto' THEN (abs(h.cool_setpoint_f - h.schedule_setpoint_f) <= 0.5 OR abs(h.heat_setpoint_f - h.schedule_setpoint_f) <= 0.5)
  ELSE 0 END, 0)),
    sum(coalesce(h.event, '') = 'permanent_hold'), sum(coalesce(h.event, '') = 'auto_reset'), count(*)
  FROM thermostat_history h GROUP BY h.thermostat_id, h.local_date`;

/**
 * Daily aggregates of the thermostat history. The override report reads these (a month: ~31 rows per
 * thermostat) instead of summing ~1,500 samples per thermostat on every call. Whoever writes history brings
 * them up to date in the same transaction (`refreshHistoryDaily`, api/domain/schedule-compliance.ts); the
 * seed is the only writer. The one-thermostat page still reads the samples themselves.
 */
export const m041_history_daily = {
  id: "041_history_daily",
  sql: /* sql */ `
CREATE TABLE thermostat_history_daily (
  thermostat_id INTEGER NOT NULL REFERENCES thermostats(id),
  local_date TEXT NOT NULL,
  reach_s INTEGER NOT NULL,   -- reachable seconds (sum of duration_s)
  on_s REAL NOT NULL,         -- seconds on the recommended schedule
  holds INTEGER NOT NULL,     -- permanent holds started
  resets INTEGER NOT NULL,    -- overrides the system reset
  samples INTEGER NOT NULL,
  PRIMARY KEY (thermostat_id, local_date)
) WITHOUT ROWID;
CREATE INDEX thermostat_history_daily_date ON thermostat_history_daily (local_date, thermostat_id);
${DAILY_FROM_HISTORY_SQL};
`,
};
