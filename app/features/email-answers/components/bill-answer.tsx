import { Form, Link } from "@remix-run/react";
import { feedbackHeading } from "~/features/bills/feedback";
import { ANSWER_TEXT, type TokenState } from "../email-answers";
import type { AnswerPage, AnswerTarget } from "../email-answers.server";
import { Notice } from "./answer-pages";

type Answer = "dismissed" | "action_requested";

/** The bill, its account and the flag the link is about. */
function BillFacts({ target }: { target: AnswerTarget }) {
  return (
    <>
      <dl className="dismiss-details">
        <dt>Location</dt>
        <dd>{target.locationName}</dd>
        {target.accountText ? (
          <>
            <dt>Account</dt>
            <dd>{target.accountText}</dd>
          </>
        ) : null}
        <dt>Bill</dt>
        <dd>{target.billText}</dd>
        <dt>Bill issue</dt>
        <dd data-testid="answer-flag-heading">{target.flagHeading}</dd>
      </dl>
      {target.priceLine ? <p data-testid="answer-price">{target.priceLine}</p> : null}
    </>
  );
}

/**
 * The answers this person may give, each its own button posting the token and that answer: the link's own
 * first (primary), the other one secondary (a wrong tap in the email is switched here). Once an answer is on
 * record, a line above the one button left says what it changes.
 */
function AnswerButtons({ token, target, again }: { token: string; target: AnswerTarget; again: boolean }) {
  const { options } = target;
  if (!options.length) return null;
  return (
    <Form method="post" className="stack">
      {again && target.again ? <p>{target.again}</p> : null}
      <input type="hidden" name="token" value={token} />
      {options.map((a, i) => (
        <button
          key={a}
          type="submit"
          name="answer"
          value={a}
          className={i === 0 && !again ? "btn" : "btn btn-secondary"}
        >
          {ANSWER_TEXT.button[a]}
        </button>
      ))}
    </Form>
  );
}

/** Why an answer is not offered here, with the signed-in page that may change it (rule flag-answer-history). */
function AnswerNote({ target }: { target: AnswerTarget }) {
  if (!target.note) return null;
  return (
    <p data-testid="answer-note">
      {target.note.text}
      {target.note.href ? (
        <>
          {" "}
          <Link to={target.note.href}>Open the spending page</Link>
        </>
      ) : null}
    </p>
  );
}

const Thanks = ({ answer }: { answer: Answer }) => (
  <p>
    {answer === "action_requested"
      ? "Thank you for letting us know. Our team is looking into this bill and will respond by email within 1 business day."
      : "Thank you for confirming. No further action is needed on this bill."}
  </p>
);

/** The spec's bill feedback confirmation without a token ('Help is on the way!' / 'Bill feedback received'). */
export function BillFeedbackConfirmation({ status }: { status: Answer }) {
  return (
    <div className="card stack" role="status">
      <h1>{feedbackHeading(status)}</h1>
      <Thanks answer={status} />
      <Link to="/" className="btn">
        Visit Dashboard
      </Link>
    </div>
  );
}

/** The spec's confirmation ('Help is on the way!' / 'Bill feedback received'): only for the person who answered. */
function Confirmation({ answer, target, token }: { answer: Answer; target: AnswerTarget; token: string }) {
  return (
    <div className="card stack" role="status">
      <h1>{feedbackHeading(answer)}</h1>
      <Thanks answer={answer} />
      <BillFacts target={target} />
      {target.onRecord ? <p data-testid="answer-on-record">{target.onRecord}</p> : null}
      <AnswerButtons token={token} target={target} again />
      <AnswerNote target={target} />
      <Link to="/" className="btn btn-secondary">
        Visit Dashboard
      </Link>
    </div>
  );
}

/**
 * An answer link's page (rule email-answer-links): the email's question with the answers this person may
 * give; the answer on record (theirs: the confirmation, with a button to change it; another person's: who
 * and when, and what may still be said); or why the link cannot be used.
 */
export function BillAnswerCard({ page, token }: { page: AnswerPage; token: string }) {
  if (page.kind === "refused") return <BillAnswerRefused state={page.state} />;
  const { target } = page;
  if (page.kind === "recorded" || (page.kind === "answered" && target.yours))
    return <Confirmation answer={target.status} target={target} token={token} />;
  if (page.kind === "question")
    return (
      <div className="card stack">
        <h1>{target.question}</h1>
        <BillFacts target={target} />
        {target.onRecord ? <p data-testid="answer-on-record">{target.onRecord}</p> : null}
        <AnswerButtons token={token} target={target} again={false} />
        <AnswerNote target={target} />
      </div>
    );
  return (
    <div className="card stack">
      <h1>{ANSWER_TEXT.answeredHeading}</h1>
      <BillFacts target={target} />
      <p data-testid="answer-on-record">{target.onRecord ?? ANSWER_TEXT.answered}</p>
      <AnswerButtons token={token} target={target} again />
      <AnswerNote target={target} />
      <Link to="/" className="btn btn-secondary">
        Visit Dashboard
      </Link>
    </div>
  );
}

/** A token that can no longer answer: expired, not valid, or the api failed. */
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
      <h1>{state === "answered" ? ANSWER_TEXT.answeredHeading : "This link cannot be used"}</h1>
      <Notice tone={state === "answered" ? "info" : "error"}>{text}</Notice>
      <Link to="/" className="btn">
        Visit Dashboard
      </Link>
    </div>
  );
}
