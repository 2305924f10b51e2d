import {
  data,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useFetcher,
  useLoaderData,
  useNavigation,
  useRouteError,
} from "@remix-run/react";
import { useState } from "react";
import {
  accessChanges,
  bulkChoice,
  emailToggles,
  fullName,
  isEditablePreference,
  locationsColumn,
  searchAndSortTeam,
  settingsTab,
  TEAM_SORTS,
  type TeamSort,
} from "~/features/settings/settings";
import styles from "~/features/settings/settings.css";
import { getPreferences, getTeam, saveTeamAccess, setPreference } from "~/features/settings/settings.server";
import { isApiError, settle } from "~/server/api-error";
import { canManageTeam, requireSmb, requireTeamManager } from "~/server/guards.server";
import type { ApiClient } from "~/server/api-client.server";
import { answer, detached, once, ownerOf, rememberRedirects, submissionKey, type ActionOutcome } from "~/server/idempotency.server";
import { redirectWithToast } from "~/server/session.server";
import { getApi, withPrimaryStatus } from "~/server/upstream.server";
import { LinkTabs } from "~/ui/link-tabs";
import { Alert, ErrorState } from "~/ui/states";
import { SUBMISSION_ID_FIELD, SubmissionIdInput, submissionIdField } from "~/ui/submission-id";
import { UrlDialog } from "~/ui/url-dialog";
import { useHydrated } from "~/ui/use-hydrated";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

const FORBIDDEN = () => data({ message: "Forbidden" }, { status: 403 });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSmb(request);
  const url = new URL(request.url);
  const canManage = canManageTeam(user);
  if (url.searchParams.get("tab") === "team" && !canManage) throw FORBIDDEN();
  const tab = settingsTab(url.searchParams.get("tab"), canManage);
  const api = await getApi(request, context);
  if (tab === "preferences") {
    const prefs = await settle(getPreferences(api));
    return withPrimaryStatus({
      tab,
      canManage,
      userId: user.id,
      toggles: prefs.ok ? emailToggles(prefs.data) : null,
      team: null,
    }, prefs);
  }
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const sortParam = url.searchParams.get("sort") as TeamSort;
  const sort: TeamSort = TEAM_SORTS.includes(sortParam) ? sortParam : "name";
  const dir = url.searchParams.get("dir") === "desc" ? "desc" : "asc";
  const edit = Number(url.searchParams.get("edit")) || null;
  const team = await settle(getTeam(api, user.clientId));
  return withPrimaryStatus({
    tab,
    canManage,
    userId: user.id,
    toggles: null,
    team: {
      error: !team.ok,
      /** For the access form (ADR 0010): a new one with every render. */
      submissionId: crypto.randomUUID(),
      q,
      sort,
      dir,
      edit,
      members: team.ok
        ? searchAndSortTeam(team.data, q, sort, dir).map((m) => ({
            id: m.id,
            name: fullName(m),
            email: m.email,
            locations: locationsColumn(m.userBuildingsWithName),
            buildings: m.userBuildingsWithName.map((b) => ({
              id: b.buildingId,
              name: b.buildingName,
              hasAccess: b.hasAccess,
            })),
          }))
        : [],
    },
  }, team);
}

type AccessActionData = { userId: number; chosen: number[]; failed?: string[]; message?: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSmb(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const api = await getApi(request, context);

  if (intent === "preference") {
    const type = form.get("type");
    if (!isEditablePreference(type)) throw data({ message: "Unknown preference" }, { status: 400 });
    const enabled = form.get("enabled") === "true";
    try {
      await setPreference(api, user.id, type, enabled);
      return redirectWithToast(request, "/settings", { kind: "success", message: "Preferences saved" });
    } catch (error) {
      if (!isApiError(error)) throw error;
      return redirectWithToast(request, "/settings", { kind: "error", message: error.message });
    }
  }

  if (intent === "access-select-all" || intent === "access-revoke-all" || intent === "access-save") {
    await requireTeamManager(request);
    const userId = Number(form.get("userId"));
    const chosenRaw = form.getAll("building").map(Number).filter(Number.isSafeInteger);
    // A save runs once per submission id: a double click or a browser resubmit saves once (ADR 0010).
    const submissionId = intent === "access-save" ? submissionIdField.parse(form.get(SUBMISSION_ID_FIELD) ?? undefined) : undefined;
    const key = submissionId ? submissionKey(ownerOf(user), "team-access", submissionId, form) : null;
    const detachedApi = await getApi(detached(request), context);
    const outcome = await once(key, () => accessAction(detachedApi, user.clientId, intent, userId, chosenRaw), rememberRedirects);
    return answer(request, outcome);
  }
  throw data({ message: "Unknown intent" }, { status: 400 });
}

/** The access editor's intents: Select all / Revoke all without JavaScript answer the choice; Save saves it. */
async function accessAction(
  api: ApiClient,
  clientId: number,
  intent: "access-select-all" | "access-revoke-all" | "access-save",
  userId: number,
  chosenRaw: number[],
): Promise<ActionOutcome<AccessActionData>> {
  let team;
  try {
    team = await getTeam(api, clientId);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return { kind: "reply", status: 502, body: { userId, chosen: chosenRaw, message: error.message } };
  }
  const member = team.find((m) => m.id === userId);
  if (!member) throw data({ message: "Not found" }, { status: 404 });
  const all = member.userBuildingsWithName.map((b) => b.buildingId);
  if (intent !== "access-save") {
    return {
      kind: "reply",
      status: 200,
      body: { userId, chosen: bulkChoice(all, chosenRaw, intent === "access-select-all" ? "select-all" : "revoke-all") },
    };
  }
  const chosen = bulkChoice(all, chosenRaw, "keep");
  const changes = accessChanges(member.userBuildingsWithName, chosen);
  const back = `/settings?tab=team`;
  if (changes.length === 0) return { kind: "redirect", to: back, toast: { kind: "info", message: "No changes to save." } };
  const { failed } = await saveTeamAccess(api, userId, changes);
  if (failed.length > 0) {
    const names = member.userBuildingsWithName.filter((b) => failed.includes(b.buildingId)).map((b) => b.buildingName);
    return { kind: "reply", status: 502, body: { userId, chosen, failed: names } };
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

export const meta: MetaFunction = () => [{ title: "Manage account · EnergyOps" }];

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

function Preferences({ toggles }: { toggles: { type: string; label: string; enabled: boolean }[] | null }) {
  if (!toggles) return <ErrorState title="An error has occurred, please try again." />;
  return (
    <section className="card stack" aria-labelledby="prefs-heading">
      <h2 id="prefs-heading">Email notifications</h2>
      <p className="muted">Choose which emails you receive. Delivery is by email only.</p>
      <ul className="toggle-list">
        {toggles.map((t) => (
          <li key={t.type}>
            <PreferenceToggle {...t} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function PreferenceToggle({ type, label, enabled }: { type: string; label: string; enabled: boolean }) {
  const fetcher = useFetcher();
  const optimistic = fetcher.formData ? fetcher.formData.get("enabled") === "true" : enabled;
  return (
    <fetcher.Form method="post" action="/settings">
      <input type="hidden" name="intent" value="preference" />
      <input type="hidden" name="type" value={type} />
      <button
        type="submit"
        role="switch"
        aria-checked={optimistic}
        name="enabled"
        value={String(!optimistic)}
        className="switch"
        data-testid={`pref-${type}`}
      >
        <span>{label}</span>
        <span className="row">
          <span className="switch-state" aria-hidden="true">
            {optimistic ? "On" : "Off"}
          </span>
          <span className="switch-track" aria-hidden="true" />
        </span>
      </button>
    </fetcher.Form>
  );
}

type TeamData = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["team"]>;

function Team({ team }: { team: TeamData }) {
  const hydrated = useHydrated();
  const keep = (extra: Record<string, string | null>) => {
    const p = new URLSearchParams({ tab: "team" });
    if (team.q) p.set("q", team.q);
    if (team.sort !== "name") p.set("sort", team.sort);
    if (team.dir !== "asc") p.set("dir", team.dir);
    for (const [k, v] of Object.entries(extra)) {
      if (v === null) p.delete(k);
      else p.set(k, v);
    }
    return `/settings?${p.toString()}`;
  };
  const sortHeader = (key: TeamSort, label: string) => {
    const active = team.sort === key;
    const nextDir = active && team.dir === "asc" ? "desc" : "asc";
    return (
      <th scope="col" aria-sort={active ? (team.dir === "asc" ? "ascending" : "descending") : "none"}>
        <Link to={keep({ sort: key, dir: nextDir })} className="sort-link" preventScrollReset replace>
          {label} {active ? (team.dir === "asc" ? "▲" : "▼") : ""}
        </Link>
      </th>
    );
  };
  const editing = team.members.find((m) => m.id === team.edit) ?? null;
  return (
    <section className="card stack" aria-labelledby="team-heading">
      <h2 id="team-heading">Team</h2>
      <Form
        method="get"
        action="/settings"
        className="team-search"
        role="search"
        aria-label="Search team members"
      >
        <input type="hidden" name="tab" value="team" />
        {team.sort !== "name" ? <input type="hidden" name="sort" value={team.sort} /> : null}
        {team.dir !== "asc" ? <input type="hidden" name="dir" value={team.dir} /> : null}
        <div className="field">
          <label htmlFor="team-q">Search by name or email</label>
          <input id="team-q" name="q" type="search" className="input" defaultValue={team.q} />
        </div>
        <button type="submit" className="btn btn-secondary">
          Search
        </button>
      </Form>
      {team.error ? (
        <ErrorState title="An error has occurred, please try again." />
      ) : team.members.length === 0 ? (
        <p className="muted">No team members match.</p>
      ) : (
        <div className="table-wrap">
          <table className="table team-table" data-testid="team-table">
            <thead>
              <tr>
                {sortHeader("name", "Name")}
                {sortHeader("email", "Email")}
                {sortHeader("locations", "Locations")}
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {team.members.map((m) => (
                <tr key={m.id}>
                  <td>{m.name}</td>
                  <td>{m.email}</td>
                  <td>{m.locations}</td>
                  <td>
                    <Link
                      to={keep({ edit: String(m.id) })}
                      preventScrollReset
                      replace
                      className="btn btn-secondary btn-small"
                      aria-label={`Edit access for ${m.name}`}
                    >
                      Edit access
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <UrlDialog
        open={Boolean(editing)}
        closeHref={keep({ edit: null })}
        title={editing ? `Location access: ${editing.name}` : ""}
      >
        {editing ? <AccessEditor key={editing.id} member={editing} hydrated={hydrated} submissionId={team.submissionId} /> : null}
      </UrlDialog>
    </section>
  );
}

function AccessEditor({
  member,
  hydrated,
  submissionId,
}: {
  member: TeamData["members"][number];
  hydrated: boolean;
  submissionId: string;
}) {
  const actionData = useActionData<typeof action>() as AccessActionData | undefined;
  const navigation = useNavigation();
  const fromAction = actionData && actionData.userId === member.id ? actionData : null;
  const initial = fromAction
    ? fromAction.chosen
    : member.buildings.filter((b) => b.hasAccess).map((b) => b.id);
  return (
    <AccessForm
      key={JSON.stringify(initial)}
      member={member}
      initial={initial}
      failed={fromAction?.failed}
      message={fromAction?.message}
      hydrated={hydrated}
      busy={navigation.state !== "idle"}
      submissionId={submissionId}
    />
  );
}

function AccessForm({
  member,
  initial,
  failed,
  message,
  hydrated,
  busy,
  submissionId,
}: {
  member: TeamData["members"][number];
  initial: number[];
  failed?: string[];
  message?: string;
  hydrated: boolean;
  busy: boolean;
  submissionId: string;
}) {
  const [chosen, setChosen] = useState<Set<number>>(new Set(initial));
  const all = member.buildings.map((b) => b.id);
  const changed = accessChanges(
    member.buildings.map((b) => ({ buildingId: b.id, hasAccess: b.hasAccess })),
    chosen,
  ).length;
  return (
    <Form
      method="post"
      action={`/settings?tab=team&edit=${member.id}`}
      className="stack"
      data-testid="access-editor"
    >
      <input type="hidden" name="userId" value={member.id} />
      <SubmissionIdInput value={submissionId} />
      {failed?.length ? (
        <Alert tone="error" title="Some changes were not saved.">
          Access could not be saved for: {failed.join(", ")}. Your choices are kept below; save again to
          retry.
        </Alert>
      ) : null}
      {message ? <Alert tone="error">{message}</Alert> : null}
      <div className="row">
        {hydrated ? (
          <>
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() => setChosen(new Set(all))}
            >
              Select all
            </button>
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() => setChosen(new Set())}
            >
              Revoke all
            </button>
          </>
        ) : (
          <>
            <button
              type="submit"
              name="intent"
              value="access-select-all"
              className="btn btn-secondary btn-small"
              formNoValidate
            >
              Select all
            </button>
            <button
              type="submit"
              name="intent"
              value="access-revoke-all"
              className="btn btn-secondary btn-small"
              formNoValidate
            >
              Revoke all
            </button>
          </>
        )}
        <span className="muted" aria-live="polite">
          {chosen.size} of {all.length} selected
        </span>
      </div>
      <fieldset>
        <legend className="visually-hidden">Locations {member.name} can access</legend>
        <ul className="access-grid">
          {member.buildings.map((b) => (
            <li key={b.id}>
              <label className="checkbox" htmlFor={`access-${b.id}`}>
                <input
                  type="checkbox"
                  id={`access-${b.id}`}
                  name="building"
                  value={b.id}
                  checked={chosen.has(b.id)}
                  onChange={(e) =>
                    setChosen((s) => {
                      const next = new Set(s);
                      if (e.target.checked) next.add(b.id);
                      else next.delete(b.id);
                      return next;
                    })
                  }
                />
                <span>{b.name}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="row">
        <button
          type="submit"
          name="intent"
          value="access-save"
          className="btn"
          disabled={hydrated && (busy || changed === 0)}
        >
          Save
        </button>
      </div>
    </Form>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <div className="stack settings">
        <h1>Manage account</h1>
        <ErrorState title="Forbidden">
          <p>
            <Link to="/settings">My Preferences</Link>
          </p>
        </ErrorState>
      </div>
    );
  }
  throw error;
}
