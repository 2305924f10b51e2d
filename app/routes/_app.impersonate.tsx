import { data, redirect } from "@remix-run/node";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { invalidSubmission, parseForm } from "~/server/forms.server";
import { requireStaff } from "~/server/upstream/guards.server";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { setDemoMode } from "~/features/demo-mode/demo-mode.server";
import { CurrentSession } from "~/features/impersonation/components/current-session";
import { StartForm } from "~/features/impersonation/components/start-form";
import {
  impersonateActionSchema,
  impersonateView,
  refreshSessionUser,
  rotatedSessionCookie,
  signInAgain,
  startImpersonating,
  stopImpersonation,
} from "~/features/impersonation/impersonation.server";
import styles from "~/features/impersonation/impersonation.css";
import { settle } from "~/server/upstream/api-error";
import { safeRedirect } from "~/server/safe-redirect";
import { ErrorState } from "~/ui/states";
import { withQuery } from "~/lib/query";
import { SubmitButton } from "~/ui/pending";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request);
  const api = await getApi(request, context);
  const { view, clients } = await impersonateView(api, user, new URL(request.url));
  return withPrimaryStatus(view, clients);
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request);
  // One schema: an unknown intent, an unknown client id or a missing reason fails here (a 400 and the reply).
  const submission = parseForm(await request.formData(), { schema: impersonateActionSchema });
  if (submission.status !== "success") return invalidSubmission(submission);
  const value = submission.value;
  const api = await getApi(request, context);
  if (value.intent === "start") return startImpersonating(request, api, submission, value);
  if (value.intent === "stop") {
    const stopped = await settle(stopImpersonation(api));
    if (!stopped.ok) throw stopped.error.status === 401 ? await signInAgain(request) : stopped.error;
    const cookie = await rotatedSessionCookie(request, stopped.data, {
      kind: "success",
      message: "You stopped impersonating.",
    });
    return redirect("/impersonate", { headers: { "Set-Cookie": cookie } });
  }
  const result = await settle(setDemoMode(api, value.intent === "demo-on"));
  if (!result.ok)
    throw data({ message: result.error.message }, { status: result.error.status === 403 ? 403 : 502 });
  const cookie = await refreshSessionUser(request, api);
  return redirect(safeRedirect(value.redirectTo, "/"), { headers: { "Set-Cookie": cookie } });
}

export default function Impersonate() {
  const { q, page, pages, clients, selected, impersonating } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { search } = useLocation();
  const pageHref = (p: number) => withQuery(search, { page: p });
  return (
    <div className="stack impersonate-page">
      <h1>Impersonate</h1>
      {impersonating ? <CurrentSession name={impersonating.name} demo={impersonating.demo} /> : null}
      <section className="card stack" aria-labelledby="choose-title">
        <h2 id="choose-title">Choose a client</h2>
        <Form method="get" role="search" className="impersonate-search">
          <label htmlFor="client-search">Search clients</label>
          <div className="row">
            <input id="client-search" className="input" type="search" name="q" defaultValue={q} key={q} />
            <SubmitButton className="btn btn-secondary">Search</SubmitButton>
          </div>
        </Form>
        {clients === null ? (
          <ErrorState title="Unable to fetch clients." />
        ) : (
          <StartForm
            clients={clients.items}
            page={page}
            pages={pages}
            pageHref={pageHref}
            selected={selected}
            lastResult={actionData?.lastResult}
          />
        )}
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Impersonate · EnergyOps" }];
