/**
 * Grid services that say what they earned: the demand-response program a dispatch belongs to, with
 * its rates in cents (reservation per pledged kW-month, performance per kWh reduced; `estimated` when they are
 * our estimate, not a statement from the utility), and what each thermostat reported of an event: when it was
 * overridden and to which cooling setpoint, and the highest indoor temperature during the event.
 */
export const m090_grid_programs = {
  id: "090_grid_programs",
  sql: /* sql */ `
CREATE TABLE grid_programs (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  utility TEXT NOT NULL,
  reservation_cents_per_kw_month INTEGER NOT NULL CHECK (reservation_cents_per_kw_month >= 0),
  performance_cents_per_kwh INTEGER NOT NULL CHECK (performance_cents_per_kwh >= 0),
  estimated INTEGER NOT NULL DEFAULT 1 CHECK (estimated IN (0, 1))
);
ALTER TABLE dispatches ADD COLUMN program_id INTEGER REFERENCES grid_programs(id);
ALTER TABLE dispatch_thermostats ADD COLUMN overridden_at TEXT;       -- ISO 8601 UTC instant of the override
ALTER TABLE dispatch_thermostats ADD COLUMN override_setpoint REAL;   -- the setpoint the person set, °F
ALTER TABLE dispatch_thermostats ADD COLUMN max_indoor_f REAL;        -- highest indoor temperature during the event
`,
};
