import { listAllBuildings } from "~/features/locations/locations.server";
import type { ApiClient } from "~/server/api-client.server";
import { isDismissedIssue } from "./thermostats";
import { issueLabel, type DismissalParams } from "./dismissal";
import { dismissIssueBySlug, listThermostats } from "./thermostats.server";

export type DismissalTarget = {
  thermostatName: string;
  locationName: string;
  issueLabel: string;
  alreadyDismissed: boolean;
};

/**
 * What the dismissal page names: the thermostat (with its location) and the issue. The upstream has no call
 * for one thermostat, so the user's locations are listed and their thermostats fetched together (one round
 * trip after the list); null when the thermostat is not one of the user's.
 */
export async function findDismissalTarget(
  api: ApiClient,
  { thermostatId, issueSlug }: DismissalParams,
): Promise<DismissalTarget | null> {
  const buildings = await listAllBuildings(api);
  const lists = await Promise.all(buildings.map((b) => listThermostats(api, b.id)));
  for (const [i, items] of lists.entries()) {
    const item = items.find((t) => t.thermostat.id === thermostatId);
    if (!item) continue;
    const issues = item.issues.filter((x) => x.issueSlug === issueSlug && x.currentStatus !== "resolved");
    const building = buildings[i];
    return {
      thermostatName: item.thermostat.deviceName,
      locationName: building.nickname || building.name,
      issueLabel: issueLabel(issueSlug),
      alreadyDismissed: issues.length > 0 && issues.every(isDismissedIssue),
    };
  }
  return null;
}

/** The POST: the upstream dismissal is idempotent (a second one, or one with no open issue, is 204 too). */
export const dismissThermostatIssue = (api: ApiClient, { thermostatId, issueSlug }: DismissalParams) =>
  dismissIssueBySlug(api, thermostatId, issueSlug);
