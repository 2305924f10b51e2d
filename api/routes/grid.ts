import type { DispatchRow } from "../db/rows";
import { z } from "zod";
import { getAuth, sessionRouter, requireOwnClient } from "../lib/auth";
import { requireBuilding, VISIBLE_BUILDINGS_SQL, visibleBuildingParams } from "../lib/buildings";
import { type ApiDeps, HttpError, notFound, parse, route, validationError } from "../lib/http";
import { isoDate } from "../lib/schemas";
import { finaliseEndedDispatches } from "../domain/grid-dispatches";
import { measureDispatches, performanceJson, type DispatchForMeasure } from "../domain/grid-performance";
import { seasonTotal } from "../../shared/grid-performance";
import type { Auth } from "../lib/auth";
import { pathId } from "../lib/ids";
import * as clock from "../lib/clock";
import { optOutDecision } from "../domain/grid-notices";
import { OPT_OUT_STARTED_MESSAGE } from "../../shared/grid-opt-out";

/** Sortable fields of GET /insights/{clientId}/dispatches and the SQL each sorts on. */
export const DISPATCH_SORT_FIELDS: Record<string, string> = {
  end_time: "d.end_time",
  start_time: "d.start_time",
  precool_start_time: "d.precool_start_time",
  building_address: "building_address",
  status: "d.status",
  event_type: "d.event_type",
  is_internal_test: "d.is_internal_test",
};
export const DEFAULT_DISPATCH_SORT = ["end_time:DESC", "building_address:DESC"];

const sortItem = z.string().superRefine((value, ctx) => {
  const [field, dir, ...rest] = value.split(":");
  if (!(field in DISPATCH_SORT_FIELDS))
    ctx.addIssue({ code: "custom", message: `unknown sort field '${field}'` });
  if (rest.length > 0 || (dir !== "ASC" && dir !== "DESC"))
    ctx.addIssue({ code: "custom", message: "direction must be ASC or DESC" });
});

/** The search filters the event list and the season summary share, and the order their dates must be in. */
const filterFields = {
  location_search: z.string().max(100).optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
};
const datesInOrder = (q: { start_date?: string; end_date?: string }) =>
  !q.start_date || !q.end_date || q.start_date <= q.end_date;
const datesInOrderIssue = { message: "must not be before start_date", path: ["end_date"] };

const filterQuery = z.object(filterFields).refine(datesInOrder, datesInOrderIssue);

/** The SQL conditions of a dispatch search: the client's events at buildings the session may see, the filters. */
function dispatchFilter(
  auth: Auth,
  clientId: number,
  q: { location_search?: string; start_date?: string; end_date?: string },
) {
  const where = [`d.client_id = ?`, VISIBLE_BUILDINGS_SQL];
  const params: unknown[] = [clientId, ...visibleBuildingParams(auth)];
  if (q.location_search?.trim()) {
    const like = `%${q.location_search
      .trim()
      .toLowerCase()
      .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      "(lower(b.address_line1) LIKE ? ESCAPE '\\' OR lower(b.city) LIKE ? ESCAPE '\\' OR lower(b.name) LIKE ? ESCAPE '\\' OR lower(coalesce(b.nickname,'')) LIKE ? ESCAPE '\\')",
    );
    params.push(like, like, like, like);
  }
  if (q.start_date) {
    where.push("substr(d.start_time, 1, 10) >= ?");
    params.push(q.start_date);
  }
  if (q.end_date) {
    where.push("substr(d.start_time, 1, 10) <= ?");
    params.push(q.end_date);
  }
  return { where, params };
}

const dispatchQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(100000).default(1),
    size: z.coerce.number().int().min(1).max(100).default(15),
    sort_by: z.union([sortItem, z.array(sortItem).max(5)]).optional(),
    ...filterFields,
  })
  .refine(datesInOrder, datesInOrderIssue);

type EventRow = DispatchRow & {
  building_address: string;
  building_timezone: string;
  were_overridden: number;
  program_id: number | null;
};
type DetailRow = {
  dispatch_id: number;
  thermostat_id: number;
  device_name: string;
  precool_setpoint: number | null;
  target_setpoint: number | null;
  pre_event_observed: number | null;
  participating_minutes: number | null;
  was_overridden: number;
  overridden_at: string | null;
  override_setpoint: number | null;
  max_indoor_f: number | null;
};

/** Grid-services dispatch insights of a client (docs/api/grid.md). */
export function gridRoutes(deps: ApiDeps) {
  const { r } = sessionRouter(deps, [
    "/insights/:clientId/dispatches",
    "/insights/:clientId/dispatches-summary",
    "/building/:buildingId/dispatches/:dispatchId/opt-out",
  ]);

  /**
   * Opts a location out of an event (rule grid-opt-out): the dispatch becomes OPT_OUT and its thermostats stay
   * out (no participating minutes, their pending actions canceled). Once: asked again, it changes nothing and
   * answers the same. Refused (409) once the event has started; 404 for a location the person may not see or an
   * event that is not that location's.
   */
  r.post(
    "/building/:buildingId/dispatches/:dispatchId/opt-out",
    route((req, res) => {
      const building = requireBuilding(deps.db, getAuth(res), String(req.params.buildingId));
      const dispatchId = pathId(req.params.dispatchId);
      const answer = deps.db.transaction(() => {
        const d = deps.db
          .prepare("SELECT id, status, start_time FROM dispatches WHERE id = ? AND building_id = ?")
          .get(dispatchId, building.id) as { id: number; status: string; start_time: string } | undefined;
        if (!d) throw notFound();
        const decision = optOutDecision({ status: d.status, startTime: d.start_time }, clock.nowMs());
        if (decision === "started") throw new HttpError(409, { message: OPT_OUT_STARTED_MESSAGE });
        if (decision === "opt_out") {
          deps.db
            .prepare("UPDATE dispatches SET status = 'OPT_OUT' WHERE id = ? AND status = 'PENDING'")
            .run(d.id);
          deps.db
            .prepare("UPDATE dispatch_thermostats SET participating_minutes = 0 WHERE dispatch_id = ?")
            .run(d.id);
          deps.db
            .prepare(
              "UPDATE thermostat_actions SET status = 'canceled' WHERE dispatch_id = ? AND status = 'pending'",
            )
            .run(d.id);
        }
        return {
          id: d.id,
          building_id: building.id,
          status: "OPT_OUT",
          opted_out_now: decision === "opt_out",
        };
      })();
      res.json(answer);
    }),
  );

  r.get(
    "/insights/:clientId/dispatches-summary",
    route((req, res) => {
      const auth = getAuth(res);
      const clientId = requireOwnClient(auth, req.params.clientId);
      const q = parse(filterQuery, req.query, "query");
      finaliseEndedDispatches(deps.db);
      const { where, params } = dispatchFilter(auth, clientId, q);
      // The events that took part and are paid (rule grid-season-total): internal tests are not.
      const rows = deps.db
        .prepare(
          `SELECT d.id, d.building_id, b.timezone AS building_timezone, d.status, d.is_internal_test, d.start_time,
             d.end_time, d.program_id
           FROM dispatches d JOIN buildings b ON b.id = d.building_id
           WHERE ${where.join(" AND ")} AND d.status = 'SUCCESS' AND d.is_internal_test = 0`,
        )
        .all(...params) as DispatchForMeasure[];
      const measured = measureDispatches(deps.db, rows);
      const figures = rows.map((row) => {
        const p = measured.get(row.id)!;
        return {
          earnings: p.earnings,
          kwhReduced: p.measure?.kind === "measured" ? p.measure.kwhReduced : null,
        };
      });
      const total = seasonTotal(figures);
      const programs = [...new Set(rows.map((row) => measured.get(row.id)!.program).filter(Boolean))];
      const program = programs[0] ?? null;
      res.json({
        events: total.events,
        measured_events: rows.filter((row) => measured.get(row.id)!.measurement === "measured").length,
        earnings_cents: total.totalCents,
        kwh_reduced: Math.round(total.kwhReduced * 100) / 100,
        program: program
          ? {
              name: program.name,
              utility: program.utility,
              reservation_cents_per_kw_month: program.reservation_cents_per_kw_month,
              performance_cents_per_kwh: program.performance_cents_per_kwh,
              estimated: program.estimated === 1,
            }
          : null,
      });
    }),
  );

  r.get(
    "/insights/:clientId/dispatches",
    route((req, res) => {
      const auth = getAuth(res);
      const clientId = requireOwnClient(auth, req.params.clientId);
      const q = parse(dispatchQuery, req.query, "query");
      // Events that ended since the last read get their final status first (the grid operator's side).
      finaliseEndedDispatches(deps.db);
      const sorts =
        q.sort_by === undefined ? DEFAULT_DISPATCH_SORT : Array.isArray(q.sort_by) ? q.sort_by : [q.sort_by];
      if (sorts.length === 0)
        throw validationError({ query: [{ location: "sort_by", message: "must not be empty" }] });
      const orderBy = [
        ...sorts.map((s) => {
          const [field, dir] = s.split(":");
          return `${DISPATCH_SORT_FIELDS[field]} ${dir === "ASC" ? "ASC" : "DESC"}`;
        }),
        "d.id DESC",
      ].join(", ");
      const { where, params } = dispatchFilter(auth, clientId, q);
      const from = `FROM dispatches d JOIN buildings b ON b.id = d.building_id WHERE ${where.join(" AND ")}`;
      const { total } = deps.db.prepare(`SELECT count(*) AS total ${from}`).get(...params) as {
        total: number;
      };
      const rows = deps.db
        .prepare(
          `SELECT d.id, d.building_id, b.address_line1 || ', ' || b.city AS building_address, b.timezone AS building_timezone,
             d.status, d.event_type, d.is_internal_test, d.precool_start_time, d.start_time, d.end_time, d.program_id,
             EXISTS (SELECT 1 FROM dispatch_thermostats x WHERE x.dispatch_id = d.id AND x.was_overridden = 1) AS were_overridden
           ${from} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
        )
        .all(...params, q.size, (q.page - 1) * q.size) as EventRow[];
      const ids = rows.map((row) => row.id);
      const details = ids.length
        ? (deps.db
            .prepare(
              `SELECT x.dispatch_id, x.thermostat_id, t.device_name, x.precool_setpoint, x.target_setpoint, x.pre_event_observed,
                 x.participating_minutes, x.was_overridden, x.overridden_at, x.override_setpoint, x.max_indoor_f
               FROM dispatch_thermostats x JOIN thermostats t ON t.id = x.thermostat_id
               WHERE x.dispatch_id IN (${ids.map(() => "?").join(",")}) ORDER BY t.device_name, t.id`,
            )
            .all(...ids) as DetailRow[])
        : [];
      const measured = measureDispatches(deps.db, rows);
      res.json({
        items: rows.map((row) => ({
          id: row.id,
          building_id: row.building_id,
          building_address: row.building_address,
          building_timezone: row.building_timezone,
          status: row.status,
          event_type: row.event_type,
          is_internal_test: row.is_internal_test === 1,
          precool_start_time: row.precool_start_time,
          start_time: row.start_time,
          end_time: row.end_time,
          were_overridden_thermostats: row.were_overridden === 1,
          thermostat_actions_insights: details
            .filter((d) => d.dispatch_id === row.id)
            .map((d) => ({
              thermostat_id: d.thermostat_id,
              device_name: d.device_name,
              precool_setpoint: d.precool_setpoint,
              target_setpoint: d.target_setpoint,
              pre_event_observed: d.pre_event_observed,
              participating_minutes: d.participating_minutes,
              was_overridden: d.was_overridden === 1,
              overridden_at: d.overridden_at,
              override_setpoint: d.override_setpoint,
              max_indoor_f: d.max_indoor_f,
            })),
          performance: performanceJson(measured.get(row.id)!),
        })),
        total,
        page: q.page,
        size: q.size,
      });
    }),
  );

  return r;
}
