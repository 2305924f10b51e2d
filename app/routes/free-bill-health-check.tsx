import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { CONNECT_MESSAGES } from "~/features/accounts/accounts";
import accountStyles from "~/features/accounts/accounts.css";
import { BuiltinConnectForm, ProviderConnect } from "~/features/accounts/components/connect-widget";
import type { ArcadiaConnectProps } from "~/features/accounts/components/arcadia-connect.client";
import { ConedAccountFields } from "~/features/accounts/components/coned-account-list";
import { UtilityPicker } from "~/features/accounts/components/utility-picker";
import { ConedStep } from "~/features/prospect/components/coned-step";
import { StartStep } from "~/features/prospect/components/start-step";
import { PROSPECT_MESSAGES, PROSPECT_PATH as PATH, SEARCH_INTENT } from "~/features/prospect/prospect";
import styles from "~/features/prospect/prospect.css";
import { forwardRetryAfter } from "~/server/headers";
import { PublicPage } from "~/ui/brand";
import { ErrorState } from "~/ui/states";
import { DESCRIPTIONS, description } from "~/features/public/seo";
import { healthCheckLoader, healthCheckAction } from "~/features/prospect/prospect.server";
import { lazy, Suspense } from "react";

// The provider's Connect opens on the connect step (this page's CSP allows the provider; ADR 0024), from a chunk
// of its own fetched after hydration; until then the button shows disabled.
// Kept in each of the two pages rather than in one shared module: a module both import becomes a chunk of its
// own, one more script file on the health check, over its budget (tests/ops/js-budget.test.ts; measured).
const LazyConnectButton = lazy(() =>
  import("~/features/accounts/components/arcadia-connect.client").then((m) => ({
    default: m.ArcadiaConnectButton,
  })),
);
function ArcadiaConnectButton(props: ArcadiaConnectProps) {
  return (
    <Suspense
      fallback={
        <button type="button" className="btn" disabled>
          {props.label}
        </button>
      }
    >
      <LazyConnectButton {...props} />
    </Suspense>
  );
}

export const handle = { stylesheets: [accountStyles, styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = healthCheckLoader;

export const action = healthCheckAction;

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
            {d.widget.kind === "provider" ? (
              <ProviderConnect
                config={d.widget}
                utility={d.utility}
                correlationId={d.correlationId}
                hidden={{}}
                session={d.connect}
                update={false}
                embed={false}
                pageHref={PATH}
                action={PATH}
                formError={actionData?.formError}
                ended={Boolean(actionData?.ended)}
                ConnectButton={ArcadiaConnectButton}
              />
            ) : (
              <BuiltinConnectForm
                utility={d.utility}
                correlationId={d.correlationId}
                hidden={{}}
                lastResult={actionData && actionData.intent !== "start" ? actionData.lastResult : undefined}
              />
            )}
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
