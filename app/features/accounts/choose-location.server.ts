import { data, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { listAllBuildings } from "~/features/locations/locations.server";
import { locationLabel, sortLocations } from "~/features/locations/locations";
import { isApiError, settle } from "~/server/upstream/api-error";
import { getApi } from "~/server/upstream/upstream.server";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { redirectWithToast, type SessionUser } from "~/server/upstream/session.server";
import { requireClientUser } from "~/server/upstream/guards.server";
import { formId, invalidSubmission, parseForm } from "~/server/forms.server";
import { safeRedirect } from "~/server/safe-redirect";

/**
 * "Choose location" for an account not yet assigned to one (rule account-choose-location): the accounts page's
 * form per unassigned account (a select and a button, JavaScript or not), posting to the page's action, which
 * asks the api (`PUT /accounts/{id}/building`); the api decides who may (admins and staff: only they see such
 * accounts) and which locations (those the person sees).
 */
export const chooseLocationSchema = z.object({
  intent: z.literal("choose-location"),
  account: formId,
  building: formId,
  /** The page the form was on (its paging), to come back to. */
  back: z.string().max(2000).optional(),
});

export const CHOOSE_LOCATION_MESSAGES = {
  saved: (number: string, location: string) => `Account ${number} is now at ${location}.`,
  failed: "That account or location isn't available to your account.",
} as const;

/** The locations an unassigned account may go to: those the person sees, sorted and labelled as elsewhere. */
export async function locationChoices(api: ApiClient, user: SessionUser) {
  const all = await settle(listAllBuildings(api));
  if (!all.ok) return [];
  return sortLocations(all.data, user.isStaff).map((b) => ({
    id: b.id,
    label: locationLabel(b, user.isStaff),
  }));
}

const assigned = z.object({ number: z.string(), buildingId: z.number().nullable() });

export async function chooseLocationAction({ request, context }: ActionFunctionArgs) {
  const user = await requireClientUser(request);
  const submission = parseForm(await request.formData(), { schema: chooseLocationSchema });
  if (submission.status !== "success") return invalidSubmission(submission);
  const { account, building, back } = submission.value;
  const api = await getApi(request, context);
  const to = safeRedirect(back, "/accounts");
  try {
    const [row, choices] = await Promise.all([
      api.put(`/accounts/${account}/building`, { body: { buildingId: building }, schema: assigned }),
      locationChoices(api, user),
    ]);
    const label = choices.find((c) => c.id === row.buildingId)?.label ?? "the location chosen";
    return redirectWithToast(request, to, {
      kind: "success",
      message: CHOOSE_LOCATION_MESSAGES.saved(row.number, label),
    });
  } catch (error) {
    if (!isApiError(error)) throw error;
    const message = error.status === 409 ? error.message : CHOOSE_LOCATION_MESSAGES.failed;
    return data({ chooseLocationError: { account, message } }, { status: error.status === 409 ? 409 : 400 });
  }
}
