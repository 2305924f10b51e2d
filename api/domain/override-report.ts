import type { DB } from "../db";
import type { Auth } from "../lib/auth";
import { VISIBLE_BUILDINGS_SQL, visibleBuildingParams } from "../lib/buildings";

/**
 * The override report (docs/api/compliance.md): what GET /override-report answers and the monthly recap email
 * sums up (api/mail/jobs.ts).
 */

/** SQL for `on` as a percentage of `reach` (2 decimals), null when there was no reachable time. */
export const pct = (on: string, reach: string) =>
  `CASE WHEN coalesce(${reach}, 0) > 0 THEN round(100.0 * ${on} / ${reach}, 2) END`;

const visibleThermostatsSql = `SELECT t.id FROM thermostats t JOIN buildings b ON b.id = t.building_id WHERE ${VISIBLE_BUILDINGS_SQL}`;

/**
 * Per-thermostat aggregates of the history in [start, end) of the buildings' local dates, from the daily
 * aggregates the history's triggers keep (migration 041).
 */
const AGG_CTE = `WITH agg AS (
  SELECT d.thermostat_id,
    sum(d.reach_s) AS reach,
    sum(d.on_s) AS on_s,
    sum(d.holds) AS holds,
    sum(d.resets) AS resets
  FROM thermostat_history_daily d
  WHERE d.local_date >= ? AND d.local_date < ? AND d.thermostat_id IN (${visibleThermostatsSql})
  GROUP BY d.thermostat_id)`;

type ThermostatAgg = {
  thermostat_id: number;
  building_id: number;
  address_line1: string;
  device_name: string;
  schedule_compliance_percentage: number | null;
  permanent_hold_count: number;
  auto_reset_count: number;
  reachable_duration: number;
};

export function overrideReport(db: DB, auth: Auth, clientId: number, startDate: string, endDate: string) {
  const vis = visibleBuildingParams(auth);
  const aggParams = [startDate, endDate, ...vis];
  const client = db
    .prepare(
      `${AGG_CTE} SELECT c.id AS client_id, c.name, ${pct("sum(a.on_s)", "sum(a.reach)")} AS schedule_compliance_percentage,
         coalesce(sum(a.resets), 0) AS auto_reset_count, coalesce(sum(a.holds), 0) AS permanent_hold_count,
         coalesce(sum(a.reach), 0) AS reachable_duration
       FROM clients c LEFT JOIN agg a ON 1 = 1 WHERE c.id = ? GROUP BY c.id`,
    )
    .all(...aggParams, clientId);
  const buildings = db
    .prepare(
      `${AGG_CTE} SELECT b.id AS building_id, b.address_line1, ${pct("sum(a.on_s)", "sum(a.reach)")} AS schedule_compliance_percentage,
         coalesce(sum(a.reach), 0) AS reachable_duration, coalesce(sum(a.resets), 0) AS auto_reset_count,
         coalesce(sum(a.holds), 0) AS permanent_hold_count
       FROM buildings b LEFT JOIN thermostats t ON t.building_id = b.id LEFT JOIN agg a ON a.thermostat_id = t.id
       WHERE ${VISIBLE_BUILDINGS_SQL} GROUP BY b.id ORDER BY b.address_line1`,
    )
    .all(...aggParams, ...vis);
  const thermostats = db
    .prepare(
      `${AGG_CTE} SELECT t.id AS thermostat_id, b.id AS building_id, b.address_line1, t.device_name,
         ${pct("a.on_s", "a.reach")} AS schedule_compliance_percentage, coalesce(a.holds, 0) AS permanent_hold_count,
         coalesce(a.resets, 0) AS auto_reset_count, coalesce(a.reach, 0) AS reachable_duration
       FROM thermostats t JOIN buildings b ON b.id = t.building_id LEFT JOIN agg a ON a.thermostat_id = t.id
       WHERE ${VISIBLE_BUILDINGS_SQL} ORDER BY b.address_line1, t.device_name, t.id`,
    )
    .all(...aggParams, ...vis) as ThermostatAgg[];
  return { client, buildings, thermostats };
}
