import { LocationSuffix } from "~/features/locations/components/location-heading";
import { feedbackHeading } from "~/features/bills/feedback";
import { locationLabelFromMatches, locationPageTitle } from "~/features/locations/page-title";
import { ConnectLink } from "~/features/accounts/components/connect-link";
import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import {
  Form,
  type ShouldRevalidateFunction,
  useActionData,
  useLoaderData,
  useSubmit,
} from "@remix-run/react";
import styles from "~/features/bills/bills.css";
import {
  chartBills,
  FLAG_ANSWERS,
  FLAG_UPDATE_FAILED,
  flagAnchor,
  flagAnswerSchema,
} from "~/features/bills/bills";
import { idempotentAction } from "~/server/idempotency.server";
import { answerFlag, loadLocationBills, locationIdParam } from "~/features/bills/bills.server";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { invalidSubmission, parseForm } from "~/server/forms.server";
import { requireSmb } from "~/server/upstream/guards.server";
import { BillsTable } from "~/features/bills/components/bills-table";
import { billChart } from "~/features/usage/chart-data";
import { ChartFigure } from "~/features/usage/components/energy-chart";
import usageStyles from "~/features/usage/usage.css";
import { settle } from "~/server/upstream/api-error";
import type { ActionOutcome } from "~/server/idempotency.server";
import { Alert, EmptyState, ErrorState } from "~/ui/states";
import plotStyles from "~/ui/plot.css";
import { SubmitButton } from "~/ui/pending";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: plotStyles },
  { rel: "stylesheet", href: usageStyles },
  { rel: "stylesheet", href: styles },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireSmb(request);
  const locationId = locationIdParam(params.locationId);
  const accountParam = new URL(request.url).searchParams.get("accountId");
  const result = await loadLocationBills(await getApi(request, context), locationId, accountParam);
  if (!result.ok)
    return withPrimaryStatus(
      { state: "error" as const, locationId, accounts: [], accountId: null, bills: [] },
      result,
    );
  return {
    state: result.bills.length ? ("ok" as const) : ("empty" as const),
    locationId,
    ...result,
    submissionId: crypto.randomUUID(),
  };
}

// With single fetch a 4xx/5xx action answer skips revalidation: a refused answer (the flag was answered in
// another tab) would leave the stale question and its buttons. Reload the flags after every answer.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" || defaultShouldRevalidate;

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireSmb(request);
  locationIdParam(params.locationId);
  const form = await request.formData();
  // One schema: a missing or unknown answer (intent) fails here like any other field.
  const submission = parseForm(form, { schema: flagAnswerSchema });
  if (submission.status !== "success")
    return invalidSubmission(submission, { flagId: null, message: FLAG_UPDATE_FAILED });
  const { intent, statementId, flagId, submissionId } = submission.value;
  // Once per submission id: a double click or a browser resubmit answers the flag once (ADR 0010).
  const url = new URL(request.url);
  return idempotentAction(
    { request, context },
    { user, scope: "bill-flag", form, submissionId },
    async (api): Promise<ActionOutcome<{ flagId: number | null; message: string }>> => {
      const result = await settle(answerFlag(api, statementId, flagId, intent));
      if (!result.ok) {
        const status = result.error.status >= 400 && result.error.status < 500 ? result.error.status : 502;
        return { kind: "reply", status, body: { flagId, message: FLAG_UPDATE_FAILED } };
      }
      return {
        kind: "redirect",
        to: `${url.pathname}${url.search}#${flagAnchor(flagId)}`,
        toast: { kind: "success", message: feedbackHeading(FLAG_ANSWERS[intent]) },
      };
    },
  );
}

export default function Spending() {
  const loaderData = useLoaderData<typeof loader>();
  const { state, locationId, accounts, accountId, bills } = loaderData;
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
      ) : state === "empty" ? (
        <EmptyState title="We're waiting for your first bill">
          <ConnectLink className="btn">Connect Utility Accounts</ConnectLink>
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
