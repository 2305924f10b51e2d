import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, NavLink, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { anonymiseUser } from "~/server/upstream/demo-mode";
import {
  locationLabel,
  onboardingIncomplete,
  selectorLocations,
  shellNav,
  sortLocations,
} from "~/features/locations/locations";
import { connectCloseHref } from "~/features/accounts/components/connect-link";
import accountsStyles from "~/features/accounts/accounts.css";
import { getApi } from "~/server/upstream/upstream.server";
import { getConfig } from "~/server/config.server";
import {
  getOnboardingSteps,
  getUsageAvailable,
  listAllBuildings,
} from "~/features/locations/locations.server";
import { requireUser } from "~/server/upstream/guards.server";
import styles from "~/features/shell/shell.css";
import { ConnectDialog } from "~/features/accounts/components/connect-dialog";
import { settle } from "~/server/upstream/api-error";
import { Brand } from "~/ui/brand";
import { LocationSelect } from "~/features/shell/location-select";
import { parseId } from "~/lib/ids";
import { SubmitButton } from "~/ui/pending";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "stylesheet", href: accountsStyles },
];

/** The authenticated shell: sidebar (top bar below 595px), location selector, navigation by context, banners. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = anonymiseUser(await requireUser(request));
  const api = await getApi(request, context);
  const wanted = parseId(params.locationId);
  const [buildings, steps, usage] = await Promise.all([
    settle(listAllBuildings(api)),
    user.clientId ? settle(getOnboardingSteps(api, user.clientId)) : null,
    wanted ? settle(getUsageAvailable(api, wanted)) : null,
  ]);
  const list = buildings.ok ? sortLocations(buildings.data, user.isStaff) : [];
  const current = list.find((b) => b.id === wanted) ?? null;
  const url = new URL(request.url);
  return {
    demoModeActive: user.isDemoMode,
    user: {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      isStaff: user.isStaff,
      isImpersonating: user.isImpersonating,
      clientName: user.client?.name ?? null,
    },
    hasClient: user.clientId !== null,
    // Up to 15 locations each have an entry; more are found through the search on the locations page.
    ...selectorLocations(
      list.map((b) => ({ id: b.id, label: locationLabel(b, user.isStaff) })),
      current?.id ?? null,
    ),
    current: current ? { id: current.id, label: locationLabel(current, user.isStaff) } : null,
    nav:
      user.clientId === null
        ? []
        : shellNav({
            locationId: current?.id ?? null,
            usageAvailable: Boolean(usage?.ok && usage.data),
            clientId: user.clientId,
          }),
    showOnboarding: Boolean(steps?.ok && onboardingIncomplete(steps.data)),
    helpUrl: getConfig().HELP_URL,
    here: `${url.pathname}${url.search}`,
  };
}

export default function AppShell() {
  const {
    user,
    hasClient,
    locations,
    locationCount,
    current,
    nav,
    showOnboarding,
    helpUrl,
    here,
    demoModeActive,
  } = useLoaderData<typeof loader>();
  const location = useLocation();
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
        <ConnectDialog
          open={new URLSearchParams(location.search).get("connect") === "1"}
          closeHref={connectCloseHref(location.pathname, location.search)}
        />
      </main>
    </div>
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
