import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { Pill } from "~/ui/pill";
import {
  anchoredFlag,
  type FlagAnswerView,
  flagErrorLines,
  flagAnchor,
  type FlagError,
  INTENT_OF,
  groupHeading,
  groupPillStatus,
  pillLabel,
  pillTone,
} from "../bills";
import { ANSWER_AGAIN, ANSWER_LABELS, FLAG_ANSWER_LIMIT_REACHED } from "../../../../shared/bill-flags";
import { FLAG_OUTCOMES, OUTCOME_LABELS } from "../../../../shared/flag-outcome";
import { FieldErrors } from "~/ui/field";
import { SubmissionIdInput } from "~/ui/submission-id";
import { SubmitButton } from "~/ui/pending";

export type FlagBannerFlag = {
  id: number;
  type: string;
  status: string;
  details?: { previousSupplier?: string | null } | null;
  /** Its heading and explanation, written by the loader from its figures and outcome (rule flag-headings). */
  heading: string;
  copy: string;
  /** The answers in words and the answers open to this person (the loader's `flagAnswerView`). */
  answerView?: FlagAnswerView;
  /** What the change costs on this bill, in words (the loader's rule flag-price line). */
  price?: string;
  /** Its history's first line (raised with the bill) and how it ended (rule flag-outcome). */
  raised?: string;
  outcome?: { text: string; note: string } | null;
  /** Staff on the client's account may close this investigation. */
  canClose?: boolean;
};
type Flag = FlagBannerFlag;
/** A refused answer or close, with what was typed into the close form. */
export type FlagFormError = FlagError & { values?: { outcome: string; credit: string; note: string } };

/** The bill flag banner: supplier_change and rate_class_change flags with headings, pills and the two answers. */
export function FlagBanner({
  billId,
  statementLabel,
  flags,
  error,
  submissionId,
}: {
  billId: number;
  statementLabel: string;
  flags: Flag[];
  error?: FlagFormError | null;
  /** Rendered by the server; a repeat of the same answer is processed once (ADR 0010). */
  submissionId: string;
}) {
  const navigation = useNavigation();
  const location = useLocation();
  // An answer removes the buttons the user pressed: focus goes to the flag's new state (the redirect names
  // it in its fragment) rather than dropping to <body>. Without JavaScript the fragment scrolls to it.
  useEffect(() => {
    const id = anchoredFlag(location.hash);
    if (id && flags.some((f) => flagAnchor(f.id) === id)) document.getElementById(id)?.focus();
  }, [location.key, location.hash, flags]);
  const busyFlag = navigation.state !== "idle" ? navigation.formData?.get("flagId") : null;
  const group = flags.length > 1 ? groupPillStatus(flags) : null;
  const HeadingTag = flags.length > 1 ? "h4" : "h3";
  return (
    <section
      className="flag-banner"
      aria-label={`Bill issues on the bill of ${statementLabel}`}
      data-testid={`flags-${billId}`}
    >
      {group ? (
        <div className="flag-group-head">
          <h3>{groupHeading(flags)}</h3>
          <Pill tone={pillTone(group)}>{pillLabel(group)}</Pill>
        </div>
      ) : null}
      {flags.map((f) => (
        <div
          className="flag"
          key={f.id}
          id={flagAnchor(f.id)}
          tabIndex={-1}
          data-testid={`flag-${f.id}`}
          data-status={f.status}
        >
          <div className="flag-head">
            <HeadingTag>{f.heading}</HeadingTag>
            <Pill tone={pillTone(f.status)}>{pillLabel(f.status)}</Pill>
          </div>
          {f.price ? (
            <p className="flag-price" data-testid={`flag-price-${f.id}`}>
              {f.price}
            </p>
          ) : null}
          <p data-testid={`flag-copy-${f.id}`}>{f.copy}</p>
          {f.answerView?.onRecord ? (
            <p className="flag-record" data-testid={`flag-record-${f.id}`}>
              {f.answerView.onRecord}
            </p>
          ) : null}
          {f.answerView?.earlier.length && !f.outcome ? (
            <details className="flag-history">
              <summary>Earlier answers ({f.answerView.earlier.length})</summary>
              <ol>
                {f.answerView.earlier.map((text, i) => (
                  <li key={i}>{text}</li>
                ))}
              </ol>
            </details>
          ) : null}
          {f.outcome ? (
            <div className="flag-outcome" data-testid={`flag-outcome-${f.id}`}>
              <p className="flag-record">{f.outcome.text}</p>
              <p>Note: {f.outcome.note}</p>
            </div>
          ) : null}
          {/* A closed investigation's whole history (rule flag-outcome), in place of the earlier answers. */}
          {f.raised && f.outcome ? (
            <details className="flag-history flag-timeline" data-testid={`flag-history-${f.id}`}>
              <summary>History</summary>
              <ol>
                <li>{f.raised}</li>
                {f.answerView?.earlier.map((text, i) => (
                  <li key={i}>{text}</li>
                ))}
                {f.answerView?.onRecord ? <li>{f.answerView.onRecord}</li> : null}
                {f.outcome ? <li>{f.outcome.text}</li> : null}
              </ol>
            </details>
          ) : null}
          {f.canClose ? (
            <CloseForm
              billId={billId}
              flagId={f.id}
              submissionId={submissionId}
              error={error && error.flagId === f.id ? error : null}
              busy={busyFlag === String(f.id)}
            />
          ) : null}
          {f.answerView?.options.length ? (
            <Form method="post" className="flag-actions" preventScrollReset>
              {f.status !== "unacknowledged" ? (
                <p className="flag-again">{ANSWER_AGAIN[f.answerView.options[0]]}</p>
              ) : null}
              <input type="hidden" name="statementId" value={billId} />
              <input type="hidden" name="flagId" value={f.id} />
              <SubmissionIdInput
                value={error?.flagId === f.id && error.retryId ? error.retryId : submissionId}
              />
              {f.answerView.options.map((a) => [
                <SubmitButton
                  key={a}
                  name="intent"
                  value={INTENT_OF[a]}
                  className={`btn btn-small${a === "dismissed" ? " btn-secondary" : ""}`}
                  disabled={busyFlag === String(f.id)}
                  pendingLabel="Sending your answer…"
                >
                  {ANSWER_LABELS[a]}
                </SubmitButton>,
                " ",
              ])}
            </Form>
          ) : null}
          {f.answerView?.limitReached ? (
            <p className="flag-again" data-testid={`flag-limit-${f.id}`}>
              {FLAG_ANSWER_LIMIT_REACHED}
            </p>
          ) : null}
          {error && error.flagId === f.id && !f.canClose ? (
            <FieldErrors errors={flagErrorLines(error, f)} alert />
          ) : null}
        </div>
      ))}
    </section>
  );
}

/** Staff close an investigation (rule flag-outcome): an outcome, the credit for "credit received", a note. */
function CloseForm({
  billId,
  flagId,
  submissionId,
  error,
  busy,
}: {
  billId: number;
  flagId: number;
  submissionId: string;
  error: FlagFormError | null;
  busy: boolean;
}) {
  const v = error?.values;
  const id = (name: string) => `close-${flagId}-${name}`;
  return (
    <Form method="post" className="flag-close stack" preventScrollReset aria-labelledby={id("legend")}>
      <fieldset>
        <legend id={id("legend")}>Close this investigation</legend>
        <input type="hidden" name="statementId" value={billId} />
        <input type="hidden" name="flagId" value={flagId} />
        <input type="hidden" name="intent" value="close" />
        <SubmissionIdInput value={submissionId} />
        {FLAG_OUTCOMES.map((o) => (
          <label key={o} className="row">
            <input type="radio" name="outcome" value={o} defaultChecked={v?.outcome === o} required />{" "}
            {OUTCOME_LABELS[o]}
          </label>
        ))}
        <label htmlFor={id("credit")} className="label">
          Credit received ($), with “Credit received”
        </label>
        <input
          id={id("credit")}
          name="credit"
          className="input"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={v?.credit ?? ""}
        />
        <label htmlFor={id("note")} className="label">
          Note for the client
        </label>
        <textarea
          id={id("note")}
          name="note"
          className="input"
          rows={3}
          required
          defaultValue={v?.note ?? ""}
        />
      </fieldset>
      {error ? <FieldErrors errors={[error.message]} alert /> : null}
      <SubmitButton className="btn btn-small" disabled={busy} pendingLabel="Closing…">
        Close investigation
      </SubmitButton>
    </Form>
  );
}
