import { Form, Link, useLocation } from "@remix-run/react";
import { withQuery, type QueryChanges } from "~/lib/query";
import { Pill } from "~/ui/pill";
import { Tooltip } from "~/ui/tooltip";
import { OLD_BILL_MESSAGE, type SortKey } from "~/features/locations/locations";
import { Pager } from "~/ui/pager";
import { ariaSortOf, SortableHeader } from "~/ui/sortable-header";
import type { DashboardRow, TableState } from "../dashboard.server";
import { SubmitButton } from "~/ui/pending";
import { RowLink, RowLinks } from "~/ui/row-links";

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: "location", label: "Location" },
  { key: "thermostats", label: "Thermostats" },
  { key: "lastBill", label: "Last Bill" },
];

/** The current URL with some query parameters changed (null or "" removes one). */
function useHref() {
  const { pathname, search } = useLocation();
  return (changes: QueryChanges) => pathname + withQuery(search, changes);
}

/**
 * All locations: a search form and the sortable table, one row per location of the page shown (75 a page,
 * searched and sorted across all of them on the server), its accounts below when expanded, then the pager.
 */
export function LocationsTable({
  rows,
  state,
  caption,
  page,
  pages,
  matched,
  supportEmail,
}: {
  rows: DashboardRow[];
  state: TableState;
  /** What the order is, in words (`sortCaption`). */
  caption: string;
  page: number;
  pages: number;
  matched: number;
  /** Where to tell us an account was closed (the old-bill guidance). */
  supportEmail: string;
}) {
  const href = useHref();
  return (
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
        <SubmitButton className="btn btn-secondary">Search</SubmitButton>
      </Form>
      <div className="table-wrap table-cards">
        <table className="table locations-table">
          <caption className="muted small locations-order" data-testid="locations-order">
            {caption}
          </caption>
          <thead>
            <tr>
              <th scope="col" className="col-expander">
                <span className="visually-hidden">Accounts</span>
              </th>
              {COLUMNS.map((c) => {
                const active = state.sort === c.key;
                const next = active && state.dir === "asc" ? "desc" : "asc";
                return (
                  <SortableHeader
                    key={c.key}
                    label={c.label}
                    sort={ariaSortOf(active, state.dir)}
                    // The sort always named, the default too: a URL without one takes the remembered sort.
                    href={href({
                      sort: c.key,
                      dir: next === "asc" ? null : "desc",
                      expanded: null,
                      page: null,
                    })}
                  />
                );
              })}
              <th scope="col" className="col-menu">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <RowLinks>
            <tbody>
              {rows.length === 0 ? (
                <tr className="no-match">
                  <td colSpan={5} className="muted">
                    No locations match your search.
                  </td>
                </tr>
              ) : null}
              {rows.map((r) => {
                const open = r.accounts !== undefined;
                return [
                  <tr
                    key={r.id}
                    data-testid={`location-row-${r.id}`}
                    className={open ? "row-open" : undefined}
                  >
                    {/* Cells 1 and 5 are styled by position (locations.css): 75 rows of classes are 4 KiB. */}
                    <td>
                      <RowLink
                        to={href({ expanded: open ? null : String(r.id) })}
                        preventScrollReset
                        className="expander"
                        aria-expanded={open}
                        aria-label={`${open ? "Hide" : "Show"} accounts of ${r.label}`}
                      />
                    </td>
                    <td className="col-name">
                      <RowLink to={`/locations/${r.id}/control`} className="location-name">
                        {r.label}
                      </RowLink>
                      {r.nickname ? <span className="muted">{` · ${r.nickname}`}</span> : null}
                      <div className="muted small">{r.address}</div>
                    </td>
                    <td data-label="Status">
                      <Pill tone={r.chip.tone}>{r.chip.label}</Pill>
                    </td>
                    <td className="last-bill" data-label="Last Bill">
                      {r.lastBill ? (
                        <span>
                          {r.lastBill.date}
                          {r.lastBill.old ? (
                            <Tooltip content={OLD_BILL_MESSAGE} label="Warning: old bill">
                              <span className="warn-icon" aria-hidden="true">
                                !
                              </span>
                            </Tooltip>
                          ) : null}
                          {/* A bare <small>: 300 locations' rows stay within the page's HTML budget. */}
                          {r.lastBill.amount ? <small>{r.lastBill.amount}</small> : null}
                        </span>
                      ) : (
                        <span className="muted">No bills</span>
                      )}
                      {r.staleBills?.map((b) => (
                        <div key={b.id} className="stale-bill" data-testid="stale-bill">
                          <span className="warn-icon" aria-hidden="true">
                            !
                          </span>{" "}
                          Account {b.number}, last bill {b.date}: {OLD_BILL_MESSAGE}{" "}
                          {open ? null : (
                            <RowLink to={href({ expanded: String(r.id) })} preventScrollReset>
                              What to do
                            </RowLink>
                          )}
                        </div>
                      ))}
                    </td>
                    <td>{rowMenu(r.id, r.label)}</td>
                  </tr>,
                  r.accounts !== undefined ? (
                    <AccountsRow
                      key={`${r.id}-accounts`}
                      row={r}
                      accounts={r.accounts}
                      supportEmail={supportEmail}
                    />
                  ) : null,
                ];
              })}
            </tbody>
          </RowLinks>
        </table>
      </div>
      {pages > 1 ? (
        <Pager
          page={page}
          pages={pages}
          label="Pages of locations"
          status={`Page ${page} of ${pages} · ${matched} locations`}
          href={(p) => href({ page: p === 1 ? null : p, expanded: null })}
          testId="locations-pager"
        />
      ) : null}
    </section>
  );
}

/** The ⋯ menu of a row: the location's three pages. A function, not a component: one fewer per row. */
function rowMenu(id: number, label: string) {
  return (
    <details className="row-menu">
      <summary aria-label={`Actions for ${label}`} />
      {/* Three links in a div, not a list: 75 rows of <ul><li> are 2 KiB of HTML. */}
      <div className="row-menu-links">
        <RowLink to={`/locations/${id}/control`}>Control Room</RowLink>
        <RowLink to={`/locations/${id}/spending`}>View spending</RowLink>
        <RowLink to={`/locations/${id}/usage`}>View usage</RowLink>
      </div>
    </details>
  );
}

/**
 * The expanded row: the location's utility accounts and their Bill Monitoring status; under an account whose
 * latest statement is more than 45 days old, who acts and how (rule old-bill-45-days).
 */
function AccountsRow({
  row,
  accounts,
  supportEmail,
}: {
  row: DashboardRow;
  accounts: NonNullable<DashboardRow["accounts"]>;
  supportEmail: string;
}) {
  return (
    <tr className="accounts-row" data-testid={`accounts-${row.id}`}>
      <td />
      <td colSpan={4}>
        {accounts.length === 0 ? (
          <p className="muted">There are no accounts connected.</p>
        ) : (
          <table className="table accounts-table">
            <caption className="visually-hidden">Accounts of {row.label}</caption>
            <thead>
              <tr>
                <th scope="col">Account #</th>
                <th scope="col">Bill Monitoring</th>
              </tr>
            </thead>
            <tbody>
              {accounts.map((a) => [
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
                </tr>,
                // Under the account, across both columns: the words stay readable on a phone.
                a.staleSince ? (
                  <tr key={`${a.id}-stale`} className="stale-bill-row">
                    <td colSpan={2}>
                      <StaleBillHelp
                        account={a.number}
                        since={a.staleSince}
                        utility={a.utility}
                        supportEmail={supportEmail}
                      />
                    </td>
                  </tr>
                ) : null,
              ])}
            </tbody>
          </table>
        )}
      </td>
    </tr>
  );
}

/**
 * What to do about an account whose latest statement is more than 45 days old (rule old-bill-45-days): the
 * account holder checks with the utility that the account is open and e-billing is on, then reconnects it on
 * the accounts page (its Reconnect or Connect flow); or, if it was closed, tells support.
 */
function StaleBillHelp({
  account,
  since,
  utility,
  supportEmail,
}: {
  account: string;
  since: string;
  utility: string | null;
  supportEmail: string;
}) {
  const subject = encodeURIComponent(`Account ${account} was closed`);
  return (
    <div className="stale-bill-help" data-testid="stale-bill-help" role="note">
      <p>
        <span className="warn-icon" aria-hidden="true">
          !
        </span>{" "}
        <strong>
          Account {account}, last bill {since}: {OLD_BILL_MESSAGE}
        </strong>
      </p>
      <p>
        What you can do: check with {utility ?? "the utility"} that the account is open and e-billing is on,
        then reconnect it on <Link to="/accounts">Connect Utility Accounts</Link>. If the account was closed,{" "}
        <a href={`mailto:${supportEmail}?subject=${subject}`}>tell us at {supportEmail}</a>.
      </p>
    </div>
  );
}
