import { data, redirect } from "@remix-run/node";
import { invalidSubmission, parseForm } from "~/server/forms.server";
import { withPrimaryStatus } from "~/server/upstream/upstream.server";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { CONNECT_MESSAGES } from "~/features/accounts/accounts";
import accountStyles from "~/features/accounts/accounts.css";
import { ConnectWidget } from "~/features/accounts/components/connect-widget";
import { ConedAccountFields } from "~/features/accounts/components/coned-account-list";
import { UtilityPicker } from "~/features/accounts/components/utility-picker";
import { ConedStep } from "~/features/prospect/components/coned-step";
import { StartStep } from "~/features/prospect/components/start-step";
import {
  HONEYPOT_FIELD,
  PROSPECT_MESSAGES,
  PROSPECT_PATH as PATH,
  prospectActionSchema,
  SEARCH_INTENT,
  effectiveIntent,
} from "~/features/prospect/prospect";
import styles from "~/features/prospect/prospect.css";
import {
  connectProspect,
  prospectConnectRule,
  prospectPage,
  readProspectState,
  startProspect,
  submitConedStep,
  type ProspectActionData,
} from "~/features/prospect/prospect.server";
import { forwardRetryAfter } from "~/server/headers";
import { PublicPage } from "~/ui/brand";
import { ErrorState } from "~/ui/states";
import { DESCRIPTIONS, description } from "~/features/public/seo";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: styles },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const { view, utilities } = await prospectPage(request);
  return withPrimaryStatus(view, utilities);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  if (effectiveIntent(form) === "start") form.set("intent", "start");
  const state = await readProspectState(request);
  // The built-in connect form is checked against the chosen utility's MFA rule: look it up first.
  const rule = await prospectConnectRule(request, state, form.get("intent"));
  if (rule.response) return rule.response;
  const submission = parseForm(form, { schema: prospectActionSchema(rule.mfaExempt) });
  const intent = String(submission.payload.intent ?? "");

  if (intent === "start" && String(submission.payload[HONEYPOT_FIELD] ?? "") !== "") {
    return data<ProspectActionData>(
      { intent, lastResult: submission.reply({ formErrors: [PROSPECT_MESSAGES.rejected] }) },
      { status: 400 },
    );
  }
  if (submission.status !== "success") {
    // An unknown intent fails the union: a 400 like any invalid form. A later step without a flow starts over.
    const later = !submission.error?.intent && intent !== "start";
    if (later && (!state || state.done)) return redirect(PATH);
    return invalidSubmission(submission, { intent }, { hideFields: ["password"] });
  }
  const value = submission.value;
  // The no-JavaScript utility search: no change, the form comes back with what was typed (its payload).
  if (value.intent === SEARCH_INTENT)
    return data<ProspectActionData>({ intent, q: value.q ?? "", lastResult: submission.reply() });
  if (value.intent === "start")
    return startProspect(request, context.clientIp ?? "unknown", submission, value);
  if (!state || state.done) return redirect(PATH);
  if (value.intent === "coned-submit") return submitConedStep(request, state, value);
  return connectProspect(request, state, value);
}

/** A 429 of the start keeps its Retry-After on the document answer. */
export const headers = forwardRetryAfter;

export default function FreeBillHealthCheck() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <PublicPage wide>
      <div className="prospect stack">
        <h1>{d.step === "success" ? PROSPECT_MESSAGES.successTitle : PROSPECT_MESSAGES.title}</h1>
        {d.error ? (
          <ErrorState title={CONNECT_MESSAGES.utilitiesFailed} />
        ) : d.step === "form" ? (
          <StartStep
            action={PATH}
            q={actionData?.intent === SEARCH_INTENT ? (actionData.q ?? "") : d.q}
            renderPicker={(slot) => (
              <UtilityPicker
                {...slot}
                utilities={d.utilities}
                searchAction={PATH}
                name="arcadiaProvider"
                searchIntent={SEARCH_INTENT}
              />
            )}
            lastResult={
              actionData?.intent === "start" || actionData?.intent === SEARCH_INTENT
                ? actionData.lastResult
                : undefined
            }
          />
        ) : d.step === "coned" ? (
          <ConedStep
            key={`${d.accounts.join("|")}#${d.newAccount}#${d.newAccountError ?? ""}#${actionData?.intent ?? ""}`}
            action={PATH}
            utilityName={d.utility?.name}
            accounts={d.accounts}
            confirmed={d.confirmed}
            newAccount={d.newAccount}
            newAccountError={d.newAccountError}
            fromAction={actionData?.intent === "coned-submit" ? actionData.coned : undefined}
            formError={actionData?.formError}
            renderAccountFields={(slot) => <ConedAccountFields {...slot} level={3} />}
          />
        ) : d.step === "connect" && d.utility ? (
          <div className="card stack">
            <h2>Connect your {d.utility.name} account</h2>
            <ConnectWidget
              config={d.widget}
              utility={d.utility}
              correlationId={d.correlationId}
              hidden={{}}
              lastResult={actionData && actionData.intent !== "start" ? actionData.lastResult : undefined}
            />
            <p>
              <Link to={`${PATH}?restart`}>Start over</Link>
            </p>
          </div>
        ) : (
          <div className="card stack" data-testid="prospect-success">
            <p>{PROSPECT_MESSAGES.successText}</p>
            <p>
              <Link to={`${PATH}?restart`} className="btn btn-secondary">
                Submit another request
              </Link>
            </p>
          </div>
        )}
        <p className="muted">
          <Link to="/login">Log in</Link> · <Link to="/privacy-policy">Privacy policy</Link>
        </p>
      </div>
    </PublicPage>
  );
}

export const meta: MetaFunction = () => [
  { title: "Free bill health check · EnergyOps" },
  description(DESCRIPTIONS.freeBillHealthCheck),
];
