import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { DISMISSAL_TEXT, dismissalHref } from "~/features/thermostats/dismissal";
import { DISMISSAL_REFUSALS, type DismissalRefusal } from "../../shared/issue-dismissal";
import { MESSAGES } from "~/features/thermostats/messages";
import styles from "~/features/thermostats/thermostats.css";
import { PublicPage } from "~/ui/brand";
import { NO_SCRIPTS } from "~/ui/static-page";
import { SubmitButton } from "~/ui/pending";
import { DismissalDetails, DismissalRefusalCard } from "~/features/thermostats/components/dismissal-refusal";
import { dismissalLoader, dismissalAction } from "~/features/thermostats/dismissal.server";

/** Opened from an email: complete without JavaScript, so it ships none of the app's JavaScript. */
export const handle = { ...NO_SCRIPTS, stylesheets: [styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = dismissalLoader;

export const action = dismissalAction;

/** The action's answer when the rule refuses the dismissal (rule dismissal-offer). */
type Refused = {
  refusal: DismissalRefusal;
  target: { thermostatName: string; locationId: number; locationName: string; issueLabel: string };
};

function Result({ ok }: { ok: boolean }) {
  return (
    <div className="card stack dismiss-page" role={ok ? "status" : "alert"}>
      {ok ? (
        <>
          <h1>{MESSAGES.feedbackReceived}</h1>
          <p>Thanks for letting us know. We will not flag this issue again for this thermostat.</p>
        </>
      ) : (
        <>
          <h1>{MESSAGES.submissionFailed}</h1>
          <p>{MESSAGES.submissionFailedBody}</p>
        </>
      )}
      <Link to="/" className="btn">
        {MESSAGES.returnToDashboard}
      </Link>
    </div>
  );
}

export default function DismissThermostatIssue() {
  const { target, params } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const refused = result && "refusal" in result ? (result as unknown as Refused) : null;
  if (refused?.refusal)
    return (
      <PublicPage>
        <DismissalRefusalCard refusal={refused.refusal} target={refused.target} />
      </PublicPage>
    );
  if (result)
    return (
      <PublicPage>
        <Result ok={result.ok} />
      </PublicPage>
    );
  if (!target || !params)
    return (
      <PublicPage>
        <Result ok={false} />
      </PublicPage>
    );
  if (target.refusal)
    return (
      <PublicPage>
        <DismissalRefusalCard refusal={target.refusal} target={target} />
      </PublicPage>
    );
  return (
    <PublicPage>
      <div className="card stack dismiss-page">
        <h1>{DISMISSAL_TEXT.heading}</h1>
        <DismissalDetails target={target} />
        <p>{DISMISSAL_TEXT.explanation}</p>
        <Form method="post" action={dismissalHref(params)} className="stack">
          <input type="hidden" name="thermostatId" value={params.thermostatId} />
          <input type="hidden" name="issueSlug" value={params.issueSlug} />
          <SubmitButton className="btn">{DISMISSAL_TEXT.button}</SubmitButton>
        </Form>
        <Link to="/" className="btn btn-secondary">
          {MESSAGES.returnToDashboard}
        </Link>
      </div>
    </PublicPage>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: `${data?.target ? (data.target.refusal ? DISMISSAL_REFUSALS[data.target.refusal].heading : "Dismiss thermostat issue") : MESSAGES.submissionFailed} · EnergyOps`,
  },
];
