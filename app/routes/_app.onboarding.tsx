import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import {
  ONBOARDING_MESSAGES,
  STATUS_LABELS,
  STATUS_TONES,
  STEP_DESCRIPTIONS,
  STEP_LABELS,
  startButtonLabel,
} from "~/features/onboarding/onboarding";
import styles from "~/features/onboarding/onboarding.css";
import { Pill } from "~/ui/pill";
import { EmptyState, ErrorState } from "~/ui/states";
import { SubmitButton } from "~/ui/pending";
import { onboardingLoader, onboardingAction } from "~/features/onboarding/onboarding.server";

export const handle = { stylesheets: [styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = onboardingLoader;

export const action = onboardingAction;

export default function Onboarding() {
  const { firstName, clientName, error, steps } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  return (
    <div className="stack onboarding">
      <h1>Set up your account</h1>
      <section className="card onboarding-welcome" aria-labelledby="welcome-heading">
        <h2 id="welcome-heading">Welcome, {firstName}!</h2>
        <p>
          A few steps get {clientName} the most out of EnergyOps: connect your utility accounts for bill
          monitoring, tell us about your thermostats and choose the emails you want.
        </p>
      </section>
      <section className="card stack" aria-labelledby="checklist-heading">
        <h2 id="checklist-heading">{ONBOARDING_MESSAGES.checklist}</h2>
        {error ? (
          <ErrorState title="An error has occurred, please try again." />
        ) : steps.length === 0 ? (
          <EmptyState title={ONBOARDING_MESSAGES.empty} />
        ) : (
          <ol className="checklist">
            {steps.map((s) => (
              <li key={s.id} data-testid={`onboarding-step-${s.name}`}>
                <div className="step-text">
                  <h3>{STEP_LABELS[s.name]}</h3>
                  <p className="muted">{STEP_DESCRIPTIONS[s.name]}</p>
                </div>
                <div className="step-actions">
                  <Pill tone={STATUS_TONES[s.status]}>{STATUS_LABELS[s.status]}</Pill>
                  <Form method="post">
                    <input type="hidden" name="stepId" value={s.id} />
                    <SubmitButton
                      name="intent"
                      value="start"
                      className={s.status === "complete" ? "btn btn-secondary" : "btn"}
                      aria-label={`${startButtonLabel(s.status)} ${STEP_LABELS[s.name]}`}
                      disabled={navigation.state === "submitting"}
                    >
                      {startButtonLabel(s.status)}
                    </SubmitButton>
                  </Form>
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Set up your account · EnergyOps" }];
