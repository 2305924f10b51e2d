import * as clock from "../lib/clock";
import type { Request, RequestHandler, Response } from "express";
import { z } from "zod";
import type { DB } from "../db";
import type { ActionRow, DispatchRow, ThermostatRow } from "../db/rows";
import { type Auth, getAuth, sessionRouter } from "../lib/auth";
import { requireThermostatAccess } from "../lib/access";
import { buildingRoute } from "../lib/buildings";
import { type ApiDeps, badRequest, HttpError, notFound, parse, route, validationError } from "../lib/http";
import { pathId } from "../lib/ids";

export type IssueRow = {
  id: number;
  thermostat_id: number;
  building_id: number;
  issue_slug: string;
  issue_category: string;
  current_status: "active" | "processing" | "failed" | "resolved" | "dismissed";
  is_dismissed: number;
  created_at: string;
  updated_at: string;
  resolves_at: string | null;
};

type EventRow = Omit<DispatchRow, "building_id">;

/** Issue types of the catalogue (docs/api/thermostats.md): the only slugs the email dismissal link accepts. */
export const ISSUE_SLUGS = [
  "new_thermostat",
  "uninitialized",
  "nodata",
  "unextractable",
  "unchanging_schedule",
  "no_schedule",
  "permanent_hold",
  "could_not_determine_setpoint_changes",
  "occupied_cool_setpoint_too_low",
  "occupied_heat_setpoint_too_high",
  "setback_cool_setpoint_too_low",
  "setback_heat_setpoint_too_high",
  "setback_too_close_to_occupied",
  "setback_cool_less_than_occupied",
  "setback_heat_higher_than_occupied",
  "heat_setpoint_higher_than_cool_setpoint",
  "heat_setpoint_too_close_to_cool_setpoint",
  "heat_setpoint_above_indoor_temp",
  "heat_setpoint_below_indoor_temp",
  "cool_setpoint_above_indoor_temp",
  "cool_setpoint_below_indoor_temp",
  "auto_setpoint_indoor_temp_delta",
  "device_communication_issues",
  "vendor_communication_issues",
  "unexpected_unreachable",
  "many_small_gaps",
  "one_big_gap",
  "unexpected_temperature",
  "extreme_indoor_temperature",
  "off",
  "occupied_setpoints_too_close",
] as const;

/** Issues a vendor can fix by putting the device back on its schedule (D): the others can only be dismissed. */
export const RESOLVABLE_SLUGS = ["permanent_hold", "unchanging_schedule"];

export const CANCELED_REASON = "Canceled: a newer change was sent to this thermostat";

const AIRZONE_REFUSED = "Issues on Airzone devices cannot be resolved or dismissed here";

/** A thermostat in a building the session may see, or 404. */
export function requireThermostat(db: DB, auth: Auth, thermostatId: string | number): ThermostatRow {
  // Rule object-access: a thermostat at a location the session may see (else 404).
  const { id } = requireThermostatAccess(db, auth, thermostatId);
  return db.prepare("SELECT * FROM thermostats WHERE id = ?").get(id) as ThermostatRow;
}

/** A handler for a path with `:thermostatId`: it runs only for a thermostat the session may see (else 404). */
const thermostatRoute = (
  db: DB,
  fn: (thermostat: ThermostatRow, req: Request, res: Response) => unknown | Promise<unknown>,
): RequestHandler =>
  route((req, res) => fn(requireThermostat(db, getAuth(res), String(req.params.thermostatId)), req, res));

export function actionJson(a: ActionRow, deviceName: string) {
  const canceled = a.status === "canceled";
  return {
    id: a.id,
    thermostat_id: a.thermostat_id,
    // The contract knows pending, success and fail: a superseded action reads as a failure with its reason.
    status: canceled ? "fail" : a.status,
    device_specific_data: JSON.parse(a.device_specific_data_json) as Record<string, unknown>,
    dispatch_id: a.dispatch_id,
    thermostat_name: deviceName,
    reason: a.reason,
    created_at: a.created_at,
    finished_at: a.finished_at,
  };
}

export function issueJson(i: IssueRow) {
  return {
    id: i.id,
    thermostat_id: i.thermostat_id,
    building_id: i.building_id,
    issue_slug: i.issue_slug,
    issue_category: i.issue_category,
    current_status: i.current_status,
    is_dismissed: i.is_dismissed === 1,
    created_at: i.created_at,
    updated_at: i.updated_at,
  };
}

function dispatchJson(d: EventRow) {
  return {
    id: d.id,
    status: d.status,
    event_type: d.event_type,
    is_internal_test: d.is_internal_test === 1,
    precool_start_time: d.precool_start_time,
    start_time: d.start_time,
    end_time: d.end_time,
  };
}

export function thermostatInfoItem(db: DB, t: ThermostatRow, now = clock.now().toISOString()) {
  const action = db
    .prepare("SELECT * FROM thermostat_actions WHERE thermostat_id = ? ORDER BY id DESC LIMIT 1")
    .get(t.id) as ActionRow | undefined;
  const dispatch = db
    .prepare(
      `SELECT d.* FROM dispatches d JOIN dispatch_thermostats dt ON dt.dispatch_id = d.id
       WHERE dt.thermostat_id = ? AND coalesce(d.precool_start_time, d.start_time) <= ? AND d.end_time > ?
       ORDER BY d.start_time DESC LIMIT 1`,
    )
    .get(t.id, now, now) as EventRow | undefined;
  const issues = db
    .prepare("SELECT * FROM thermostat_issues WHERE thermostat_id = ? ORDER BY id")
    .all(t.id) as IssueRow[];
  return {
    thermostat: {
      id: t.id,
      building_id: t.building_id,
      device_name: t.device_name,
      vendor: t.vendor,
      status: t.status,
      issue_autoresolve: t.issue_autoresolve === 1,
      vendor_data: JSON.parse(t.vendor_data_json) as Record<string, unknown>,
    },
    state: {
      temp_indoor_f: t.temp_indoor_f,
      mode: t.mode,
      cool_setpoint_f: t.cool_setpoint_f,
      heat_setpoint_f: t.heat_setpoint_f,
      allowed_modes: JSON.parse(t.allowed_modes_json) as string[],
      last_seen: t.last_seen,
      min_setpoint_f: t.min_setpoint_f,
      max_setpoint_f: t.max_setpoint_f,
      min_auto_spacing_f: t.min_auto_spacing_f,
      has_schedule: t.has_schedule === 1,
    },
    thermostat_action: action ? actionJson(action, t.device_name) : null,
    is_reachable: t.is_reachable === 1,
    dispatch: dispatch ? dispatchJson(dispatch) : null,
    issues: issues.map(issueJson),
  };
}

const settingsBody = z
  .object({
    mode: z.string().min(1).optional(),
    cool_setpoint_f: z.number().finite().optional(),
    heat_setpoint_f: z.number().finite().optional(),
  })
  .strict();

/** Checks asked settings against the device: allowed modes, setpoint limits, auto-mode spacing. */
export function settingsViolations(t: ThermostatRow, asked: z.infer<typeof settingsBody>) {
  const errors: { location: string; message: string }[] = [];
  const modes = JSON.parse(t.allowed_modes_json) as string[];
  if (asked.mode !== undefined && !modes.includes(asked.mode)) {
    errors.push({ location: "mode", message: `this thermostat does not support mode ${asked.mode}` });
  }
  for (const key of ["cool_setpoint_f", "heat_setpoint_f"] as const) {
    const v = asked[key];
    if (v !== undefined && (v < t.min_setpoint_f || v > t.max_setpoint_f)) {
      errors.push({ location: key, message: `must be between ${t.min_setpoint_f} and ${t.max_setpoint_f}` });
    }
  }
  const mode = asked.mode ?? t.mode;
  const cool = asked.cool_setpoint_f ?? t.cool_setpoint_f;
  const heat = asked.heat_setpoint_f ?? t.heat_setpoint_f;
  if (mode === "auto" && cool !== null && heat !== null && cool - heat < t.min_auto_spacing_f) {
    errors.push({
      location: "cool_setpoint_f",
      message: `must be at least ${t.min_auto_spacing_f}°F above the heat setpoint in auto mode`,
    });
  }
  return errors;
}

function requireIssue(db: DB, t: ThermostatRow, issueId: string) {
  const id = pathId(issueId);
  const issue = db
    .prepare("SELECT * FROM thermostat_issues WHERE id = ? AND thermostat_id = ?")
    .get(id, t.id) as IssueRow | undefined;
  if (!issue) throw notFound();
  return issue;
}

/** Thermostats: the control room's list, settings changes and their actions, issue resolve and dismiss. */
export function thermostatRoutes(deps: ApiDeps) {
  const { r, db } = sessionRouter(deps, ["/building/:buildingId/thermostats", "/thermostats"]);

  r.get(
    "/building/:buildingId/thermostats",
    buildingRoute(db, (building, req, res) => {
      const rows = db
        .prepare("SELECT * FROM thermostats WHERE building_id = ? ORDER BY id")
        .all(building.id) as ThermostatRow[];
      const now = clock.now().toISOString();
      res.json({ items: rows.map((t) => thermostatInfoItem(db, t, now)) });
    }),
  );

  // Our extension of the upstream contract (docs/api/thermostats.md): one thermostat with its building's
  // names, so the email dismissal page names it in one round trip instead of listing every building's devices.
  r.get(
    "/thermostats/:thermostatId",
    thermostatRoute(db, (t, req, res) => {
      const b = db.prepare("SELECT id, name, nickname FROM buildings WHERE id = ?").get(t.building_id) as {
        id: number;
        name: string;
        nickname: string | null;
      };
      res.json({ ...thermostatInfoItem(db, t), building: { id: b.id, name: b.name, nickname: b.nickname } });
    }),
  );

  r.patch(
    "/thermostats/dismiss-audit-issue/:thermostatId/:issueSlug",
    thermostatRoute(db, (t, req, res) => {
      const slug = req.params.issueSlug;
      if (!(ISSUE_SLUGS as readonly string[]).includes(slug)) {
        throw validationError({ path: [{ location: "issue_slug", message: "is not an issue type" }] });
      }
      if (t.vendor === "airzone") throw badRequest(AIRZONE_REFUSED);
      // Idempotent: dismissing an already dismissed (or absent) issue is still a success.
      db.prepare(
        `UPDATE thermostat_issues SET is_dismissed = 1, current_status = 'dismissed', updated_at = ?
         WHERE thermostat_id = ? AND issue_slug = ? AND current_status IN ('active','failed')`,
      ).run(clock.now().toISOString(), t.id, slug);
      db.prepare(
        "UPDATE thermostat_issues SET is_dismissed = 1 WHERE thermostat_id = ? AND issue_slug = ? AND current_status = 'dismissed'",
      ).run(t.id, slug);
      res.status(204).end();
    }),
  );

  r.post(
    "/thermostats/:thermostatId/settings",
    route((req, res) => {
      const auth = getAuth(res);
      const t = requireThermostat(db, auth, req.params.thermostatId);
      const asked = parse(settingsBody, req.body);
      if (
        asked.mode === undefined &&
        asked.cool_setpoint_f === undefined &&
        asked.heat_setpoint_f === undefined
      ) {
        throw validationError({
          body: [
            { location: "body", message: "send at least one of mode, cool_setpoint_f, heat_setpoint_f" },
          ],
        });
      }
      const errors = settingsViolations(t, asked);
      if (errors.length) throw validationError({ body: errors });
      const now = clock.now();
      const created = db.transaction(() => {
        db.prepare(
          "UPDATE thermostat_actions SET status = 'canceled', reason = ?, finished_at = ? WHERE thermostat_id = ? AND status = 'pending'",
        ).run(CANCELED_REASON, now.toISOString(), t.id);
        const info = db
          .prepare(
            `INSERT INTO thermostat_actions (thermostat_id, status, device_specific_data_json, dispatch_id, reason, requested_by, created_at, completes_at)
             VALUES (?, 'pending', ?, NULL, NULL, ?, ?, ?)`,
          )
          .run(
            t.id,
            JSON.stringify(asked),
            auth.user.id,
            now.toISOString(),
            new Date(now.getTime() + deps.config.thermostatActionDelayMs).toISOString(),
          );
        return db
          .prepare("SELECT * FROM thermostat_actions WHERE id = ?")
          .get(info.lastInsertRowid) as ActionRow;
      })();
      deps.log("thermostat action created", { thermostat_id: t.id, action_id: created.id });
      res.json(actionJson(created, t.device_name));
    }),
  );

  r.get(
    "/thermostats/:thermostatId/thermostat-actions/:actionId",
    thermostatRoute(db, (t, req, res) => {
      const id = pathId(req.params.actionId);
      const a = db
        .prepare("SELECT * FROM thermostat_actions WHERE id = ? AND thermostat_id = ?")
        .get(id, t.id) as ActionRow | undefined;
      if (!a) throw notFound();
      res.json(actionJson(a, t.device_name));
    }),
  );

  r.post(
    "/thermostats/:thermostatId/audit-issues/:issueId/resolve",
    thermostatRoute(db, (t, req, res) => {
      const issue = requireIssue(db, t, req.params.issueId);
      if (t.vendor === "airzone") throw badRequest(AIRZONE_REFUSED);
      if (!RESOLVABLE_SLUGS.includes(issue.issue_slug))
        throw badRequest("This issue cannot be resolved remotely");
      if (issue.current_status === "processing") {
        res.json(issueJson(issue));
        return;
      }
      if (issue.current_status !== "active" && issue.current_status !== "failed") {
        throw new HttpError(409, { message: `This issue is ${issue.current_status}` });
      }
      const now = clock.now();
      db.prepare(
        "UPDATE thermostat_issues SET current_status = 'processing', updated_at = ?, resolves_at = ? WHERE id = ?",
      ).run(
        now.toISOString(),
        new Date(now.getTime() + deps.config.thermostatActionDelayMs).toISOString(),
        issue.id,
      );
      res.json(issueJson(requireIssue(db, t, String(issue.id))));
    }),
  );

  r.patch(
    "/thermostats/:thermostatId/audit-issues/:issueId/dismiss",
    thermostatRoute(db, (t, req, res) => {
      const issue = requireIssue(db, t, req.params.issueId);
      const { is_dismissed } = parse(z.object({ is_dismissed: z.boolean() }), req.body);
      if (t.vendor === "airzone") throw badRequest(AIRZONE_REFUSED);
      if (issue.current_status === "resolved" || issue.current_status === "processing") {
        throw new HttpError(409, { message: `This issue is ${issue.current_status}` });
      }
      const status = is_dismissed
        ? "dismissed"
        : issue.current_status === "dismissed"
          ? "active"
          : issue.current_status;
      db.prepare(
        "UPDATE thermostat_issues SET is_dismissed = ?, current_status = ?, updated_at = ? WHERE id = ?",
      ).run(is_dismissed ? 1 : 0, status, clock.now().toISOString(), issue.id);
      res.json(issueJson(requireIssue(db, t, String(issue.id))));
    }),
  );

  return r;
}
