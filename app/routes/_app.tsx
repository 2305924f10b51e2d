import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, NavLink, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { formatAddress, locationLabel, sortLocations } from "~/features/locations/locations";
import { listAllBuildings } from "~/features/locations/locations.server";
import { settle } from "~/server/api-error";
import { getConfig } from "~/server/config.server";
import { requireUser } from "~/server/guards.server";
import { getApi } from "~/server/upstream.server";
import { Brand } from "~/ui/brand";

/** The authenticated shell: sidebar (top bar below 595px), location selector, navigation by context. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const api = await getApi(request);
  const buildings = await settle(listAllBuildings(api));
  const list = buildings.ok ? sortLocations(buildings.data, user.isStaff) : [];
  const locationId = params.locationId ? Number(params.locationId) : null;
  const current = list.find((b) => b.id === locationId) ?? null;
  return {
    user: {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      isStaff: user.isStaff,
      clientId: user.clientId,
      clientName: user.client?.name ?? null,
    },
    locations: list.map((b) => ({ id: b.id, label: locationLabel(b, user.isStaff), address: formatAddress(b.address) })),
    current: current ? { id: current.id, label: locationLabel(current, user.isStaff) } : null,
    helpUrl: getConfig().HELP_URL,
  };
}

export default function AppShell() {
  const { user, locations, current, helpUrl } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <div className="shell">
      <aside className="sidebar" aria-label="Main">
        <div className="sidebar-top">
          <Brand />
          <details className="location-select" key={location.pathname}>
            <summary className="btn btn-secondary btn-block">
              <span className="location-select-label">{current ? current.label : "All locations"}</span>
              <span aria-hidden="true">▾</span>
            </summary>
            <ul className="location-menu" aria-label="Locations">
              <li>
                <Link to="/locations">See all locations</Link>
              </li>
              {locations.map((l) => (
                <li key={l.id}>
                  <Link to={`/locations/${l.id}/control`} aria-current={current?.id === l.id ? "page" : undefined}>
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
          </details>
        </div>
        <nav aria-label="Sections" className="nav">
          {current ? (
            <>
              <NavLink to={`/locations/${current.id}/control`}>Thermostats</NavLink>
              <NavLink to={`/locations/${current.id}/spending`}>Bill History</NavLink>
              <NavLink to={`/locations/${current.id}/usage/demand`}>Usage Details</NavLink>
            </>
          ) : (
            <>
              <NavLink to="/accounts">Connect Utility Accounts</NavLink>
              <NavLink to="/grid-services">Grid Services</NavLink>
            </>
          )}
          {user.clientId ? (
            <a href={`/api/client/${user.clientId}/bill-statements/export-csv`} download>
              Download Bill Statements Summary
            </a>
          ) : null}
        </nav>
        <div className="nav nav-foot">
          <NavLink to="/settings">Manage account</NavLink>
          {user.isStaff ? <NavLink to="/impersonate">Impersonate</NavLink> : null}
          <a href={helpUrl} rel="noreferrer" target="_blank">
            Help
          </a>
          <Form method="post" action="/logout">
            <button type="submit" className="nav-button">
              Sign Out
            </button>
          </Form>
        </div>
      </aside>
      <main id="main" className="content">
        <Outlet />
      </main>
    </div>
  );
}
