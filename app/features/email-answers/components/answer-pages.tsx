import { Form, Link } from "@remix-run/react";
import { feedbackHeading } from "~/features/bills/feedback";

/**
 * The app's alert markup (`~/ui/states`' Alert), written here: importing that module into these two script-free
 * pages would change how the build splits it for every page that loads it.
 */
function Notice({ tone, children }: { tone: "error" | "info"; children: string }) {
  return (
    <div className={`alert alert-${tone}`} role={tone === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}
import { ANSWER_TEXT, UNSUBSCRIBE_TEXT, type TokenState } from "../email-answers";
import type { AnswerTarget } from "../email-answers.server";

type Answer = "dismissed" | "action_requested";

/** The spec's bill feedback confirmation ('Help is on the way!' / 'Bill feedback received', Visit Dashboard). */
export function BillFeedbackConfirmation({ status }: { status: Answer }) {
  return (
    <div className="card stack" role="status">
      <h1>{feedbackHeading(status)}</h1>
      <p>
        {status === "action_requested"
          ? "Thank you for letting us know. Our team is looking into this bill and will respond by email within 1 business day."
          : "Thank you for confirming. No further action is needed on this bill."}
      </p>
      <Link to="/" className="btn">
        Visit Dashboard
      </Link>
    </div>
  );
}

/** An answer link opened: it names the bill and the flag and offers one button (the GET changes nothing). */
export function BillAnswerQuestion({
  answer,
  token,
  target,
}: {
  answer: Answer;
  token: string;
  target: AnswerTarget;
}) {
  return (
    <div className="card stack">
      <h1>{ANSWER_TEXT.question[answer]}</h1>
      <dl className="dismiss-details">
        <dt>Location</dt>
        <dd>{target.locationName}</dd>
        <dt>Bill</dt>
        <dd>{target.billText}</dd>
        <dt>Bill issue</dt>
        <dd>{target.flagHeading}</dd>
      </dl>
      <Form method="post" className="stack">
        <input type="hidden" name="token" value={token} />
        <button type="submit" className="btn">
          {ANSWER_TEXT.button[answer]}
        </button>
      </Form>
    </div>
  );
}

/** A token that can no longer answer: already answered, expired, not valid, or the api failed. */
export function BillAnswerRefused({ state }: { state: TokenState | "failed" }) {
  const text =
    state === "answered" || state === "done"
      ? ANSWER_TEXT.answered
      : state === "expired"
        ? ANSWER_TEXT.expired
        : state === "failed"
          ? ANSWER_TEXT.failed
          : ANSWER_TEXT.invalid;
  return (
    <div className="card stack">
      <h1>{state === "answered" ? "Bill feedback received" : "This link cannot be used"}</h1>
      <Notice tone={state === "answered" ? "info" : "error"}>{text}</Notice>
      <Link to="/" className="btn">
        Visit Dashboard
      </Link>
    </div>
  );
}

/** The unsubscribe page: asks (GET), confirms (after the POST), or says why the link cannot be used. */
export function UnsubscribeCard({
  state,
  token,
  what,
}: {
  state: TokenState | "failed";
  token: string;
  what: string | null;
}) {
  if (state === "open" && what)
    return (
      <div className="card stack">
        <h1>{UNSUBSCRIBE_TEXT.heading}</h1>
        <p>{UNSUBSCRIBE_TEXT.question(what)}</p>
        <Form method="post" className="stack">
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="btn">
            {UNSUBSCRIBE_TEXT.button}
          </button>
        </Form>
      </div>
    );
  if (state === "kept" && what)
    return (
      <div className="card stack" role="status">
        <h1>{UNSUBSCRIBE_TEXT.keptHeading}</h1>
        <p>{UNSUBSCRIBE_TEXT.kept(what)}</p>
        <Link to="/settings" className="btn">
          My Preferences
        </Link>
      </div>
    );
  if (state === "done" && what)
    return (
      <div className="card stack" role="status">
        <h1>{UNSUBSCRIBE_TEXT.doneHeading}</h1>
        <p>{UNSUBSCRIBE_TEXT.done(what)}</p>
        <Link to="/settings" className="btn">
          My Preferences
        </Link>
      </div>
    );
  return (
    <div className="card stack">
      <h1>{UNSUBSCRIBE_TEXT.heading}</h1>
      <Notice tone="error">
        {state === "expired"
          ? UNSUBSCRIBE_TEXT.expired
          : state === "failed"
            ? UNSUBSCRIBE_TEXT.failed
            : UNSUBSCRIBE_TEXT.invalid}
      </Notice>
      <Link to="/settings" className="btn">
        My Preferences
      </Link>
    </div>
  );
}
