import type { LinksFunction } from "@remix-run/node";
import { Form, NavLink, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { parseId } from "~/lib/ids";
import { connectCloseHref } from "~/features/accounts/components/connect-link";
import accountsStyles from "~/features/accounts/accounts.css";
import styles from "~/features/shell/shell.css";
import { Brand } from "~/ui/brand";
import { LocationSelect } from "~/features/shell/location-select";
import { SubmitButton } from "~/ui/pending";
import { appShellLoader } from "~/features/shell/shell.server";
import { keepWithinLocation } from "~/lib/revalidate";
import { lazy, Suspense, useState } from "react";

/**
 * The connect flow's dialog (its steps, forms, Conform and zod, the Radix dialog) is a chunk of its own, loaded
 * when the dialog first opens (`?connect=1`), not with every signed-in page: about a third of the shell's
 * JavaScript (tests/ops/js-budget.test.ts). A page rendered with the dialog open has it in its HTML (the
 * server waits for everything, entry.server.tsx); without JavaScript the flow is the /authorize-arcadia page.
 */
const ConnectDialog = lazy(() => {
  // The dialog's own chunk (Radix, app/ui/url-dialog.tsx) is fetched beside the flow's, not after it.
  void import("~/ui/url-dialog-radix");
  return import("~/features/accounts/components/connect-dialog").then((m) => ({ default: m.ConnectDialog }));
});

export const handle = { stylesheets: [styles, accountsStyles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = appShellLoader;

/** The shell's data (locations, the section links, onboarding) is kept on a link within one location. */
export const shouldRevalidate = keepWithinLocation;

export default function AppShell() {
  const { user, hasClient, locations, locationCount, current, nav, showOnboarding, helpUrl, demoModeActive } =
    useLoaderData<typeof loader>();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const connectQuery = new URLSearchParams(location.search);
  const connectOpen = connectQuery.get("connect") === "1";
  // The location the dialog was opened for (a location's page): new accounts go there unless changed.
  const connectAt = parseId(connectQuery.get("connect_at"));
  // Once opened, the dialog stays mounted (closed), as it was before it loaded lazily: its state and focus return.
  const [connectLoaded, setConnectLoaded] = useState(connectOpen);
  if (connectOpen && !connectLoaded) setConnectLoaded(true);
  return (
    <div className="shell">
      <aside className="sidebar" aria-label="Main">
        <div className="sidebar-top">
          <Brand />{" "}
          {hasClient ? (
            <LocationSelect
              key={location.pathname + location.search}
              locations={locations}
              locationCount={locationCount}
              current={current}
            />
          ) : null}
        </div>
        {/* On a phone the sections fold behind "Menu" (a disclosure: no script needed); wider, it is always open. */}
        <details className="nav-disclosure" key={`nav:${location.pathname}${location.search}`}>
          <summary className="btn btn-secondary nav-toggle">Menu</summary>
          {/* Lists, not bare links: a text browser (lynx, w3m) shows one entry a line (docs/text-browsers.md). */}
          <nav aria-label="Sections">
            <ul className="nav">
              {showOnboarding ? (
                <li>{sectionLink("/onboarding", "Set up your account", "nav-setup")}</li>
              ) : null}
              {nav.map((item) => (
                <li key={item.to}>
                  {item.download ? (
                    <a href={item.to} download>
                      {item.label}
                    </a>
                  ) : (
                    sectionLink(item.to, item.label)
                  )}
                </li>
              ))}
            </ul>
          </nav>
          <ul className="nav nav-foot">
            <li>{sectionLink("/settings", "Manage account")}</li>
            {user.isStaff ? <li>{sectionLink("/investigations", "Investigations")}</li> : null}
            {user.isStaff ? <li>{sectionLink("/impersonate", "Impersonate")}</li> : null}
            <li>
              <a href={helpUrl} rel="noreferrer" target="_blank">
                Help
              </a>
            </li>
            <li>
              <Form method="post" action="/logout">
                <SubmitButton className="nav-button">Sign Out</SubmitButton>
              </Form>
            </li>
          </ul>
        </details>
      </aside>
      <main id="main" className="content">
        {user.isImpersonating ? (
          <div className="impersonation-banner" role="status" data-testid="impersonation-banner">
            <span>
              You are impersonating <strong>{user.clientName}</strong>
              {demoModeActive ? <span className="pill pill-info demo-pill">Demo mode</span> : null}
            </span>
            <Form method="post" action="/impersonate" className="impersonation-actions">
              <input type="hidden" name="redirectTo" value={here} />
              <SubmitButton
                name="intent"
                value={demoModeActive ? "demo-off" : "demo-on"}
                className="btn btn-small btn-secondary"
              >
                {demoModeActive ? "Turn off demo mode" : "Turn on demo mode"}
              </SubmitButton>
              <SubmitButton name="intent" value="stop" className="btn btn-small">
                Stop
              </SubmitButton>
            </Form>
          </div>
        ) : null}
        <Outlet />
        {/* The connect flow as a dialog, opened by ConnectLink once JavaScript runs (the page works without it). */}
        {connectLoaded ? (
          <Suspense fallback={connectOpen ? <ConnectLoading /> : null}>
            <ConnectDialog
              open={connectOpen}
              building={connectAt}
              closeHref={connectCloseHref(location.pathname, location.search)}
            />
          </Suspense>
        ) : null}
      </main>
    </div>
  );
}

/** While the dialog's chunk loads (a slow network): what the dialog itself shows until its first step arrives. */
function ConnectLoading() {
  return (
    <>
      <div className="dialog-overlay" />
      <div
        className="dialog-content dialog-full"
        role="dialog"
        aria-modal="true"
        aria-label="Connect Utility Accounts"
      >
        <p aria-busy="true">Loading…</p>
      </div>
    </>
  );
}

/** A section link of the shell: `aria-current="page"` on the section the user is in (or below). */
function sectionLink(to: string, label: string, className?: string) {
  return (
    <NavLink to={to} className={className}>
      {label}
    </NavLink>
  );
}
