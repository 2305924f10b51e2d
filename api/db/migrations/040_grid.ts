/**
 * Grid services and compliance: the thermostat history the override report is computed from.
 * One row per sample; each sample covers `duration_s` seconds from `recorded_at`. A missing sample is a
 * period when the thermostat was unreachable. `local_date` is the building's local calendar date of the
 * sample (written with the row), so day grouping and date ranges are plain SQL.
 */
export const m040_grid = {
  id: "040_grid",
  sql: /* sql */ `
CREATE TABLE thermostat_history (
  thermostat_id INTEGER NOT NULL REFERENCES thermostats(id),
  local_date TEXT NOT NULL,                  -- YYYY-MM-DD in the building's timezone
  recorded_at TEXT NOT NULL,                 -- ISO 8601 UTC instant
  duration_s INTEGER NOT NULL DEFAULT 1800,  -- reachable time this sample covers
  mode TEXT NOT NULL,                        -- cool | heat | auto | off | ventilation | dehumidifier | emergencyheat
  schedule_setpoint_f REAL,                  -- the recommended schedule's setpoint (NULL: no schedule)
  cool_setpoint_f REAL,
  heat_setpoint_f REAL,
  indoor_temperature_f REAL,
  event TEXT CHECK (event IN ('permanent_hold','auto_reset')), -- a permanent hold started / the system reset an override
  PRIMARY KEY (thermostat_id, local_date, recorded_at)
) WITHOUT ROWID;
`,
};
