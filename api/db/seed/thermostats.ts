import { prng } from "../../lib/prng";
import type { SeedContext } from "./context";
import { USER } from "./ids";

/** The category each seeded issue type is filed under: one fact per type, not one per issue. */
const ISSUE_CATEGORY = {
  permanent_hold: "schedule",
  unchanging_schedule: "schedule",
  heat_setpoint_above_indoor_temp: "system_performance",
  cool_setpoint_below_indoor_temp: "system_performance",
} as const;

/** A seeded issue; it is dismissed exactly when its status is, as dismissing one from the page leaves it. */
type SeedIssue = {
  thermostat: number;
  slug: keyof typeof ISSUE_CATEGORY;
  status: "active" | "processing" | "failed" | "resolved" | "dismissed";
};

/**
 * The issues that make each thermostat's `intent` in devices.ts true (rule card-status-priority, docs/rules.md), plus actions that show
 * every receipt (success, fail with the vendor's reason, an event action with a dispatch id).
 */
export const SEED_ISSUES: SeedIssue[] = [
  { thermostat: 1013, slug: "permanent_hold", status: "active" },
  { thermostat: 1014, slug: "unchanging_schedule", status: "active" },
  { thermostat: 1015, slug: "heat_setpoint_above_indoor_temp", status: "active" },
  { thermostat: 1019, slug: "permanent_hold", status: "active" },
  { thermostat: 1021, slug: "permanent_hold", status: "processing" },
  { thermostat: 1022, slug: "unchanging_schedule", status: "dismissed" },
  { thermostat: 1024, slug: "permanent_hold", status: "active" },
  { thermostat: 1025, slug: "unchanging_schedule", status: "failed" },
  { thermostat: 1030, slug: "permanent_hold", status: "dismissed" },
  { thermostat: 1030, slug: "cool_setpoint_below_indoor_temp", status: "active" },
  // Resolved history: never shown as a card status.
  { thermostat: 1003, slug: "permanent_hold", status: "resolved" },
  { thermostat: 1010, slug: "unchanging_schedule", status: "resolved" },
];

export function seedThermostats(ctx: SeedContext) {
  const { db, now, today } = ctx;
  const rand = prng(4004);
  const at = (daysAgo: number) =>
    new Date(today.getTime() - daysAgo * 86_400_000 + Math.floor(rand() * 8 * 3_600_000)).toISOString();
  const far = new Date(today.getTime() + 30 * 86_400_000).toISOString();

  const issue = db.prepare(
    `INSERT INTO thermostat_issues (id, thermostat_id, building_id, issue_slug, issue_category, current_status, is_dismissed, created_at, updated_at, resolves_at)
     VALUES (?, ?, (SELECT building_id FROM thermostats WHERE id = ?), ?, ?, ?, ?, ?, ?, ?)`,
  );
  SEED_ISSUES.forEach((i, n) => {
    const created = at(3 + Math.floor(rand() * 20));
    // The seeded processing issue stays "resolving" for the demo; issues resolved from the page finish quickly.
    issue.run(
      n + 1,
      i.thermostat,
      i.thermostat,
      i.slug,
      ISSUE_CATEGORY[i.slug],
      i.status,
      i.status === "dismissed" ? 1 : 0,
      created,
      created,
      i.status === "processing" ? far : null,
    );
  });

  const insertAction = db.prepare(
    `INSERT INTO thermostat_actions (thermostat_id, status, device_specific_data_json, dispatch_id, reason, requested_by, created_at, completes_at, finished_at)
     VALUES (@thermostat, @status, @settings, @dispatch, @reason, @requestedBy, @at, NULL, @finishedAt)`,
  );
  /** A command that has finished (20 s after it was sent), as the vendor answered it. */
  const finishedAction = (a: {
    thermostat: number;
    status: "success" | "fail";
    settings: Record<string, unknown>;
    at: string;
    dispatch?: number;
    reason?: string;
    requestedBy?: number;
  }) =>
    insertAction.run({
      thermostat: a.thermostat,
      status: a.status,
      settings: JSON.stringify(a.settings),
      dispatch: a.dispatch ?? null,
      reason: a.reason ?? null,
      requestedBy: a.requestedBy ?? null,
      at: a.at,
      finishedAt: new Date(new Date(a.at).getTime() + 20_000).toISOString(),
    });
  // The grid event's precool command on the first event device (an action carrying a dispatch id), sent
  // when the running event's precooling began (two hours before the seed's "now", devices.ts).
  const eventAt = new Date(now.getTime() - 2 * 3_600_000).toISOString();
  finishedAction({
    thermostat: 1001,
    status: "success",
    settings: { mode: "cool", cool_setpoint_f: 70 },
    dispatch: 1,
    at: eventAt,
  });
  // A user's change that went through, and one the vendor could not deliver.
  finishedAction({
    thermostat: 1003,
    status: "success",
    settings: { cool_setpoint_f: 76 },
    requestedBy: USER.dana,
    at: at(2),
  });
  finishedAction({
    thermostat: 1016,
    status: "fail",
    settings: { heat_setpoint_f: 67 },
    reason: "The thermostat did not respond to the vendor: it is offline or unlinked",
    requestedBy: USER.dana,
    at: at(1),
  });
}
