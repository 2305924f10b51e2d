import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useLoaderData, useLocation } from "@remix-run/react";
import { AppLink } from "~/ui/app-link";
import { accountStatusView as connectionStatus } from "~/features/accounts/account-status";
import {
  formatAddress,
  formatBillDate,
  hasThermostatIssues,
  isBillOld,
  locationLabel,
  OLD_BILL_MESSAGE,
  parseTableState,
  tableRows,
  thermostatChip,
  type SortKey,
} from "~/features/locations/locations";
import {
  getEnergyAdvisorBuildings,
  getVendorAlert,
  listAllBuildings,
} from "~/features/locations/locations.server";
import styles from "~/features/locations/locations.css";
import { settle } from "~/server/api-error";
import { getConfig, supportEmail } from "~/server/config.server";
import { requireSmb } from "~/server/guards.server";
import { safeRedirect } from "~/server/safe-redirect";
import { commitSession, getSession } from "~/server/session.server";
import { getApi, withPrimaryStatus } from "~/server/upstream.server";
import { Pill } from "~/ui/pill";
import { EmptyState, ErrorState } from "~/ui/states";
import { Tooltip } from "~/ui/tooltip";
import { now } from "~/server/clock.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

const NO_DEVICES = {
  deviceStatus: "NO_DEVICES",
  numThermostats: 0,
  unreachableThermostatsIds: [],
  issueThermostatsIds: [],
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSmb(request);
  const api = await getApi(request, context);
  const session = await getSession(request);
  const state = parseTableState(new URL(request.url).searchParams);
  const [buildings, advisor, alert] = await Promise.all([
    settle(listAllBuildings(api)),
    settle(getEnergyAdvisorBuildings(api, user.clientId)),
    settle(getVendorAlert(api)),
  ]);
  const vendorAlert =
    alert.ok && alert.data.showAlert && alert.data.message && !session.get("vendorAlertDismissed")
      ? alert.data.message
      : null;
  const base = {
    state,
    vendorAlert,
    energyAdvisorUrl: getConfig().ENERGY_ADVISOR_URL,
    supportEmail: supportEmail(request),
  };
  if (!buildings.ok || !advisor.ok)
    return withPrimaryStatus({ ...base, error: true as const, total: 0, rows: [], issues: [], highDemand: [] }, buildings, advisor);

  const byId = new Map(advisor.data.map((a) => [a.building.id, a]));
  const today = now();
  const all = buildings.data.map((b) => {
    const a = byId.get(b.id);
    const summary = a?.deviceSummary ?? NO_DEVICES;
    return {
      building: b,
      summary,
      chip: thermostatChip(summary),
      lastBillDate: a?.lastBillDate ?? null,
      highDemand: Boolean(a?.peakDemandRatio?.hasHighDemandRatio),
      accounts: a?.accounts ?? [],
    };
  });
  const toLink = (r: (typeof all)[number]) => ({
    id: r.building.id,
    label: locationLabel(r.building, user.isStaff),
  });
  const ordered = tableRows(all, { sort: "location", dir: "asc", q: "" }, user.isStaff);
  return {
    ...base,
    error: false as const,
    total: all.length,
    issues: ordered.filter((r) => hasThermostatIssues(r.summary)).map(toLink),
    highDemand: ordered.filter((r) => r.highDemand).map(toLink),
    rows: tableRows(all, state, user.isStaff).map((r) => ({
      id: r.building.id,
      label: locationLabel(r.building, user.isStaff),
      nickname: r.building.nickname && !user.isStaff ? r.building.nickname : null,
      address: formatAddress(r.building.address),
      chip: r.chip,
      lastBill: r.lastBillDate
        ? { date: formatBillDate(r.lastBillDate), old: isBillOld(r.lastBillDate, today) }
        : null,
      accounts:
        state.expanded === r.building.id
          ? r.accounts.map((acc) => ({
              id: acc.id,
              number: acc.number,
              utility: acc.utilityDisplayName ?? null,
              status: connectionStatus(acc.arcadiaAccountStatus, acc.arcadiaAccountStatusDetail),
            }))
          : null,
    })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireSmb(request);
  const form = await request.formData();
  if (form.get("intent") !== "dismiss-vendor-alert")
    return data({ message: "Unknown action" }, { status: 400 });
  const session = await getSession(request);
  session.set("vendorAlertDismissed", true);
  const to = safeRedirect(form.get("redirectTo"), "/locations");
  return redirect(to.startsWith("/locations") ? to : "/locations", {
    headers: { "Set-Cookie": await commitSession(session) },
  });
}

export const meta: MetaFunction = () => [{ title: "Locations · EnergyOps" }];

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: "location", label: "Location" },
  { key: "thermostats", label: "Thermostats" },
  { key: "lastBill", label: "Last Bill" },
];

export default function Locations() {
  const { error, rows, total, issues, highDemand, vendorAlert, energyAdvisorUrl, supportEmail, state } =
    useLoaderData<typeof loader>();
  const { pathname, search } = useLocation();
  const href = (changes: Record<string, string | null>) => {
    const p = new URLSearchParams(search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === "") p.delete(k);
      else p.set(k, v);
    }
    const s = p.toString();
    return s ? `${pathname}?${s}` : pathname;
  };
  return (
    <div className="stack locations-page">
      <h1>Locations</h1>
      {vendorAlert ? (
        <div className="vendor-alert" role="status" data-testid="vendor-alert">
          <p>{vendorAlert}</p>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="redirectTo" value={`${pathname}${search}`} />
            <button
              type="submit"
              name="intent"
              value="dismiss-vendor-alert"
              className="btn btn-ghost btn-small"
            >
              Dismiss
            </button>
          </Form>
        </div>
      ) : null}

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
              items={issues}
              to={(id) => `/locations/${id}/control`}
            />
            <SummaryCard
              id="demand"
              title="Locations with a high demand ratio"
              items={highDemand}
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
        <section aria-labelledby="table-title" className="stack">
          <h2 id="table-title" className="visually-hidden">
            All locations
          </h2>
          <Form method="get" className="locations-search" role="search">
            <label htmlFor="location-search" className="visually-hidden">
              Search locations
            </label>
            <input
              id="location-search"
              className="input"
              type="search"
              name="q"
              defaultValue={state.q}
              placeholder="Search locations"
              key={state.q}
            />
            {state.sort !== "location" ? <input type="hidden" name="sort" value={state.sort} /> : null}
            {state.dir !== "asc" ? <input type="hidden" name="dir" value={state.dir} /> : null}
            <button type="submit" className="btn btn-secondary">
              Search
            </button>
          </Form>
          <div className="table-wrap">
            <table className="table locations-table">
              <thead>
                <tr>
                  <th scope="col" className="col-expander">
                    <span className="visually-hidden">Accounts</span>
                  </th>
                  {COLUMNS.map((c) => {
                    const active = state.sort === c.key;
                    const next = active && state.dir === "asc" ? "desc" : "asc";
                    return (
                      <th
                        key={c.key}
                        scope="col"
                        aria-sort={active ? (state.dir === "asc" ? "ascending" : "descending") : undefined}
                      >
                        <AppLink
                          to={href({
                            sort: c.key === "location" && next === "asc" ? null : c.key,
                            dir: next === "asc" ? null : "desc",
                            expanded: null,
                          })}
                          className="sort-link"
                          preventScrollReset
                        >
                          {c.label}
                          <span aria-hidden="true" className="sort-mark">
                            {active ? (state.dir === "asc" ? "▲" : "▼") : "↕"}
                          </span>
                          <span className="visually-hidden">
                            {active
                              ? `, sorted ${state.dir === "asc" ? "ascending" : "descending"}`
                              : ", sort"}
                          </span>
                        </AppLink>
                      </th>
                    );
                  })}
                  <th scope="col" className="col-menu">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.length === 0 ? (
                  <tr>
                    <td colSpan={5} className="muted">
                      No locations match your search.
                    </td>
                  </tr>
                ) : null}
                {rows.map((r) => {
                  const open = r.accounts !== null;
                  return [
                    <tr
                      key={r.id}
                      data-testid={`location-row-${r.id}`}
                      className={open ? "row-open" : undefined}
                    >
                      <td className="col-expander">
                        <AppLink
                          to={href({ expanded: open ? null : String(r.id) })}
                          className="expander"
                          aria-expanded={open}
                          aria-label={`${open ? "Hide" : "Show"} accounts of ${r.label}`}
                          preventScrollReset
                        >
                          <span aria-hidden="true">{open ? "▾" : "▸"}</span>
                        </AppLink>
                      </td>
                      <td>
                        <AppLink to={`/locations/${r.id}/control`} className="location-name">
                          {r.label}
                        </AppLink>
                        {r.nickname ? <span className="muted"> · {r.nickname}</span> : null}
                        <div className="muted small">{r.address}</div>
                      </td>
                      <td>
                        <Pill tone={r.chip.tone}>{r.chip.label}</Pill>
                      </td>
                      <td className="last-bill">
                        {r.lastBill ? (
                          <>
                            {r.lastBill.date}
                            {r.lastBill.old ? (
                              <Tooltip content={OLD_BILL_MESSAGE} label="Warning: old bill">
                                <span className="warn-icon" aria-hidden="true">
                                  !
                                </span>
                              </Tooltip>
                            ) : null}
                          </>
                        ) : (
                          <span className="muted">No bills</span>
                        )}
                      </td>
                      <td className="col-menu">
                        <details className="row-menu">
                          <summary aria-label={`Actions for ${r.label}`}>
                            <span aria-hidden="true">⋯</span>
                          </summary>
                          <ul>
                            <li>
                              <AppLink to={`/locations/${r.id}/control`}>Control Room</AppLink>
                            </li>
                            <li>
                              <AppLink to={`/locations/${r.id}/spending`}>View spending</AppLink>
                            </li>
                            <li>
                              <AppLink to={`/locations/${r.id}/usage`}>View usage</AppLink>
                            </li>
                          </ul>
                        </details>
                      </td>
                    </tr>,
                    open ? (
                      <tr key={`${r.id}-accounts`} className="accounts-row" data-testid={`accounts-${r.id}`}>
                        <td />
                        <td colSpan={4}>
                          {r.accounts!.length === 0 ? (
                            <p className="muted">There are no accounts connected.</p>
                          ) : (
                            <table className="table accounts-table">
                              <caption className="visually-hidden">Accounts of {r.label}</caption>
                              <thead>
                                <tr>
                                  <th scope="col">Account #</th>
                                  <th scope="col">Bill Monitoring</th>
                                </tr>
                              </thead>
                              <tbody>
                                {r.accounts!.map((a) => (
                                  <tr key={a.id}>
                                    <td>
                                      {a.number}
                                      {a.utility ? <div className="muted small">{a.utility}</div> : null}
                                    </td>
                                    <td>
                                      {a.status.tooltip ? (
                                        <Tooltip content={a.status.tooltip}>
                                          <Pill tone={a.status.badge}>{a.status.label}</Pill>
                                        </Tooltip>
                                      ) : (
                                        <Pill tone={a.status.badge}>{a.status.label}</Pill>
                                      )}
                                    </td>
                                  </tr>
                                ))}
                              </tbody>
                            </table>
                          )}
                        </td>
                      </tr>
                    ) : null,
                  ];
                })}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}

function SummaryCard({
  id,
  title,
  items,
  to,
}: {
  id: string;
  title: string;
  items: { id: number; label: string }[];
  to: (id: number) => string;
}) {
  return (
    <section className="card summary-card" aria-labelledby={`${id}-title`} data-testid={`summary-${id}`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="summary-count">{items.length}</p>
      {items.length ? (
        <ul className="summary-list">
          {items.map((i) => (
            <li key={i.id}>
              <AppLink to={to(i.id)}>{i.label}</AppLink>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None right now.</p>
      )}
    </section>
  );
}
