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
