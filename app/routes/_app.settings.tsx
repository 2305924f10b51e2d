import { canManageTeam, requireClientUser, requireTeamManager } from "~/server/upstream/guards.server";
import { idempotentAction } from "~/server/idempotency.server";
import { data } from "@remix-run/node";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { invalidSubmission, parseForm } from "~/server/forms.server";
import { redirectWithToast } from "~/server/upstream/session.server";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Preferences } from "~/features/settings/components/preferences";
import { Team } from "~/features/settings/components/team";
import { isAccessIntent, settingsActionSchema, settingsTab } from "~/features/settings/settings";
import styles from "~/features/settings/settings.css";
import { accessAction, loadPreferences, loadTeam, setPreference } from "~/features/settings/settings.server";
import { settle } from "~/server/upstream/api-error";
import { LinkTabs } from "~/ui/link-tabs";
import { GeneralErrorBoundary } from "~/ui/error-boundary";
import { ErrorState } from "~/ui/states";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
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

export async function action({ request, context }: ActionFunctionArgs) {
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

export default function Settings() {
  const { tab, canManage, toggles, team } = useLoaderData<typeof loader>();
  const tabs = [{ value: "preferences", label: "My Preferences", href: "/settings" }];
  if (canManage) tabs.push({ value: "team", label: "Team", href: "/settings?tab=team" });
  return (
    <div className="stack settings">
      <h1>Manage account</h1>
      <LinkTabs tabs={tabs} value={tab} label="Manage account">
        {tab === "preferences" ? <Preferences toggles={toggles} /> : team ? <Team team={team} /> : null}
      </LinkTabs>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Manage account · EnergyOps" }];

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        403: () => (
          <div className="stack settings">
            <h1>Manage account</h1>
            <ErrorState title="Forbidden">
              <p>
                <Link to="/settings">My Preferences</Link>
              </p>
            </ErrorState>
          </div>
        ),
      }}
    />
  );
}
