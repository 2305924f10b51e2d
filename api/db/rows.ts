/**
 * Row shapes of the tables several routes read, as the SELECTs that join them return them. A route that selects
 * fewer columns takes a `Pick` of these, so a column's type is written once.
 */

/** `bill_statements` joined with its account's number and its utility's name. */
export type BillStatementRow = {
  id: number;
  building_id: number;
  account_id: number;
  account_number: string;
  utility_id: number;
  utility_name: string;
  statement_date: string;
  service_start_date: string;
  service_end_date: string;
  consumption_kwh: number;
  demand_kw: number | null;
  rate_cents: number;
  total_charges_cents: number;
  total_electric_charges_cents: number;
  supplier: string | null;
};

/** A grid-services event (`dispatches`). */
export type DispatchRow = {
  id: number;
  building_id: number;
  status: string;
  event_type: string;
  is_internal_test: number;
  precool_start_time: string | null;
  start_time: string;
  end_time: string;
};

/** A thermostat (`thermostats`). */
export type ThermostatRow = {
  id: number;
  building_id: number;
  device_name: string;
  vendor: "enode" | "airzone";
  status: number;
  issue_autoresolve: number;
  is_reachable: number;
  last_seen: string | null;
  vendor_data_json: string;
  temp_indoor_f: number | null;
  mode: string | null;
  cool_setpoint_f: number | null;
  heat_setpoint_f: number | null;
  allowed_modes_json: string;
  min_setpoint_f: number;
  max_setpoint_f: number;
  min_auto_spacing_f: number;
  has_schedule: number;
};

/** A setting change sent to a thermostat's vendor (`thermostat_actions`). */
export type ActionRow = {
  id: number;
  thermostat_id: number;
  status: "pending" | "success" | "fail" | "canceled";
  device_specific_data_json: string;
  dispatch_id: number | null;
  reason: string | null;
  requested_by: number | null;
  created_at: string;
  completes_at: string | null;
  finished_at: string | null;
};
