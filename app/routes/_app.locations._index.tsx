import { commitSession, getSession } from "~/server/upstream/session.server";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { getConfig, supportEmail } from "~/server/config.server";
import {
  getEnergyAdvisorBuildings,
  getVendorAlert,
  listAllBuildings,
} from "~/features/locations/locations.server";
import { invalidSubmission, parseForm } from "~/server/forms.server";
import { now } from "~/server/clock.server";
import { data, redirect } from "@remix-run/node";
import { requireSmb } from "~/server/upstream/guards.server";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { LocationsTable } from "~/features/locations/components/locations-table";
import { SummaryCard } from "~/features/locations/components/summary-card";
import { VendorAlert } from "~/features/locations/components/vendor-alert";
import {
  dashboardTableState,
  dashboardView,
  vendorAlertMessage,
} from "~/features/locations/dashboard.server";
import styles from "~/features/locations/locations.css";
import { settle } from "~/server/upstream/api-error";
import { safeRedirect } from "~/server/safe-redirect";
import { EmptyState, ErrorState } from "~/ui/states";

/** The dashboard's one form: Dismiss on the vendor alert, back to the page it was on. */
const schema = z.object({
  intent: z.literal("dismiss-vendor-alert"),
  redirectTo: z.string().optional(),
});

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSmb(request);
  const api = await getApi(request, context);
  const session = await getSession(request);
  // The sort the URL names, or the one the user chose last (a cookie): it survives a visit to another page.
  const { state, setCookie } = dashboardTableState(request);
  const headers = setCookie ? { "Set-Cookie": setCookie } : undefined;
  const [buildings, advisor, alert] = await Promise.all([
    settle(listAllBuildings(api)),
    settle(getEnergyAdvisorBuildings(api, user.clientId)),
    settle(getVendorAlert(api)),
  ]);
  const base = {
    state,
    vendorAlert: vendorAlertMessage(
      alert.ok ? alert.data : null,
      Boolean(session.get("vendorAlertDismissed")),
    ),
    energyAdvisorUrl: getConfig().ENERGY_ADVISOR_URL,
    supportEmail: supportEmail(),
  };
  if (!buildings.ok || !advisor.ok)
    return withPrimaryStatus(
      {
        ...base,
        error: true as const,
        total: 0,
        page: 1,
        pages: 1,
        matched: 0,
        rows: [],
        issues: { count: 0, links: [] },
        highDemand: { count: 0, links: [] },
        caption: "",
      },
      buildings,
      advisor,
    );
  const view = dashboardView({
    buildings: buildings.data,
    advisor: advisor.data,
    state,
    isStaff: user.isStaff,
    today: now(),
  });
  return data({ ...base, error: false as const, ...view }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireSmb(request);
  const submission = parseForm(await request.formData(), { schema });
  if (submission.status !== "success") return invalidSubmission(submission);
  const session = await getSession(request);
  session.set("vendorAlertDismissed", true);
  const to = safeRedirect(submission.value.redirectTo, "/locations");
  return redirect(to.startsWith("/locations") ? to : "/locations", {
    headers: { "Set-Cookie": await commitSession(session) },
  });
}

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
        />
      )}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Locations · EnergyOps" }];
