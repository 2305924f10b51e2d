import { z } from "zod";
import type { DB } from "../db";
import { type Auth, getAuth, sessionRouter, requireOwnClient } from "../lib/auth";
import { requireThermostatAccess } from "../lib/access";
import { overrideReport, pct } from "../domain/override-report";
import { type ApiDeps, parse, route } from "../lib/http";
import { onScheduleSql } from "../domain/schedule-compliance";
import { isoDate } from "../lib/schemas";

/** 1 when a history sample `h` was on the recommended schedule (api/domain/schedule-compliance.ts). */
export const ON_SCHEDULE_SQL = onScheduleSql("h");

const range = z
  .object({ startDate: isoDate, endDate: isoDate })
  .refine((p) => p.startDate < p.endDate, { message: "must be after startDate", path: ["endDate"] });

function requireThermostat(db: DB, auth: Auth, thermostatId: string) {
  // Rule object-access: a thermostat at a location the session may see (else 404).
  const { id } = requireThermostatAccess(db, auth, thermostatId);
  return db
    .prepare(
      "SELECT t.id, t.device_name, b.id AS building_id, b.timezone FROM thermostats t JOIN buildings b ON b.id = t.building_id WHERE t.id = ?",
    )
    .get(id) as { id: number; device_name: string; building_id: number; timezone: string };
}

/** Thermostat history, the override report and the worst-performing days (docs/api/compliance.md). */
export function complianceRoutes(deps: ApiDeps) {
  const { r } = sessionRouter(deps, ["/thermostat/:thermostatId/history", "/override-report"]);

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
