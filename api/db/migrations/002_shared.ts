/**
 * Tables several areas read: thermostats (control room, locations chips, compliance, grid services),
 * issues and actions, dispatches, bills and flags. Areas add their own tables in their own migrations.
 */
export const m002_shared = {
  id: "002_shared",
  sql: /* sql */ `
CREATE TABLE thermostats (
  id INTEGER PRIMARY KEY,
  building_id INTEGER NOT NULL REFERENCES buildings(id),
  device_name TEXT NOT NULL,
  vendor TEXT NOT NULL CHECK (vendor IN ('enode','airzone')),
  status INTEGER NOT NULL DEFAULT 1,             -- -2: unlinked
  issue_autoresolve INTEGER NOT NULL DEFAULT 0,
  is_reachable INTEGER NOT NULL DEFAULT 1,
  last_seen TEXT,
  vendor_data_json TEXT NOT NULL DEFAULT '{}',   -- enode: {"information":{"brand","model"}}; airzone: {"manufacturer":{"text"},"model"}
  temp_indoor_f REAL,
  mode TEXT,
  cool_setpoint_f REAL,
  heat_setpoint_f REAL,
  allowed_modes_json TEXT NOT NULL DEFAULT '[]',
  min_setpoint_f REAL NOT NULL DEFAULT 50,
  max_setpoint_f REAL NOT NULL DEFAULT 90,
  min_auto_spacing_f REAL NOT NULL DEFAULT 3,    -- auto mode: cool - heat >= this
  has_schedule INTEGER NOT NULL DEFAULT 1        -- 0: schedule unavailable
);
CREATE INDEX thermostats_building ON thermostats(building_id);
CREATE TABLE thermostat_issues (
  id INTEGER PRIMARY KEY,
  thermostat_id INTEGER NOT NULL REFERENCES thermostats(id),
  building_id INTEGER NOT NULL REFERENCES buildings(id),
  issue_slug TEXT NOT NULL,                      -- an issue type: permanent_hold, unchanging_schedule, ...
  issue_category TEXT NOT NULL,                  -- schedule, system_performance, communication, ...
  current_status TEXT NOT NULL CHECK (current_status IN ('active','processing','failed','resolved','dismissed')),
  is_dismissed INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  resolves_at TEXT                               -- when a processing issue becomes resolved (simulator)
);
CREATE INDEX thermostat_issues_thermostat ON thermostat_issues(thermostat_id);
CREATE TABLE dispatches (
  id INTEGER PRIMARY KEY,
  client_id INTEGER NOT NULL REFERENCES clients(id),
  building_id INTEGER NOT NULL REFERENCES buildings(id),
  status TEXT NOT NULL,                          -- OPT_OUT | NO DEVICES | SUCCESS | PENDING | anything else
  event_type TEXT NOT NULL,
  is_internal_test INTEGER NOT NULL DEFAULT 0,
  precool_start_time TEXT,
  start_time TEXT NOT NULL,
  end_time TEXT NOT NULL
);
CREATE INDEX dispatches_client ON dispatches(client_id, end_time);
CREATE TABLE dispatch_thermostats (
  dispatch_id INTEGER NOT NULL REFERENCES dispatches(id),
  thermostat_id INTEGER NOT NULL REFERENCES thermostats(id),
  precool_setpoint REAL,
  target_setpoint REAL,
  pre_event_observed REAL,
  participating_minutes INTEGER,
  was_overridden INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (dispatch_id, thermostat_id)
);
CREATE TABLE thermostat_actions (
  id INTEGER PRIMARY KEY,
  thermostat_id INTEGER NOT NULL REFERENCES thermostats(id),
  status TEXT NOT NULL CHECK (status IN ('pending','success','fail','canceled')),
  device_specific_data_json TEXT NOT NULL,       -- {"mode","cool_setpoint_f","heat_setpoint_f"} as asked
  dispatch_id INTEGER REFERENCES dispatches(id),
  reason TEXT,                                   -- the vendor's reason on fail
  requested_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  completes_at TEXT,
  finished_at TEXT
);
CREATE INDEX thermostat_actions_thermostat ON thermostat_actions(thermostat_id, id);
CREATE TABLE bill_statements (
  id INTEGER PRIMARY KEY,
  building_id INTEGER NOT NULL REFERENCES buildings(id),
  account_id INTEGER NOT NULL REFERENCES utility_accounts(id),
  statement_date TEXT NOT NULL,
  service_start_date TEXT NOT NULL,
  service_end_date TEXT NOT NULL,
  consumption_kwh REAL NOT NULL,
  demand_kw REAL,
  rate_cents REAL NOT NULL,                      -- cents per kWh
  total_charges_cents INTEGER NOT NULL,
  total_electric_charges_cents INTEGER NOT NULL,
  supplier TEXT
);
CREATE INDEX bill_statements_building ON bill_statements(building_id, statement_date);
CREATE TABLE bill_flags (
  id INTEGER PRIMARY KEY,
  bill_statement_id INTEGER NOT NULL REFERENCES bill_statements(id),
  type TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('unacknowledged','action_requested','dismissed','completed')),
  previous_supplier TEXT,
  details_json TEXT NOT NULL DEFAULT '{}',
  updated_at TEXT NOT NULL
);
CREATE INDEX bill_flags_statement ON bill_flags(bill_statement_id);
`,
};
