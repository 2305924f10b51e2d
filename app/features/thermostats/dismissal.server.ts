import { listAllBuildings } from "~/features/locations/locations.server";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { isApiError, settle } from "~/server/upstream/api-error";
import type { ThermostatIssue } from "./thermostats";
import { parseForm } from "~/server/forms.server";
import { z } from "zod";
import type { DismissalParams } from "./dismissal";
import { issueLabel } from "../../../shared/status-labels";
import { locationName } from "../../../shared/location-name";
import { isIssueSlug } from "../../../shared/issue-slugs";
import {
  dismissalRefusal,
  type DismissalRefusal,
  type DismissalThermostat,
} from "../../../shared/issue-dismissal";
import { dismissIssueBySlug, listThermostats } from "./thermostats.server";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { failureStatus, getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { requireUser } from "~/server/upstream/guards.server";

/**
 * The link's (and the form's) two parameters; anything else is "Submission Failed". The slug must be one of the
 * catalogue's issue types: a garbled one (`permanent_ho`) names no issue, so it is a wrong parameter, not a
 * resolved issue.
 */
export const dismissalSchema = z.object({
  thermostatId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  issueSlug: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{1,100}$/)
    .refine(isIssueSlug),
}) satisfies z.ZodType<DismissalParams>;

/** The dismissal link's query or the page's form, parsed with `dismissalSchema`. */
export const parseDismissal = (form: URLSearchParams | FormData) =>
  parseForm(form, { schema: dismissalSchema });

export type DismissalTarget = {
  thermostatName: string;
  locationId: number;
  locationName: string;
  issueLabel: string;
  /** Why the issue may not be dismissed (rule dismissal-offer), or null when it may. */
  refusal: DismissalRefusal | null;
};

type Issue = Pick<ThermostatIssue, "issueSlug" | "currentStatus" | "isDismissed">;

/** The one-thermostat answer (our extension of the contract, docs/api/thermostats.md): only what the page names. */
const oneThermostatSchema = z.object({
  thermostat: z.object({
    id: z.number(),
    deviceName: z.string(),
    vendor: z.string(),
    issueAutoresolve: z.boolean(),
  }),
  issues: z.array(
    z.object({
      issueSlug: z.string(),
      currentStatus: z.enum(["active", "processing", "failed", "resolved", "dismissed"]),
      isDismissed: z.boolean(),
    }),
  ),
  building: z.object({ id: z.number(), name: z.string(), nickname: z.string().nullish() }),
});

/** The upstream's 404 for an id the session may not see (docs/api-contract.md, Conventions). */
const NOT_FOUND_MESSAGE = "Object Not Found Matching Id";

function target(
  thermostat: DismissalThermostat & { deviceName: string },
  building: { id: number; name: string; nickname?: string | null },
  issues: Issue[],
  issueSlug: string,
): DismissalTarget {
  return {
    thermostatName: thermostat.deviceName,
    locationId: building.id,
    locationName: locationName(building),
    issueLabel: issueLabel(issueSlug),
    refusal: dismissalRefusal(
      thermostat,
      issues.filter((x) => x.issueSlug === issueSlug),
    ),
  };
}

/**
 * What the dismissal page names: the thermostat (with its location) and the issue, in one upstream round trip
 * (GET /thermostats/{id}); null when the thermostat is not one of the user's (its 404). An upstream without
 * that route (a 404 with another message: the route itself is unknown) gets the contract's own way instead,
 * `findByListing`.
 */
export async function findDismissalTarget(
  api: ApiClient,
  params: DismissalParams,
): Promise<DismissalTarget | null> {
  try {
    const one = await api.get(`/thermostats/${params.thermostatId}`, { schema: oneThermostatSchema });
    return target(one.thermostat, one.building, one.issues, params.issueSlug);
  } catch (error) {
    if (!isApiError(error) || error.status !== 404) throw error;
    if (error.message === NOT_FOUND_MESSAGE) return null;
    return findByListing(api, params);
  }
}

/**
 * The same within the upstream's spec'd calls: the user's locations are listed and their thermostats fetched
 * together (two dependent round trips); null when the thermostat is not one of the user's.
 */
export async function findByListing(
  api: ApiClient,
  { thermostatId, issueSlug }: DismissalParams,
): Promise<DismissalTarget | null> {
  const buildings = await listAllBuildings(api);
  const lists = await Promise.all(buildings.map((b) => listThermostats(api, b.id)));
  for (const [i, items] of lists.entries()) {
    const item = items.find((t) => t.thermostat.id === thermostatId);
    if (item) return target(item.thermostat, buildings[i], item.issues, issueSlug);
  }
  return null;
}

/** The POST: the upstream dismissal is idempotent (a second one, or one with no open issue, is 204 too). */
export const dismissThermostatIssue = (api: ApiClient, { thermostatId, issueSlug }: DismissalParams) =>
  dismissIssueBySlug(api, thermostatId, issueSlug);

/**
 * The link in the issue email (rule dismissal-link, docs/rules.md). Login required (`next` keeps this URL). Like the login link,
 * the GET changes nothing: it names the thermostat and the issue and offers one button; the POST dismisses.
 */
export async function dismissalLoader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request);
  const submission = parseDismissal(new URL(request.url).searchParams);
  if (submission.status !== "success") return { target: null, params: null };
  const target = await settle(findDismissalTarget(await getApi(request, context), submission.value));
  // Not one of the user's thermostats: nothing to name, with the upstream's 404 (ADR 9).
  if (target.ok && !target.data) return data({ target: null, params: submission.value }, { status: 404 });
  return withPrimaryStatus({ target: target.ok ? target.data : null, params: submission.value }, target);
}

/**
 * The button's POST. The rule is asked again first (the page may be old, or the link forged): an issue the rule
 * does not let the user dismiss is answered with the reason, not sent upstream, and not reported as a failure
 * (it is a rule, not an incident).
 */
export async function dismissalAction({ request, context }: ActionFunctionArgs) {
  await requireUser(request);
  const submission = parseDismissal(await request.formData());
  if (submission.status !== "success") return { ok: false };
  const api = await getApi(request, context);
  const found = await settle(findDismissalTarget(api, submission.value));
  if (found.ok && found.data?.refusal)
    return data({ ok: false, refusal: found.data.refusal, target: found.data }, { status: 409 });
  const result = await settle(dismissThermostatIssue(api, submission.value));
  return result.ok ? { ok: true } : data({ ok: false }, { status: failureStatus(result.error) });
}
