import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
// The answers' schemas: zod 4 (faster to check, server-only); the forms' schema is zod 3 (./settings-form).
import { z } from "zod/v4";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { isApiError, settle } from "~/server/upstream/api-error";
import { type ActionOutcome, idempotentAction } from "~/server/idempotency.server";
import {
  accessChanges,
  bulkChoice,
  emailToggles,
  fullName,
  locationsColumn,
  searchAndSortTeam,
  TEAM_SORTS,
  type AccessActionData,
  type EditablePreference,
  type TeamSort,
  type TeamView,
  isAccessIntent,
  settingsTab,
} from "./settings";
import { settingsActionSchema, type AccessAction } from "./settings-form";
import { parseId } from "~/lib/ids";
import { canManageTeam, requireClientUser, requireTeamManager } from "~/server/upstream/guards.server";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { invalidSubmission, parseForm } from "~/server/forms.server";
import { redirectWithToast } from "~/server/upstream/session.server";

const prefSchema = z.object({
  userId: z.number(),
  deliveryMethodPreference: z.enum(["email", "sms"]),
  communicationPreferenceType: z.string(),
  enabled: z.boolean(),
});

const memberSchema = z.object({
  id: z.number(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  isClientAdmin: z.boolean().optional(),
  userBuildingsWithName: z.array(
    z.object({
      userId: z.number(),
      buildingId: z.number(),
      hasAccess: z.boolean(),
      buildingName: z.string(),
    }),
  ),
});

// Answer schemas are built once, here: the api client shares a validated answer between a request's loaders by
// schema object, and a zod schema built per call costs its construction every time.
const preferencesAnswer = z.object({ items: z.array(prefSchema) });
const teamAnswer = z.object({ items: z.array(memberSchema) });

export async function getPreferences(api: ApiClient) {
  const { items } = await api.get("/communication-preferences", { schema: preferencesAnswer });
  return items;
}

export function setPreference(api: ApiClient, userId: number, type: EditablePreference, enabled: boolean) {
  return api.put("/communication-preferences", {
    body: { userId, deliveryMethodPreference: "email", enabled, communicationPreferenceType: type },
  });
}

export async function getTeam(api: ApiClient, clientId: number) {
  const { items } = await api.get(`/users/${clientId}`, { schema: teamAnswer });
  return items;
}

/**
 * Saves a member's location access: one PUT /user_building_access per changed location, all started together.
 * Returns the building ids whose call failed (the others are saved).
 */
export async function saveTeamAccess(
  api: ApiClient,
  userId: number,
  changes: { buildingId: number; hasAccess: boolean }[],
) {
  const results = await Promise.all(
    changes.map((c) =>
      settle(
        api.put("/user_building_access", {
          body: { userId, buildingId: c.buildingId, hasAccess: c.hasAccess },
        }),
      ),
    ),
  );
  return {
    saved: changes.filter((_, i) => results[i].ok).map((c) => c.buildingId),
    failed: changes.filter((_, i) => !results[i].ok).map((c) => c.buildingId),
    /** A failed call got no answer but may have been applied (the connection closed, a time-out). */
    maybeApplied: results.some((r) => !r.ok && r.error.maybeApplied),
  };
}

/** The preferences tab: the four toggles, or null when the upstream failed (with its outcome for the status). */
export async function loadPreferences(api: ApiClient) {
  const prefs = await settle(getPreferences(api));
  return { toggles: prefs.ok ? emailToggles(prefs.data) : null, outcome: prefs };
}

/** The team tab's query: search (100 characters at most), sort, direction and the member being edited. */
export function teamQuery(params: URLSearchParams) {
  const sortParam = params.get("sort") as TeamSort;
  return {
    q: (params.get("q") ?? "").slice(0, 100),
    sort: TEAM_SORTS.includes(sortParam) ? sortParam : ("name" as TeamSort),
    dir: params.get("dir") === "desc" ? ("desc" as const) : ("asc" as const),
    edit: parseId(params.get("edit")),
  };
}

/** The team tab: the client's members searched and sorted for the list (with the upstream outcome). */
export async function loadTeam(api: ApiClient, clientId: number, params: URLSearchParams) {
  const query = teamQuery(params);
  const team = await settle(getTeam(api, clientId));
  const view: TeamView = {
    error: !team.ok,
    submissionId: crypto.randomUUID(),
    ...query,
    members: team.ok
      ? searchAndSortTeam(team.data, query.q, query.sort, query.dir).map((m) => ({
          id: m.id,
          name: fullName(m),
          email: m.email,
          locations: locationsColumn(m.userBuildingsWithName),
          // Only the member being edited needs every location (its access editor): with 300 locations the
          // whole team's lists were 50 KiB of hydration data on the team tab.
          buildings:
            m.id === query.edit
              ? m.userBuildingsWithName.map((b) => ({
                  id: b.buildingId,
                  name: b.buildingName,
                  hasAccess: b.hasAccess,
                }))
              : [],
        }))
      : [],
  };
  return { view, outcome: team };
}

/**
 * The access editor's intents: Select all / Revoke all without JavaScript answer the choice; Save saves one
 * call per changed location. An unknown member is a 404.
 */
export async function accessAction(
  api: ApiClient,
  clientId: number,
  { intent, userId, building }: AccessAction,
): Promise<ActionOutcome<AccessActionData>> {
  let team;
  try {
    team = await getTeam(api, clientId);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return { kind: "reply", status: 502, body: { userId, chosen: building, message: error.message } };
  }
  const member = team.find((m) => m.id === userId);
  if (!member) throw data({ message: "Not found" }, { status: 404 });
  const all = member.userBuildingsWithName.map((b) => b.buildingId);
  if (intent !== "access-save") {
    return {
      kind: "reply",
      status: 200,
      body: {
        userId,
        chosen: bulkChoice(all, building, intent === "access-select-all" ? "select-all" : "revoke-all"),
      },
    };
  }
  const chosen = bulkChoice(all, building, "keep");
  const changes = accessChanges(member.userBuildingsWithName, chosen);
  const back = `/settings?tab=team`;
  if (changes.length === 0)
    return { kind: "redirect", to: back, toast: { kind: "info", message: "No changes to save." } };
  const { failed, maybeApplied } = await saveTeamAccess(api, userId, changes);
  if (failed.length > 0) {
    const names = member.userBuildingsWithName
      .filter((b) => failed.includes(b.buildingId))
      .map((b) => b.buildingName);
    return {
      kind: "reply",
      status: 502,
      body: { userId, chosen, failed: names, ...(maybeApplied ? { maybeApplied } : {}) },
    };
  }
  return {
    kind: "redirect",
    to: back,
    toast: {
      kind: "success",
      message: `Location access saved for ${fullName(member)} (${changes.length} location${changes.length === 1 ? "" : "s"} changed).`,
    },
  };
}

export async function settingsLoader({ request, context }: LoaderFunctionArgs) {
  const user = await requireClientUser(request);
  const params = new URL(request.url).searchParams;
  const canManage = canManageTeam(user);
  if (params.get("tab") === "team" && !canManage) throw data({ message: "Forbidden" }, { status: 403 });
  const tab = settingsTab(params.get("tab"), canManage);
  const api = await getApi(request, context);
  if (tab === "preferences") {
    const prefs = await loadPreferences(api);
    return withPrimaryStatus(
      { tab, canManage, userId: user.id, toggles: prefs.toggles, team: null },
      prefs.outcome,
    );
  }
  const team = await loadTeam(api, user.clientId, params);
  return withPrimaryStatus({ tab, canManage, userId: user.id, toggles: null, team: team.view }, team.outcome);
}

export async function settingsAction({ request, context }: ActionFunctionArgs) {
  const user = await requireClientUser(request);
  const form = await request.formData();
  const submission = parseForm(form, { schema: settingsActionSchema });
  // The access editor is the team managers' (a 403 for anyone else, whatever the form holds).
  if (isAccessIntent(submission.payload.intent)) await requireTeamManager(request);
  if (submission.status !== "success") return invalidSubmission(submission);
  const value = submission.value;

  if (value.intent === "preference") {
    const saved = await settle(
      setPreference(await getApi(request, context), user.id, value.type, value.enabled),
    );
    return redirectWithToast(
      request,
      "/settings",
      saved.ok
        ? { kind: "success", message: "Preferences saved" }
        : { kind: "error", message: saved.error.message },
    );
  }

  // A save runs once per submission id: a double click or a browser resubmit saves once (ADR 0010).
  const submissionId = value.intent === "access-save" ? value.submissionId : null;
  return idempotentAction({ request, context }, { user, scope: "team-access", form, submissionId }, (api) =>
    accessAction(api, user.clientId, value),
  );
}
