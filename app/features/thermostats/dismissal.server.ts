import { listAllBuildings } from "~/features/locations/locations.server";
import type { ApiClient } from "~/server/api-client.server";
import { isDismissedIssue } from "./thermostats";
import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import { issueLabel, type DismissalParams } from "./dismissal";
import { dismissIssueBySlug, listThermostats } from "./thermostats.server";

/** The link's (and the form's) two parameters; anything else is "Submission Failed". */
export const dismissalSchema = z.object({
  thermostatId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  issueSlug: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{1,100}$/),
}) satisfies z.ZodType<DismissalParams>;

/** The dismissal link's query or the page's form, parsed with `dismissalSchema`. */
export const parseDismissal = (form: URLSearchParams | FormData) =>
  parseWithZod(form, { schema: dismissalSchema });

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
