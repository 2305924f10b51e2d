import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ConnectFlow } from "~/features/accounts/components/connect-flow";
import type { ArcadiaConnectProps } from "~/features/accounts/components/arcadia-connect.client";
import styles from "~/features/accounts/accounts.css";
import { authorizeArcadiaLoader, authorizeArcadiaAction } from "~/features/accounts/connect-flow.server";
import { lazy, Suspense } from "react";

// The provider's Connect opens from this page only (its CSP allows the provider; ADR 0024), from a chunk of its
// own, fetched when the button can open it (after hydration, on the provider's step); until then the button
// shows disabled, as it does while Connect's script loads.
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

export const handle = { stylesheets: [styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = authorizeArcadiaLoader;

export const action = authorizeArcadiaAction;

export default function AuthorizeArcadia() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <ConnectFlow
      data={loaderData}
      actionData={actionData && !("kind" in actionData) ? actionData : undefined}
      connectButton={ArcadiaConnectButton}
    />
  );
}

export const meta: MetaFunction = () => [{ title: "Connect Utility Accounts · EnergyOps" }];
