import { LocationSuffix } from "~/features/locations/components/location-heading";
import { locationLabelFromMatches, locationPageTitle } from "~/features/locations/page-title";
import { ConnectLink } from "~/features/accounts/components/connect-link";
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import {
  Form,
  type ShouldRevalidateFunction,
  useActionData,
  useLoaderData,
  useSubmit,
} from "@remix-run/react";
import styles from "~/features/bills/bills.css";
import { chartBills } from "~/features/bills/bills";
import { BillsTable } from "~/features/bills/components/bills-table";
import { billChart } from "~/features/usage/chart-data";
import { ChartFigure } from "~/features/usage/components/energy-chart";
import usageStyles from "~/features/usage/usage.css";
import { Alert, EmptyState, ErrorState } from "~/ui/states";
import plotStyles from "~/ui/plot.css";
import { SubmitButton } from "~/ui/pending";
import { spendingLoader, spendingAction } from "~/features/bills/bills.server";

export const handle = { stylesheets: [plotStyles, usageStyles, styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = spendingLoader;

// With single fetch a 4xx/5xx action answer skips revalidation: a refused answer (the flag was answered in
// another tab) would leave the stale question and its buttons. Reload the flags after every answer.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" || defaultShouldRevalidate;

export const action = spendingAction;

export default function Spending() {
  const loaderData = useLoaderData<typeof loader>();
  const { state, locationId, accounts, accountId, bills, waiting } = loaderData;
  const actionData = useActionData<typeof action>();
  const submit = useSubmit();
  const chart = billChart(chartBills(bills), locationId);
  return (
    <div className="stack bills-page">
      <div className="row page-head">
        <h1>
          Bill History
          <LocationSuffix />
        </h1>
        {accounts.length > 1 ? (
          <Form
            method="get"
            className="account-form row"
            onChange={(e) => submit(e.currentTarget, { preventScrollReset: true })}
          >
            <label htmlFor="account-select" className="label">
              Account Number
            </label>
            <select
              id="account-select"
              name="accountId"
              className="select"
              defaultValue={accountId ?? undefined}
            >
              {accounts.map((a) => (
                <option key={a.id} value={a.id}>
                  Acct # {a.number}
                </option>
              ))}
            </select>
            {/* Also with JavaScript (a change submits by itself): the same width before and after hydration,
                so the form does not jump beside the heading (CLS 0.325 on slow 4G). */}
            <SubmitButton className="btn btn-secondary btn-small">Show bills</SubmitButton>
          </Form>
        ) : null}
      </div>
      {state === "error" ? (
        <ErrorState title="There was a problem loading your bills. Our team has been notified." />
      ) : state === "empty" && waiting ? (
        <EmptyState title={waiting} />
      ) : state === "empty" ? (
        <EmptyState title="We're waiting for your first bill">
          <ConnectLink className="btn" building={locationId}>
            Connect Utility Accounts
          </ConnectLink>
        </EmptyState>
      ) : (
        <>
          <section className="card stack" aria-labelledby="energy-usage-heading">
            <h2 id="energy-usage-heading">Energy Usage</h2>
            <ChartFigure
              title="Energy Usage"
              headingId="energy-usage-heading"
              chart={chart}
              csvHref={`/locations/${locationId}/spending/csv${accountId ? `?accountId=${accountId}` : ""}`}
              csvName={`energy-usage-${locationId}.csv`}
            />
          </section>
          <section className="stack" aria-labelledby="your-bills-heading">
            <h2 id="your-bills-heading">Your Bills</h2>
            {actionData && "message" in actionData && actionData.flagId === null ? (
              <Alert tone="error">{actionData.message}</Alert>
            ) : null}
            <BillsTable
              bills={bills}
              error={actionData && "message" in actionData ? actionData : null}
              submissionId={"submissionId" in loaderData ? loaderData.submissionId : ""}
              targetBillId={"targetBillId" in loaderData ? loaderData.targetBillId : null}
            />
          </section>
        </>
      )}
    </div>
  );
}

export const meta: MetaFunction = ({ matches }) => [
  { title: locationPageTitle(["Bill History"], locationLabelFromMatches(matches)) },
];
