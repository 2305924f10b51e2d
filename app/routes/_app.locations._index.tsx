import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LocationsTable } from "~/features/locations/components/locations-table";
import { SummaryCard } from "~/features/locations/components/summary-card";
import { VendorAlert } from "~/features/locations/components/vendor-alert";
import styles from "~/features/locations/locations.css";
import { EmptyState, ErrorState } from "~/ui/states";
import { dashboardLoader, dashboardAction } from "~/features/locations/dashboard.server";

export const handle = { stylesheets: [styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = dashboardLoader;

export const action = dashboardAction;

export default function Locations() {
  const {
    error,
    rows,
    total,
    page,
    pages,
    matched,
    issues,
    highDemand,
    vendorAlert,
    energyAdvisorUrl,
    supportEmail,
    state,
    caption,
  } = useLoaderData<typeof loader>();
  return (
    <div className="stack locations-page">
      <h1>Locations</h1>
      {vendorAlert ? <VendorAlert message={vendorAlert} /> : null}

      <div className="locations-cards">
        <section className="card" aria-labelledby="advisor-title">
          <h2 id="advisor-title">Meet your energy advisor</h2>
          <p className="muted">
            Book a call to review your bills, usage and thermostat schedules with an energy advisor.
          </p>
          <a className="btn" href={energyAdvisorUrl} target="_blank" rel="noreferrer">
            Schedule a meeting
          </a>
        </section>
        {!error ? (
          <>
            <SummaryCard
              id="issues"
              title="Locations with thermostat issues"
              count={issues.count}
              items={issues.links}
              to={(id) => `/locations/${id}/control`}
            />
            <SummaryCard
              id="demand"
              title="Locations with a high demand ratio"
              count={highDemand.count}
              items={highDemand.links}
              to={(id) => `/locations/${id}/usage`}
            />
          </>
        ) : null}
      </div>

      {error ? (
        <ErrorState title="Unable to fetch locations." />
      ) : total === 0 ? (
        <EmptyState title="There are no locations integrated.">
          <p>
            <a href={`mailto:${supportEmail}`}>Contact support</a> to connect your locations.
          </p>
        </EmptyState>
      ) : (
        <LocationsTable
          rows={rows}
          state={state}
          caption={caption}
          page={page}
          pages={pages}
          matched={matched}
          supportEmail={supportEmail}
        />
      )}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Locations · EnergyOps" }];
