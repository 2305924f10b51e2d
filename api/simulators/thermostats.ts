import * as clock from "../lib/clock";
import type { ApiDeps } from "../lib/http";
import type { ActionRow, ThermostatRow } from "../db/rows";

/** Why the vendor failed a change: the device did not answer. */
export const UNREACHABLE_REASON = "The thermostat did not respond to the vendor: it is offline or unlinked";

/**
 * The thermostat vendors: a pending action completes once its `completes_at` has passed (success on a
 * reachable, linked device, which then takes the asked settings; fail with the vendor's reason otherwise),
 * and a processing issue becomes resolved once its `resolves_at` has passed.
 */
export function tickThermostats(deps: ApiDeps, now = clock.now()) {
  const { db } = deps;
  const at = now.toISOString();
  const due = db
    .prepare(
      "SELECT * FROM thermostat_actions WHERE status = 'pending' AND completes_at IS NOT NULL AND completes_at <= ?",
    )
    .all(at) as ActionRow[];
  db.transaction(() => {
    for (const a of due) {
      const t = db.prepare("SELECT * FROM thermostats WHERE id = ?").get(a.thermostat_id) as
        ThermostatRow | undefined;
      if (!t) continue;
      if (t.is_reachable === 1 && t.status !== -2) {
        const asked = JSON.parse(a.device_specific_data_json) as {
          mode?: string;
          cool_setpoint_f?: number;
          heat_setpoint_f?: number;
        };
        db.prepare(
          "UPDATE thermostats SET mode = coalesce(?, mode), cool_setpoint_f = coalesce(?, cool_setpoint_f), heat_setpoint_f = coalesce(?, heat_setpoint_f), last_seen = ? WHERE id = ?",
        ).run(asked.mode ?? null, asked.cool_setpoint_f ?? null, asked.heat_setpoint_f ?? null, at, t.id);
        db.prepare("UPDATE thermostat_actions SET status = 'success', finished_at = ? WHERE id = ?").run(
          at,
          a.id,
        );
      } else {
        db.prepare(
          "UPDATE thermostat_actions SET status = 'fail', reason = ?, finished_at = ? WHERE id = ?",
        ).run(UNREACHABLE_REASON, at, a.id);
      }
    }
    db.prepare(
      "UPDATE thermostat_issues SET current_status = 'resolved', updated_at = ? WHERE current_status = 'processing' AND resolves_at IS NOT NULL AND resolves_at <= ?",
    ).run(at, at);
  })();
  if (due.length) deps.log("thermostat actions completed", { count: due.length });
}

export function startThermostatSimulator(deps: ApiDeps) {
  const every = Math.max(100, Math.min(1000, Math.floor(deps.config.thermostatActionDelayMs / 5)));
  const timer = setInterval(() => {
    try {
      tickThermostats(deps);
    } catch (error) {
      deps.log("thermostat simulator error", { err: error instanceof Error ? error.message : String(error) });
    }
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}
