import { locationLabelFromMatches, locationPageTitle } from "~/features/locations/page-title";
import { detached, idempotentAction } from "~/server/idempotency.server";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { invalidSubmission, parseForm } from "~/server/forms.server";
import { redirect } from "@remix-run/node";
import { redirectWithToast } from "~/server/upstream/session.server";
import { requireSmb } from "~/server/upstream/guards.server";
import { supportEmail } from "~/server/config.server";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ControlRoom, usePolledData } from "~/features/thermostats/components/control-room";
import { LocationSuffix } from "~/features/locations/components/location-heading";
import {
  answerIssue,
  controlActionSchema,
  controlRoomView,
  locationIdOf,
  saveSettings,
} from "~/features/thermostats/control.server";
import styles from "~/features/thermostats/thermostats.css";
import { SUBMISSION_ID_FIELD, submissionIdField } from "~/ui/submission-id";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireSmb(request);
  const locationId = locationIdOf(params);
  const api = await getApi(request, context);
  const url = new URL(request.url);
  const { view, list } = await controlRoomView(api, user, locationId, url, supportEmail(), request);
  return withPrimaryStatus(view, list);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireSmb(request);
  const locationId = locationIdOf(params);
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

export default function ThermostatsPage() {
  const page = usePolledData(useLoaderData<typeof loader>());
  const actionData = useActionData<typeof action>();
  return (
    <ControlRoom
      page={page}
      reply={actionData?.thermostatId ? actionData : undefined}
      locationSuffix={<LocationSuffix />}
    />
  );
}

export const meta: MetaFunction = ({ matches }) => [
  { title: locationPageTitle(["Thermostats"], locationLabelFromMatches(matches)) },
];
