import { parseWithZod } from "@conform-to/zod";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useActionData, useFetcher, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { SettingsReply } from "~/features/thermostats/components/settings-form";
import { ThermostatCard } from "~/features/thermostats/components/thermostat-card";
import {
  changedSettings,
  hasDeviceIssue,
  limitsOf,
  MAX_POLLS,
  MESSAGES,
  parsePoll,
  parseTab,
  parseWatch,
  POLL_INTERVAL_MS,
  settingsSchema,
  updateErrorMessage,
} from "~/features/thermostats/thermostats";
import {
  dismissIssue,
  getThermostatAction,
  listThermostats,
  resolveIssue,
  updateThermostatSettings,
} from "~/features/thermostats/thermostats.server";
import styles from "~/features/thermostats/thermostats.css";
import { isApiError, settle } from "~/server/api-error";
import { supportEmail } from "~/server/config.server";
import { requireSmb } from "~/server/guards.server";
import type { ApiClient } from "~/server/api-client.server";
import {
  answer,
  detached,
  once,
  ownerOf,
  rememberRedirects,
  submissionKey,
  type ActionOutcome,
} from "~/server/idempotency.server";
import { redirectWithToast } from "~/server/session.server";
import { getApi, withPrimaryStatus } from "~/server/upstream.server";
import { LinkTabs } from "~/ui/link-tabs";
import { EmptyState, ErrorState } from "~/ui/states";
import { SUBMISSION_ID_FIELD, submissionIdField } from "~/ui/submission-id";
import { Toasts } from "~/ui/toasts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

function locationIdOf(params: LoaderFunctionArgs["params"]) {
  const id = Number(params.locationId);
  if (!Number.isSafeInteger(id) || id <= 0) throw redirect("/locations");
  return id;
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireSmb(request);
  const locationId = locationIdOf(params);
  const url = new URL(request.url);
  const tab = parseTab(url.searchParams.get("tab"));
  const watch = parseWatch(url.searchParams.get("watch"));
  const api = await getApi(request, context);
  const [list, watched] = await Promise.all([
    settle(listThermostats(api, locationId)),
    watch ? settle(getThermostatAction(api, watch.thermostatId, watch.actionId)) : null,
  ]);
  // Another client's building, or one this user may not see: treat as not found.
  if (!list.ok && list.error.status === 404) throw redirect("/locations");
  const card = Number(url.searchParams.get("card"));
  return withPrimaryStatus(
    {
      locationId,
      tab,
      poll: parsePoll(url.searchParams.get("poll")),
      openCard: Number.isSafeInteger(card) ? card : null,
      loadedAt: Date.now(),
      error: !list.ok,
      items: list.ok ? list.data : [],
      watched: watched?.ok ? watched.data : null,
      showVendor: user.isStaff && user.isImpersonating,
      supportEmail: supportEmail(request),
      submissionId: crypto.randomUUID(),
    },
    list,
  );
}

const INTENTS = ["save", "resolve", "dismiss"] as const;

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireSmb(request);
  const locationId = locationIdOf(params);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  if (!(INTENTS as readonly string[]).includes(intent))
    throw data({ message: "Unknown intent" }, { status: 400 });
  const thermostatId = Number(form.get("thermostatId"));
  if (!Number.isSafeInteger(thermostatId) || thermostatId <= 0)
    throw data({ message: "Unknown thermostat" }, { status: 400 });
  const tab = parseTab(String(form.get("tab") ?? ""));
  const back = (extra: Record<string, string> = {}) => {
    const q = new URLSearchParams({ ...(tab === "issues" ? { tab } : {}), ...extra }).toString();
    return `/locations/${locationId}/control${q ? `?${q}` : ""}`;
  };
  // Not cancelled with the browser's request: a claimed submission finishes for its repeats (ADR 0010).
  const api = await getApi(detached(request), context);

  if (intent === "resolve" || intent === "dismiss") {
    const issueId = Number(form.get("issueId"));
    if (!Number.isSafeInteger(issueId) || issueId <= 0)
      throw data({ message: "Unknown issue" }, { status: 400 });
    try {
      if (intent === "resolve") {
        await resolveIssue(api, thermostatId, issueId);
        return redirect(back({ card: String(thermostatId) }));
      }
      await dismissIssue(api, thermostatId, issueId);
      return redirectWithToast(request, back(), { kind: "success", message: MESSAGES.dismissed });
    } catch (error) {
      if (!isApiError(error)) throw error;
      return redirectWithToast(request, back({ card: String(thermostatId) }), {
        kind: "error",
        message: error.message,
      });
    }
  }

  // Save: once per submission id (a double click or a browser resubmit sends one vendor command, ADR 0010).
  const submissionId = submissionIdField.parse(form.get(SUBMISSION_ID_FIELD) ?? undefined);
  const key = submissionId ? submissionKey(ownerOf(user), "thermostat-settings", submissionId, form) : null;
  const outcome = await once(
    key,
    () => saveSettings(api, locationId, thermostatId, form, back),
    rememberRedirects,
  );
  return answer(request, outcome);
}

/** Save: the device's own limits come from the list, so the server validates with the same schema as the browser. */
async function saveSettings(
  api: ApiClient,
  locationId: number,
  thermostatId: number,
  form: FormData,
  back: (extra?: Record<string, string>) => string,
): Promise<ActionOutcome<SettingsReply>> {
  const list = await settle(listThermostats(api, locationId));
  const item = list.ok ? list.data.find((i) => i.thermostat.id === thermostatId) : undefined;
  const submission = item ? parseWithZod(form, { schema: settingsSchema(limitsOf(item)) }) : null;
  if (!item || !submission) {
    return {
      kind: "reply",
      status: list.ok ? 404 : 502,
      body: {
        intent: "save",
        thermostatId,
        lastResult: { status: "error", error: { "": [MESSAGES.updateFailed] } },
      },
      toast: { kind: "error", message: MESSAGES.updateFailed },
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
      to: back({ watch: `${thermostatId}:${created.id}` }),
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
        lastResult: submission.reply({ fieldErrors: error.fieldErrors, formErrors: [message] }),
      },
      toast: { kind: "error", message },
    };
  }
}

/**
 * With JavaScript: while a change is pending, a fetcher reloads this page's data every 15 s (at most 20 times,
 * also in a background tab: setInterval keeps running there); the freshest data wins.
 */
function usePolledData() {
  const loaderData = useLoaderData<typeof loader>();
  const fetcher = useFetcher<typeof loader>({ key: "thermostat-poll" });
  const location = useLocation();
  const fresh = fetcher.data && fetcher.data.loadedAt > loaderData.loadedAt ? fetcher.data : loaderData;
  const pending = fresh.items.some((i) => i.thermostatAction?.status === "pending");
  const load = useRef(fetcher.load);
  load.current = fetcher.load;
  const polls = useRef(0);
  const href = `${location.pathname}${location.search}`;
  useEffect(() => {
    polls.current = 0;
  }, [href]);
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => {
      if (polls.current >= MAX_POLLS) return clearInterval(timer);
      polls.current += 1;
      load.current(href);
    }, POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [pending, href]);
  return { ...fresh, pending };
}

function refreshUrl(search: string, poll: number) {
  const q = new URLSearchParams(search);
  q.set("poll", String(poll + 1));
  q.delete("card");
  return `?${q.toString()}`;
}

export default function ThermostatsPage() {
  const page = usePolledData();
  const location = useLocation();
  const actionData = useActionData<typeof action>();
  const issueItems = page.items.filter(hasDeviceIssue);
  const shown = page.tab === "issues" ? issueItems : page.items;
  const watched = page.watched;
  const outcome =
    watched && watched.status !== "pending"
      ? watched.status === "success"
        ? { kind: "success" as const, message: MESSAGES.completed(watched.thermostatName) }
        : { kind: "error" as const, message: MESSAGES.failed(watched.thermostatName) }
      : null;
  const base = `/locations/${page.locationId}/control`;

  return (
    <div className="stack thermo-page">
      <h1>{MESSAGES.title}</h1>
      {page.pending && page.poll < MAX_POLLS ? (
        <noscript>
          <meta
            httpEquiv="refresh"
            content={`${POLL_INTERVAL_MS / 1000};url=${refreshUrl(location.search, page.poll)}`}
          />
        </noscript>
      ) : null}
      {page.error ? (
        <ErrorState title={MESSAGES.loadError}>
          <p>
            <a href={`mailto:${page.supportEmail}`}>Contact Customer Support</a>
          </p>
        </ErrorState>
      ) : page.items.length === 0 ? (
        <EmptyState title="No thermostats">
          <p>{MESSAGES.empty}</p>
        </EmptyState>
      ) : (
        <LinkTabs
          label="Thermostats"
          value={page.tab}
          tabs={[
            { value: "all", label: "All devices", href: base, count: page.items.length },
            {
              value: "issues",
              label: "Devices with Issues",
              href: `${base}?tab=issues`,
              count: issueItems.length,
            },
          ]}
        >
          {shown.length === 0 ? (
            <p className="muted thermo-none">No devices with issues at this location.</p>
          ) : (
            <div className="card-grid thermo-grid">
              {shown.map((item) => (
                <ThermostatCard
                  key={item.thermostat.id}
                  item={item}
                  tab={page.tab}
                  showVendor={page.showVendor}
                  openBack={page.openCard === item.thermostat.id}
                  submissionId={page.submissionId}
                  serverReply={
                    actionData && actionData.thermostatId === item.thermostat.id ? actionData : undefined
                  }
                />
              ))}
            </div>
          )}
        </LinkTabs>
      )}
      {outcome ? (
        <div className="thermo-outcome">
          <Toasts toasts={[outcome]} />
        </div>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Thermostats · EnergyOps" }];
