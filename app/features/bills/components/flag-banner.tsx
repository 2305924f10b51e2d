import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { Pill } from "~/ui/pill";
import {
  anchoredFlag,
  canAnswer,
  FLAG_MAYBE_APPLIED,
  flagAnchor,
  type FlagError,
  groupHeading,
  groupPillStatus,
  pillLabel,
  pillTone,
} from "../bills";
import { flagCopy, flagHeading } from "../../../../shared/bill-flags";
import { FieldErrors } from "~/ui/field";
import { SubmissionIdInput } from "~/ui/submission-id";
import { SubmitButton } from "~/ui/pending";

type Flag = {
  id: number;
  type: string;
  status: string;
  details?: { previousSupplier?: string | null } | null;
};

/** The bill flag banner: supplier_change and rate_class_change flags with headings, pills and the two answers. */
export function FlagBanner({
  billId,
  statementLabel,
  supplier,
  flags,
  error,
  submissionId,
}: {
  billId: number;
  statementLabel: string;
  supplier: string | null | undefined;
  flags: Flag[];
  error?: FlagError | null;
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
            <HeadingTag>{flagHeading(f)}</HeadingTag>
            <Pill tone={pillTone(f.status)}>{pillLabel(f.status)}</Pill>
          </div>
          <p>{flagCopy(f, supplier)}</p>
          {canAnswer(f) ? (
            <Form method="post" className="flag-actions" preventScrollReset>
              <input type="hidden" name="statementId" value={billId} />
              <input type="hidden" name="flagId" value={f.id} />
              <SubmissionIdInput
                value={error?.flagId === f.id && error.retryId ? error.retryId : submissionId}
              />
              <SubmitButton
                name="intent"
                value="confirm"
                className="btn btn-secondary btn-small"
                disabled={busyFlag === String(f.id)}
                pendingLabel="Sending your answer…"
              >
                Yes, this is expected
              </SubmitButton>{" "}
              <SubmitButton
                name="intent"
                value="investigate"
                className="btn btn-small"
                disabled={busyFlag === String(f.id)}
                pendingLabel="Sending your answer…"
              >
                No, please investigate
              </SubmitButton>
            </Form>
          ) : null}
          {error && error.flagId === f.id ? (
            <FieldErrors
              errors={error.maybeApplied ? [error.message, FLAG_MAYBE_APPLIED] : [error.message]}
              alert
            />
          ) : null}
        </div>
      ))}
    </section>
  );
}
