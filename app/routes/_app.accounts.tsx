import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ConnectLink } from "~/features/accounts/components/connect-link";
import { AccountStatusBadge, MissingBillNote } from "~/features/accounts/components/account-status-badge";
import styles from "~/features/accounts/accounts.css";
import { Link, useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { ChooseLocation } from "~/features/accounts/components/choose-location";
import { useEffect, type ReactNode } from "react";
import { CONNECT_MESSAGES } from "~/features/accounts/accounts";
import type { AccountRow } from "~/features/accounts/accounts.server";
import { Pager, withPage } from "~/ui/pager";
import { EmptyState, ErrorState } from "~/ui/states";
import { accountsLoader } from "~/features/accounts/accounts.server";
import { chooseLocationAction, locationChoices } from "~/features/accounts/choose-location.server";

export const handle = { stylesheets: [styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = (args: LoaderFunctionArgs) => accountsLoader(args, locationChoices);

export const action = chooseLocationAction;

export default function Accounts() {
  const {
    error,
    buildings,
    unassigned,
    reconnect,
    mfaRefresh,
    page,
    pages,
    buildingCount,
    accountCount,
    pending,
    search,
    locations,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refused = actionData && "chooseLocationError" in actionData ? actionData.chooseLocationError : null;
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!pending) return;
    // Connections in progress settle within seconds to minutes: refresh their statuses in the background.
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, 5000);
    return () => clearInterval(timer);
  }, [pending, revalidator]);

  return (
    <div className="stack">
      <div className="row">
        <h1 className="spacer">Connect Utility Accounts</h1>
        <ConnectLink className="btn">Connect a utility account</ConnectLink>
      </div>
      {reconnect.map((c) => (
        <CredentialAlert key={`r-${c.id}`} title="Reconnect Required" button="RECONNECT" c={c} />
      ))}
      {mfaRefresh.map((c) => (
        <CredentialAlert key={`m-${c.id}`} title="MFA Refresh Required" button="REFRESH MFA" c={c} />
      ))}
      {error ? (
        <ErrorState title={CONNECT_MESSAGES.utilitiesFailed} />
      ) : accountCount === 0 ? (
        <EmptyState title={CONNECT_MESSAGES.noAccountsConnected}>
          <div>
            <ConnectLink className="link-button">Connect a utility account</ConnectLink> to start bill
            monitoring.
          </div>
        </EmptyState>
      ) : (
        <>
          {pending ? (
            <p className="muted" aria-live="polite">
              Some connections are still processing. <Link to={`/accounts${search}`}>Refresh</Link>
            </p>
          ) : null}
          {buildings.map((b) => (
            <AccountsTable key={b.id} title={b.name} accounts={b.accounts} />
          ))}
          {unassigned.length > 0 ? (
            <AccountsTable
              title="Not yet assigned to a location"
              accounts={unassigned}
              choose={(a) => (
                <ChooseLocation
                  account={a}
                  locations={locations}
                  back={`/accounts${search}`}
                  error={refused?.account === a.id ? refused.message : null}
                />
              )}
            />
          ) : null}
          {pages > 1 ? (
            <Pager
              page={page}
              pages={pages}
              label="Pages of locations"
              status={`Page ${page} of ${pages} · ${buildingCount} locations`}
              href={(p) => `/accounts${withPage(new URLSearchParams(search), p)}`}
              testId="accounts-pager"
            />
          ) : null}
        </>
      )}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Connect Utility Accounts · EnergyOps" }];

function CredentialAlert({
  title,
  button,
  c,
}: {
  title: string;
  button: string;
  c: { id: number; username: string; utilityName: string; href: string };
}) {
  return (
    <div className="alert alert-error credential-alert" role="alert" data-testid="credential-alert">
      <strong>Authentication Error</strong>
      <div>
        {title}: {c.utilityName} ({c.username})
      </div>
      <div className="row">
        <a href={c.href} className="btn btn-small" aria-label={`${button} ${c.utilityName} (${c.username})`}>
          {button}
        </a>
      </div>
    </div>
  );
}

function AccountsTable({
  title,
  accounts,
  choose,
}: {
  title: string;
  accounts: AccountRow[];
  /** Unassigned accounts: the "Choose location" form of a row. */
  choose?: (a: AccountRow) => ReactNode;
}) {
  return (
    <section className="card account-building" aria-label={title}>
      <h2>{title}</h2>
      <div className="table-wrap">
        <table className="table account-table">
          <thead>
            <tr>
              <th scope="col">Account #</th>
              <th scope="col">Utility</th>
              <th scope="col">Bill Monitoring</th>
              {choose ? <th scope="col">Location</th> : null}
            </tr>
          </thead>
          <tbody>
            {accounts.map((a) => (
              <tr key={a.id}>
                <td>{a.number}</td>
                <td>{a.utilityDisplayName}</td>
                <td>
                  <AccountStatusBadge status={a.arcadiaAccountStatus} detail={a.arcadiaAccountStatusDetail} />
                  {a.missingBill ? <MissingBillNote {...a.missingBill} /> : null}
                </td>
                {choose ? <td>{choose(a)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
