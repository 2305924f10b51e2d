import * as clock from "../lib/clock";
import { buildingJson, type BuildingRow } from "../lib/buildings";
import type { ApiDeps } from "../lib/http";
import { placeholders } from "../db";
import { accountsOfBuilding } from "../lib/accounts";

/**
 * The energy-advisor summary of buildings (GET /buildings/energy-advisor): the computation, apart from the
 * HTTP handler in routes/locations.ts so that it reads (and is tested) as a rule of its own.
 */

/** Latest bill demand ÷ mean demand of the previous (up to) 12 bills of the same account at or above this is "high". */
export const HIGH_DEMAND_RATIO = 1.3;

export type DeviceStatus = "IN_DISPATCH_EVENT" | "DEVICE_ISSUES" | "OPERATING" | "NO_DEVICES";

type ThermostatRow = {
  id: number;
  building_id: number;
  device_name: string;
  is_reachable: number;
  status: number;
};

/**
 * The energy-advisor view of buildings (docs/api/locations.md), computed from the stored thermostats, issues,
 * dispatches and bills every time (docs/api/locations.md explains each rule).
 */
export function energyAdvisorBuildings(deps: ApiDeps, buildings: BuildingRow[], now = clock.now()) {
  const { db } = deps;
  if (buildings.length === 0) return [];
  const ids = buildings.map((b) => b.id);
  const inIds = placeholders(ids.length);
  const nowIso = now.toISOString();

  const thermostats = db
    .prepare(
      `SELECT id, building_id, device_name, is_reachable, status FROM thermostats WHERE building_id IN (${inIds}) ORDER BY id`,
    )
    .all(...ids) as ThermostatRow[];
  const issueIds = new Set(
    (
      db
        .prepare(
          `SELECT DISTINCT i.thermostat_id AS id FROM thermostat_issues i JOIN thermostats t ON t.id = i.thermostat_id
           WHERE t.building_id IN (${inIds}) AND i.is_dismissed = 0 AND i.current_status IN ('active','processing','failed')`,
        )
        .all(...ids) as { id: number }[]
    ).map((r) => r.id),
  );
  const inDispatch = new Set(
    (
      db
        .prepare(
          `SELECT DISTINCT dt.thermostat_id AS id FROM dispatch_thermostats dt JOIN dispatches d ON d.id = dt.dispatch_id
           JOIN thermostats t ON t.id = dt.thermostat_id
           WHERE t.building_id IN (${inIds}) AND d.start_time <= ? AND d.end_time > ? AND d.status <> 'OPT_OUT'`,
        )
        .all(...ids, nowIso, nowIso) as { id: number }[]
    ).map((r) => r.id),
  );
  const lastBills = new Map(
    (
      db
        .prepare(
          `SELECT building_id, statement_date, total_charges_cents FROM (
             SELECT building_id, statement_date, total_charges_cents,
               ROW_NUMBER() OVER (PARTITION BY building_id ORDER BY statement_date DESC, id DESC) AS rn
             FROM bill_statements WHERE building_id IN (${inIds})
           ) WHERE rn = 1`,
        )
        .all(...ids) as { building_id: number; statement_date: string; total_charges_cents: number }[]
    ).map((r) => [r.building_id, r]),
  );
  const ratios = new Map(
    (
      db
        .prepare(
          `WITH ranked AS (
             SELECT building_id, account_id, demand_kw,
               ROW_NUMBER() OVER (PARTITION BY account_id ORDER BY statement_date DESC, id DESC) AS rn
             FROM bill_statements WHERE building_id IN (${inIds}) AND demand_kw IS NOT NULL
           ), per_account AS (
             SELECT building_id, MAX(CASE WHEN rn = 1 THEN demand_kw END) AS latest,
               AVG(CASE WHEN rn BETWEEN 2 AND 13 THEN demand_kw END) AS baseline
             FROM ranked GROUP BY building_id, account_id
           )
           SELECT building_id, MAX(latest / baseline) AS ratio FROM per_account WHERE baseline > 0 GROUP BY building_id`,
        )
        .all(...ids) as { building_id: number; ratio: number }[]
    ).map((r) => [r.building_id, r.ratio]),
  );

  return buildings.map((b) => {
    const own = thermostats.filter((t) => t.building_id === b.id);
    const unreachable = own.filter((t) => t.is_reachable === 0).map((t) => t.id);
    const issues = own.filter((t) => issueIds.has(t.id)).map((t) => t.id);
    const dispatching = own.some((t) => inDispatch.has(t.id));
    const deviceStatus: DeviceStatus = dispatching
      ? "IN_DISPATCH_EVENT"
      : unreachable.length || issues.length
        ? "DEVICE_ISSUES"
        : own.length
          ? "OPERATING"
          : "NO_DEVICES";
    const bill = lastBills.get(b.id);
    const ratio = ratios.get(b.id);
    return {
      building: buildingJson(b),
      accounts: accountsOfBuilding(deps, b.id),
      device_summary: {
        device_status: deviceStatus,
        num_thermostats: own.length,
        unreachable_thermostats_ids: unreachable,
        issue_thermostats_ids: issues,
      },
      peak_demand_ratio: {
        ratio: ratio === undefined ? null : Math.round(ratio * 100) / 100,
        has_high_demand_ratio: ratio !== undefined && ratio >= HIGH_DEMAND_RATIO,
      },
      last_bill_date: bill?.statement_date ?? null,
      last_bill_total_cents: bill?.total_charges_cents ?? null,
      thermostats: own.map((t) => ({
        id: t.id,
        device_name: t.device_name,
        state: inDispatch.has(t.id)
          ? "in_dispatch_event"
          : t.is_reachable === 0
            ? "unreachable"
            : issueIds.has(t.id)
              ? "issue"
              : "operating",
        action:
          t.status === -2
            ? "link"
            : t.is_reachable === 0
              ? "reconnect"
              : issueIds.has(t.id)
                ? "review_issue"
                : null,
      })),
    };
  });
}
