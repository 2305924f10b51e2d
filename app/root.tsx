import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "@remix-run/react";
import { useContext, useEffect, type ReactNode } from "react";
import { rootLoader } from "./server/root.server";
import styles from "./styles/app.css";
import { PublicPage } from "~/ui/brand";
import { StaffErrorContext, useNonce } from "~/ui/nonce";
import { ErrorEventContext, ErrorReference, GeneralErrorBoundary } from "~/ui/error-boundary";
import { reportClientError } from "~/ui/client-errors";
import { useEscapeClosesMenus } from "~/ui/escape-closes-menus";
import { ToastRegion } from "~/ui/toasts";
import { PAGE_SCRIPT, usePageScripts } from "~/ui/static-page";
import { NavigationPending, PENDING_SCRIPT } from "~/ui/pending";
import { BodyStyles, HeadStyles } from "~/ui/critical-css";

// The icon is written in <head> by Layout: on a first visit the links move to the end of <body> (critical-css.tsx).
export const handle = { stylesheets: [styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const meta: MetaFunction = () => [{ title: "EnergyOps" }];

export const loader = (args: LoaderFunctionArgs) => rootLoader(args, styles);

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // The email deep-link pages never hydrate (handle NO_SCRIPTS, app/ui/static-page.tsx): no React, no
  // modulepreloads, only their small inline script.
  const scripts = usePageScripts();
  const inline = useRouteLoaderData<typeof loader>("root")?.inlineStyles ?? false;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Before any stylesheet link: an inline script after one would wait for it. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: PENDING_SCRIPT }} />
        <Meta />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <HeadStyles inline={inline} nonce={nonce} />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {children}
        <BodyStyles inline={inline} />
        {scripts ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : (
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: PAGE_SCRIPT }} />
        )}
      </body>
    </html>
  );
}

export default function App() {
  const loaderData = useRouteLoaderData<typeof loader>("root");
  useEffect(() => {
    // Lets tests (and CSS) know the page is interactive.
    document.documentElement.dataset.hydrated = "true";
  }, []);
  useEscapeClosesMenus();
  return (
    <>
      <ToastRegion flash={loaderData?.toast ?? null}>
        <Outlet />
      </ToastRegion>
      <NavigationPending />
    </>
  );
}

/** The global fallback (rule error-fallback, docs/rules.md): the support address for everyone, the stack trace for staff only. */
export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{ 403: () => <ForbiddenPage /> }}
      defaultStatusHandler={() => <SorryPage />}
      unexpectedErrorHandler={(error) => <SorryPage error={error} />}
    />
  );
}

function ForbiddenPage() {
  return (
    <PublicPage>
      <div className="card error-page" role="alert">
        <h1>Forbidden</h1>
        <p>You do not have access to this page.</p>
        <a className="btn" href="/">
          Go to the dashboard
        </a>
      </div>
    </PublicPage>
  );
}

function SorryPage({ error }: { error?: unknown }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const staffStack = useContext(StaffErrorContext);
  const support = rootData?.supportEmail ?? "support@energyops.test";
  const clientStack =
    rootData?.isStaff &&
    error instanceof Error &&
    error.stack &&
    !/Unexpected Server Error/.test(error.message)
      ? error.stack
      : null;
  const stack = staffStack ?? clientStack;
  const eventId = useContext(ErrorEventContext);
  useEffect(() => {
    // An error thrown while rendering in the browser: the server never saw it, so the browser reports it.
    if (!eventId && error instanceof Error && !/Unexpected Server Error/.test(error.message))
      reportClientError(error);
  }, [error, eventId]);
  return (
    <PublicPage>
      <div className="card error-page" role="alert">
        <h1>We&apos;re sorry. An error has occurred.</h1>
        <p>
          Please try again. If the problem continues, contact us at{" "}
          <a href={`mailto:${support}`}>{support}</a>.
        </p>
        {rootData?.isStaff ? null : <ErrorReference staff={false} />}
        <a className="btn" href="/">
          Go to the dashboard
        </a>
        {rootData?.isStaff ? <ErrorReference staff /> : null}
        {stack ? (
          <details open>
            <summary>Stack trace (staff only)</summary>
            <pre data-testid="stack-trace">{stack}</pre>
          </details>
        ) : null}
      </div>
    </PublicPage>
  );
}
