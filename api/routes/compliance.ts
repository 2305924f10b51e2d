import { Router } from "express";
import { z } from "zod";
import type { DB } from "../db";
import { type Auth, getAuth, requireAuth, requireOwnClient } from "../lib/auth";
import { VISIBLE_BUILDINGS_SQL, visibleBuildingParams } from "../lib/buildings";
import { type ApiDeps, notFound, parse, route } from "../lib/http";
import { isoDate } from "../lib/schemas";
import { pathId } from "../lib/ids";

/**
 * 1 when a history sample was on the recommended schedule (docs/api/compliance.md): there is a schedule
 * setpoint and the setpoint the mode acts on is within 0.5 °F of it (cool mode: cool setpoint; heat and
 * emergency heat: heat setpoint; auto: either). Other modes (off, fan, dry) are off schedule.
 */
export const ON_SCHEDULE_SQL = `coalesce(CASE
  WHEN h.schedule_setpoint_f IS NULL THEN 0
  WHEN h.mode = 'cool' THEN abs(h.cool_setpoint_f - h.schedule_setpoint_f) <= 0.5
  WHEN h.mode IN ('heat', 'emergencyheat') THEN abs(h.heat_setpoint_f - h.schedule_setpoint_f) <= 0.5
  WHEN h.mode = 'auto' THEN (abs(h.cool_setpoint_f - h.schedule_setpoint_f) <= 0.5 OR abs(h.heat_setpoint_f - h.schedule_setpoint_f) <= 0.5)
  ELSE 0 END, 0)`;

const pct = (on: string, reach: string) =>
  `CASE WHEN coalesce(${reach}, 0) > 0 THEN round(100.0 * ${on} / ${reach}, 2) END`;

const range = z
  .object({ startDate: isoDate, endDate: isoDate })
  .refine((p) => p.startDate < p.endDate, { message: "must be after startDate", path: ["endDate"] });

const visibleThermostatsSql = `SELECT t.id FROM thermostats t JOIN buildings b ON b.id = t.building_id WHERE ${VISIBLE_BUILDINGS_SQL}`;

/** Per-thermostat aggregates of the history in [start, end) of the buildings' local dates. */
const AGG_CTE = `WITH agg AS (
  SELECT h.thermostat_id,
    sum(h.duration_s) AS reach,
    sum(h.duration_s * ${ON_SCHEDULE_SQL}) AS on_s,
    sum(h.event = 'permanent_hold') AS holds,
    sum(h.event = 'auto_reset') AS resets
  FROM thermostat_history h
  WHERE h.local_date >= ? AND h.local_date < ? AND h.thermostat_id IN (${visibleThermostatsSql})
  GROUP BY h.thermostat_id)`;

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

function requireThermostat(db: DB, auth: Auth, thermostatId: string) {
  const id = pathId(thermostatId);
  const row = db
    .prepare(
      `SELECT t.id, t.device_name, b.id AS building_id, b.timezone FROM thermostats t JOIN buildings b ON b.id = t.building_id WHERE t.id = ? AND ${VISIBLE_BUILDINGS_SQL}`,
    )
    .get(id, ...visibleBuildingParams(auth)) as
    { id: number; device_name: string; building_id: number; timezone: string } | undefined;
  if (!row) throw notFound();
  return row;
}

/** Thermostat history, the override report and the worst-performing days (docs/api/compliance.md). */
export function complianceRoutes(deps: ApiDeps) {
  const r = Router();
  r.use(["/thermostat/:thermostatId/history", "/override-report"], requireAuth(deps));

  r.get(
    "/thermostat/:thermostatId/history/:startDate/:endDate",
    route((req, res) => {
      const auth = getAuth(res);
      const thermostat = requireThermostat(deps.db, auth, req.params.thermostatId);
      const { startDate, endDate } = parse(range, req.params, "path");
      const items = deps.db
        .prepare(
          `SELECT h.recorded_at, h.schedule_setpoint_f, h.cool_setpoint_f, h.heat_setpoint_f, h.indoor_temperature_f, h.mode, h.event
           FROM thermostat_history h WHERE h.thermostat_id = ? AND h.local_date >= ? AND h.local_date < ? ORDER BY h.recorded_at`,
        )
        .all(thermostat.id, startDate, endDate);
      res.json({ items, building_timezone: thermostat.timezone });
    }),
  );

  r.get(
    "/override-report/worst-performing-days/:clientId/:thermostatId/:startDate/:endDate",
    route((req, res) => {
      const auth = getAuth(res);
      requireOwnClient(auth, req.params.clientId);
      const thermostat = requireThermostat(deps.db, auth, req.params.thermostatId);
      const { startDate, endDate } = parse(range, req.params, "path");
      const items = deps.db
        .prepare(
          `SELECT h.local_date AS date, ${pct(`sum(h.duration_s * ${ON_SCHEDULE_SQL})`, "sum(h.duration_s)")} AS schedule_compliance_percentage,
             sum(h.event = 'permanent_hold') AS permanent_hold_count
           FROM thermostat_history h WHERE h.thermostat_id = ? AND h.local_date >= ? AND h.local_date < ?
           GROUP BY h.local_date ORDER BY schedule_compliance_percentage ASC, h.local_date ASC LIMIT ?`,
        )
        .all(thermostat.id, startDate, endDate, WORST_DAYS_LIMIT);
      res.json({ items });
    }),
  );

  r.get(
    "/override-report/:clientId/:startDate/:endDate",
    route((req, res) => {
      const auth = getAuth(res);
      const clientId = requireOwnClient(auth, req.params.clientId);
      const { startDate, endDate } = parse(range, req.params, "path");
      res.json(overrideReport(deps.db, auth, clientId, startDate, endDate));
    }),
  );

  return r;
}

/** How many of the worst days the worst-performing-days endpoint answers. */
export const WORST_DAYS_LIMIT = 10;
