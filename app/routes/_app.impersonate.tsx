import { useRef } from "react";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { setDemoMode } from "~/features/demo-mode/demo-mode.server";
import {
  CLIENTS_PAGE_SIZE,
  impersonationSchema,
  refreshSessionUser,
  rotatedSessionCookie,
  searchClients,
  signInAgain,
  startImpersonation,
  stopImpersonation,
} from "~/features/impersonation/impersonation.server";
import styles from "~/features/impersonation/impersonation.css";
import { isApiError, settle } from "~/server/api-error";
import { requireStaff } from "~/server/guards.server";
import { safeRedirect } from "~/server/safe-redirect";
import { getApi, withPrimaryStatus } from "~/server/upstream.server";
import { Alert, ErrorState } from "~/ui/states";
import { useFocusInvalid } from "~/ui/use-focus-invalid";
import { FieldErrors } from "~/ui/field";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

const CLIENT_TYPE_LABEL: Record<string, string> = {
  SMB: "Small Comm",
  RESI: "Residential",
  LARGE_COMMERCIAL: "Large Commercial",
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const page = Math.max(1, Math.min(10_000, Number(url.searchParams.get("page")) || 1));
  const clients = await settle(searchClients(await getApi(request, context), q, page));
  return withPrimaryStatus(
    {
      q,
      page,
      clients: clients.ok ? clients.data : null,
      pages: clients.ok ? Math.max(1, Math.ceil(clients.data.total / CLIENTS_PAGE_SIZE)) : 1,
      selected: Number(url.searchParams.get("client")) || null,
      impersonating: user.isImpersonating ? { name: user.client?.name ?? "", demo: user.isDemoMode } : null,
    },
    clients,
  );
}

type ActionData = {
  errors: Partial<Record<"clientId" | "reason" | "form", string>>;
  values: { clientId: string; reason: string };
};

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request);
  const form = await request.formData();
  const intent = form.get("intent");
  const api = await getApi(request, context);
  switch (intent) {
    case "start": {
      const values = {
        clientId: String(form.get("clientId") ?? ""),
        reason: String(form.get("reason") ?? ""),
      };
      const parsed = impersonationSchema.safeParse(values);
      if (!parsed.success) {
        const errors: ActionData["errors"] = {};
        for (const issue of parsed.error.issues)
          errors[issue.path[0] as "clientId" | "reason"] ??= issue.message;
        return data<ActionData>({ errors, values }, { status: 400 });
      }
      try {
        const answer = await startImpersonation(api, parsed.data.clientId, parsed.data.reason);
        const user = answer.data;
        const cookie = await rotatedSessionCookie(request, answer, {
          kind: "success",
          message: `You are now impersonating ${user.client?.name ?? "the client"}`,
        });
        // Only SMB clients have the main application; for the others staff stay here, with the banner.
        return redirect(user.client?.clientType === "SMB" ? "/locations" : "/impersonate", {
          headers: { "Set-Cookie": cookie },
        });
      } catch (error) {
        if (!isApiError(error)) throw error;
        if (error.status === 401) throw await signInAgain(request);
        const errors: ActionData["errors"] =
          error.status === 404
            ? { clientId: "Choose a client" }
            : error.fieldErrors.reason
              ? { reason: error.fieldErrors.reason[0] }
              : { form: error.message };
        return data<ActionData>({ errors, values }, { status: error.status === 404 ? 400 : error.status });
      }
    }
    case "stop": {
      const stopped = await settle(stopImpersonation(api));
      if (!stopped.ok) throw stopped.error.status === 401 ? await signInAgain(request) : stopped.error;
      const cookie = await rotatedSessionCookie(request, stopped.data, {
        kind: "success",
        message: "You stopped impersonating.",
      });
      return redirect("/impersonate", { headers: { "Set-Cookie": cookie } });
    }
    case "demo-on":
    case "demo-off": {
      const result = await settle(setDemoMode(api, intent === "demo-on"));
      if (!result.ok)
        throw data({ message: result.error.message }, { status: result.error.status === 403 ? 403 : 502 });
      const cookie = await refreshSessionUser(request, api);
      return redirect(safeRedirect(form.get("redirectTo"), "/"), { headers: { "Set-Cookie": cookie } });
    }
    default:
      return data({ message: "Unknown action" }, { status: 400 });
  }
}

export default function Impersonate() {
  const { q, page, pages, clients, selected, impersonating } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  const { search } = useLocation();
  const errors = actionData && "errors" in actionData ? actionData.errors : {};
  const startForm = useRef<HTMLFormElement>(null);
  useFocusInvalid(startForm, actionData && "errors" in actionData ? actionData : null);
  const values =
    actionData && "values" in actionData
      ? actionData.values
      : { clientId: selected ? String(selected) : "", reason: "" };
  const pageHref = (p: number) => {
    const params = new URLSearchParams(search);
    params.set("page", String(p));
    return `?${params.toString()}`;
  };
  return (
    <div className="stack impersonate-page">
      <h1>Impersonate</h1>
      {impersonating ? (
        <section className="card stack" aria-labelledby="current-title">
          <h2 id="current-title">Current session</h2>
          <p>
            You are impersonating <strong>{impersonating.name}</strong>. Demo mode is{" "}
            {impersonating.demo ? "on" : "off"}.
          </p>
          <Form method="post" className="row">
            <input type="hidden" name="redirectTo" value="/impersonate" />
            <button
              type="submit"
              name="intent"
              value={impersonating.demo ? "demo-off" : "demo-on"}
              className="btn btn-secondary"
            >
              {impersonating.demo ? "Turn off demo mode" : "Turn on demo mode"}
            </button>
            <button type="submit" name="intent" value="stop" className="btn">
              Stop impersonating
            </button>
          </Form>
        </section>
      ) : null}

      <section className="card stack" aria-labelledby="choose-title">
        <h2 id="choose-title">Choose a client</h2>
        <Form method="get" role="search" className="impersonate-search">
          <label htmlFor="client-search">Search clients</label>
          <div className="row">
            <input id="client-search" className="input" type="search" name="q" defaultValue={q} key={q} />
            <button type="submit" className="btn btn-secondary">
              Search
            </button>
          </div>
        </Form>

        {clients === null ? (
          <ErrorState title="Unable to fetch clients." />
        ) : (
          <Form method="post" className="stack" noValidate ref={startForm}>
            {errors.form ? <Alert tone="error">{errors.form}</Alert> : null}
            <fieldset
              className="client-list"
              aria-describedby={errors.clientId ? "clientId-error" : undefined}
              aria-invalid={errors.clientId ? true : undefined}
            >
              <legend>Client</legend>
              {clients.items.length === 0 ? <p className="muted">No clients match your search.</p> : null}
              {clients.items.map((c) => (
                <label key={c.id} className="client-option">
                  <input
                    type="radio"
                    name="clientId"
                    value={c.id}
                    defaultChecked={values.clientId === String(c.id)}
                    autoFocus={Boolean(errors.clientId) && c.id === clients.items[0]?.id}
                    required
                  />
                  <span>{c.name}</span>
                  <span className="muted small">{CLIENT_TYPE_LABEL[c.clientType] ?? c.clientType}</span>
                </label>
              ))}
              <FieldErrors id="clientId-error" errors={errors.clientId ? [errors.clientId] : null} />
            </fieldset>
            {pages > 1 ? (
              <nav aria-label="Client pages" className="row">
                {page > 1 ? <Link to={pageHref(page - 1)}>Previous</Link> : null}
                <span className="muted">
                  Page {page} of {pages}
                </span>
                {page < pages ? <Link to={pageHref(page + 1)}>Next</Link> : null}
              </nav>
            ) : null}
            <div className="field">
              <label htmlFor="reason">Reason</label>
              <textarea
                id="reason"
                name="reason"
                className="input"
                rows={3}
                required
                maxLength={500}
                defaultValue={values.reason}
                autoFocus={Boolean(errors.reason) && !errors.clientId}
                aria-invalid={errors.reason ? true : undefined}
                aria-describedby={errors.reason ? "reason-error reason-hint" : "reason-hint"}
              />
              <p className="field-hint" id="reason-hint">
                Recorded in the audit log with your name and the time.
              </p>
              <FieldErrors id="reason-error" errors={errors.reason ? [errors.reason] : null} />
            </div>
            <div>
              <button
                type="submit"
                name="intent"
                value="start"
                className="btn"
                disabled={navigation.state === "submitting"}
              >
                Start impersonating
              </button>
            </div>
          </Form>
        )}
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Impersonate · EnergyOps" }];
