import { DAILY_FROM_HISTORY_SQL } from "../../domain/schedule-compliance";

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
