import { Link } from "@remix-run/react";
import { DISMISSAL_REFUSALS, type DismissalRefusal } from "../../../../shared/issue-dismissal";
import { MESSAGES } from "../messages";

/**
 * The dismissal page for an issue the rule does not let the user dismiss (rule dismissal-offer): why, and
 * what to do instead, with a way to the thermostat's control room and no button. Not an error: a status.
 */
export function DismissalRefusalCard({
  refusal,
  target,
}: {
  refusal: DismissalRefusal;
  target: { thermostatName: string; locationId: number; locationName: string; issueLabel: string };
}) {
  const text = DISMISSAL_REFUSALS[refusal];
  return (
    <div className="card stack dismiss-page" role="status" data-refusal={refusal}>
      <h1>{text.heading}</h1>
      <DismissalDetails target={target} />
      <p>{text.why}</p>
      <p>{text.instead}</p>
      <Link to={`/locations/${target.locationId}/control`} className="btn">
        {`Open the ${target.locationName} control room`}
      </Link>
      <Link to="/" className="btn btn-secondary">
        {MESSAGES.returnToDashboard}
      </Link>
    </div>
  );
}

/** Which thermostat, location and issue a dismissal link names: on the page that offers it and on a refusal. */
export function DismissalDetails({
  target,
}: {
  target: { thermostatName: string; locationName: string; issueLabel: string };
}) {
  return (
    <dl className="dismiss-details">
      <dt>Thermostat</dt>
      <dd>{target.thermostatName}</dd>
      <dt>Location</dt>
      <dd>{target.locationName}</dd>
      <dt>Issue</dt>
      <dd>{target.issueLabel}</dd>
    </dl>
  );
}
