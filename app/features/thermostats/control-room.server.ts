import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { MESSAGES } from "./messages";
import { z } from "zod";
import type { SettingsReply } from "~/features/thermostats/components/settings-form";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { isApiError, settle } from "~/server/upstream/api-error";
import { formId, invalidSubmission, parseForm } from "~/server/forms.server";
import { detached, idempotentAction, type ActionOutcome } from "~/server/idempotency.server";
import { redirectWithToast, type SessionUser, type Toast } from "~/server/upstream/session.server";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { requireSmb } from "~/server/upstream/guards.server";
import { supportEmail } from "~/server/config.server";
import { submissionIdField } from "~/lib/submission-id";
import { SUBMISSION_ID_FIELD } from "~/ui/submission-id";
import {
  cardAnchor,
  changedSettings,
  limitsOf,
  parsePoll,
  parseTab,
  parseWatch,
  settingsRefusal,
  updateErrorMessage,
  type CardTimes,
  type Tab,
  type ThermostatInfo,
} from "./thermostats";
import { settingsSchema } from "./settings-schema";
import { formatLocalTime } from "~/lib/local-time";
import { formatZonedClock, formatZonedMediumDate, HOME_TIMEZONE, zonedParts } from "~/lib/zoned";
import {
  listAllBuildings,
  locationUnavailable,
  requireLocationId,
} from "~/features/locations/locations.server";
import {
  dismissIssue,
  getThermostatAction,
  listThermostats,
  resolveIssue,
  updateThermostatSettings,
} from "./thermostats.server";
import { parseId } from "~/lib/ids";
import { now as clockNow } from "~/server/clock.server";
import { withQuery } from "~/lib/query";

/*
 * The control room's server side (app/routes/_app.locations.$locationId.control.tsx): its view model, which
 * makes the page's reads (the location's thermostats, a watched change, the building's timezone from the
 * locations list) and writes its times; its loader; and its one action (Save, Resolve Issue, DISMISS).
 */

// ---- The cards' times ---------------------------------------------------------------------------------
// Written here, on the server, so the browser's control room does not load a timezone into Intl: the loader
// writes the times out (controlRoomView) and the cards read them (timesFormatter). One cached
// Intl.DateTimeFormat per zone writes them: two TZDates and two date-fns formats per time were a few percent
// of the control room's server CPU.

/** A timestamp in New York time, e.g. "Mar 3, 2026, 4:05 PM ET": the spec's "last seen" time. */
export function formatNewYork(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  const p = zonedParts(ms, HOME_TIMEZONE);
  return `${formatZonedMediumDate(p)}, ${formatZonedClock(p)} ET`;
}

/**
 * The instants the control room's cards write out, written by the server (rule card-times, docs/rules.md):
 * "last seen" in New York time, as the spec asks; a change's send time and a grid event's start in the
 * building's own timezone, labelled with its zone, in the same words as Grid Services (one formatter,
 * app/lib/local-time.ts), so an Austin café's receipt reads its own 10:34 AM CST and a Seattle event reads the
 * same on both pages. The browser then hydrates the cards without loading a timezone into Intl.
 */
export function cardTimesOf(
  items: Pick<ThermostatInfo, "state" | "thermostatAction" | "dispatch">[],
  timezone: string | null | undefined,
): CardTimes {
  const times: CardTimes = { lastSeen: {}, local: {} };
  for (const { state, thermostatAction, dispatch } of items) {
    const seen = state.lastSeen;
    const text = seen && !(seen in times.lastSeen) ? formatNewYork(seen) : null;
    if (seen && text) times.lastSeen[seen] = text;
    for (const iso of [thermostatAction?.createdAt, dispatch?.startTime]) {
      if (!iso || iso in times.local || Number.isNaN(Date.parse(iso))) continue;
      times.local[iso] = formatLocalTime(iso, timezone);
    }
  }
  return times;
}

/** The control room's location id: anything but a positive safe integer goes back to the locations list. */
export function locationIdOf(request: Request, params: { locationId?: string }) {
  return requireLocationId(request, params.locationId);
}

/**
 * The control room's view model (rule vendor-detail-for-staff, docs/rules.md): the location's cards, the
 * change a `watch` names, the tab, the no-JavaScript poll counter and the card to open; `list` is the primary
 * outcome (the page's status). Another client's building (a 404) goes back to the locations list.
 */
export async function controlRoomView(
  api: ApiClient,
  user: Pick<SessionUser, "isStaff" | "isImpersonating">,
  locationId: number,
  url: URL,
  supportEmail: string,
  request: Request,
) {
  const tab = parseTab(url.searchParams.get("tab"));
  const watch = parseWatch(url.searchParams.get("watch"));
  const [list, watched, buildings] = await Promise.all([
    settle(listThermostats(api, locationId)),
    watch ? settle(getThermostatAction(api, watch.thermostatId, watch.actionId)) : null,
    // The building's timezone, for its receipts and event times: the same GET as the shell's and the
    // location layout's (one upstream call per page view through the load context). Without it (a failure)
    // those times read in New York time, still labelled with their zone.
    settle(listAllBuildings(api)),
  ]);
  // Another client's building, or one this user may no longer see (access revoked since an email linked
  // here): back to the list, saying why, as the location layout does for an id it does not know.
  if (!list.ok && list.error.status === 404) throw await locationUnavailable(request);
  return {
    list,
    view: {
      locationId,
      tab,
      poll: parsePoll(url.searchParams.get("poll")),
      openCard: parseId(url.searchParams.get("card")),
      loadedAt: Date.now(),
      /** The web's clock (app/server/clock.server.ts), for rules that compare with "now" on both sides. */
      now: clockNow().getTime(),
      error: !list.ok,
      items: list.ok ? list.data : [],
      times: cardTimesOf(
        list.ok ? list.data : [],
        buildings.ok ? buildings.data.find((b) => b.id === locationId)?.timezone : null,
      ),
      watched: watched?.ok ? watched.data : null,
      showVendor: user.isStaff && user.isImpersonating,
      supportEmail,
      submissionId: crypto.randomUUID(),
    },
  };
}

const tabField = z
  .string()
  .optional()
  .transform((v): Tab => parseTab(v ?? null));

/**
 * The control room's one action schema: Save (a card's setting form) and Resolve Issue / DISMISS (its back).
 * Save's setting fields are checked afterwards with the device's own `settingsSchema` (the browser's schema),
 * whose limits come from the upstream list.
 */
export const controlActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("save"), thermostatId: formId, tab: tabField }),
  z.object({ intent: z.literal("resolve"), thermostatId: formId, issueId: formId, tab: tabField }),
  z.object({ intent: z.literal("dismiss"), thermostatId: formId, issueId: formId, tab: tabField }),
]);
export type ControlAction = z.infer<typeof controlActionSchema>;

/** The control room's address after an action: the tab kept (only when it is "issues") plus `extra`. */
export function controlRoomHref(locationId: number, tab: Tab, extra: Record<string, string> = {}) {
  return `/locations/${locationId}/control${withQuery("", { tab: tab === "issues" ? tab : null, ...extra })}`;
}

/** Resolve Issue reopens the card's back; DISMISS says so in a toast; a refusal is an error toast. */
export async function answerIssue(
  api: ApiClient,
  locationId: number,
  value: Extract<ControlAction, { intent: "resolve" | "dismiss" }>,
): Promise<{ to: string; toast?: Toast }> {
  const { thermostatId, issueId, tab } = value;
  try {
    if (value.intent === "resolve") {
      await resolveIssue(api, thermostatId, issueId);
      return { to: controlRoomHref(locationId, tab, { card: String(thermostatId) }) };
    }
    await dismissIssue(api, thermostatId, issueId);
    return { to: controlRoomHref(locationId, tab), toast: { kind: "success", message: MESSAGES.dismissed } };
  } catch (error) {
    if (!isApiError(error)) throw error;
    return {
      to: controlRoomHref(locationId, tab, { card: String(thermostatId) }),
      toast: { kind: "error", message: error.message },
    };
  }
}

/** Save: the device's own limits come from the list, so the server validates with the same schema as the browser. */
export async function saveSettings(
  api: ApiClient,
  locationId: number,
  value: Extract<ControlAction, { intent: "save" }>,
  form: FormData,
): Promise<ActionOutcome<SettingsReply>> {
  const { thermostatId, tab } = value;
  const list = await settle(listThermostats(api, locationId));
  const item = list.ok ? list.data.find((i) => i.thermostat.id === thermostatId) : undefined;
  const submission = item ? parseForm(form, { schema: settingsSchema(limitsOf(item)) }) : null;
  if (!item || !submission) {
    return {
      kind: "reply",
      status: list.ok ? 404 : 502,
      body: {
        intent: "save",
        thermostatId,
        lastResult: { status: "error", error: { "": [MESSAGES.updateFailed] } },
        failure: MESSAGES.updateFailed,
      },
    };
  }
  // An unlinked device: refused before anything is sent, whatever the form says (even a forged one).
  const refusal = settingsRefusal(item);
  if (refusal) {
    return {
      kind: "reply",
      status: 400,
      body: { intent: "save", thermostatId, lastResult: submission.reply({ formErrors: [refusal] }) },
    };
  }
  if (submission.status !== "success") {
    return {
      kind: "reply",
      status: 400,
      body: { intent: "save", thermostatId, lastResult: submission.reply() },
    };
  }
  const changed = changedSettings(item.state, submission.value);
  if (Object.keys(changed).length === 0) {
    return {
      kind: "reply",
      status: 400,
      body: {
        intent: "save",
        thermostatId,
        lastResult: submission.reply({ formErrors: ["Change a setting before saving."] }),
      },
    };
  }
  try {
    const created = await updateThermostatSettings(api, thermostatId, changed);
    return {
      kind: "redirect",
      // The fragment names the card: without JavaScript the browser scrolls to it; with it, the page focuses it.
      to: `${controlRoomHref(locationId, tab, { watch: `${thermostatId}:${created.id}` })}#${cardAnchor(thermostatId)}`,
      toast: { kind: "success", message: MESSAGES.submitted },
    };
  } catch (error) {
    if (!isApiError(error)) throw error;
    const message = updateErrorMessage(error);
    return {
      kind: "reply",
      status: error.status >= 400 && error.status < 600 ? error.status : 502,
      body: {
        intent: "save",
        thermostatId,
        // No answer, but it may have been applied: one more line says so and where to look. The form keeps its
        // submission id, so the same Save again is answered by the api with the first one's outcome.
        lastResult: submission.reply({
          fieldErrors: error.fieldErrors,
          formErrors: error.maybeApplied ? [message, MESSAGES.maybeApplied] : [message],
        }),
        failure: message,
      },
    };
  }
}

/** The control room's loader (the route's server code lives in its feature: docs/architecture.md, "Script files"). */
export async function controlRoomLoader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireSmb(request);
  const locationId = await locationIdOf(request, params);
  const api = await getApi(request, context);
  const url = new URL(request.url);
  const { view, list } = await controlRoomView(api, user, locationId, url, supportEmail(), request);
  return withPrimaryStatus(view, list);
}

/** The control room's action: answers an issue, or saves a thermostat's settings once per submission id. */
export async function controlRoomAction({ request, params, context }: ActionFunctionArgs) {
  const user = await requireSmb(request);
  const locationId = await locationIdOf(request, params);
  const form = await request.formData();
  // One schema: an unknown intent or a malformed id fails here, a 400 with the form's reply.
  const submission = parseForm(form, { schema: controlActionSchema });
  if (submission.status !== "success") return invalidSubmission(submission, { thermostatId: null });
  const value = submission.value;

  if (value.intent !== "save") {
    // Not cancelled with the browser's request either: an answer sent upstream finishes (ADR 0010).
    const api = await getApi(detached(request), context);
    const { to, toast } = await answerIssue(api, locationId, value);
    return toast ? redirectWithToast(request, to, toast) : redirect(to);
  }

  // Save: once per submission id (a double click or a browser resubmit sends one vendor command, ADR 0010).
  const submissionId = submissionIdField.parse(form.get(SUBMISSION_ID_FIELD) ?? undefined);
  return idempotentAction(
    { request, context },
    { user, scope: "thermostat-settings", form, submissionId },
    (api) => saveSettings(api, locationId, value, form),
  );
}
