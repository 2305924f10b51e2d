import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useRef } from "react";
import { FieldErrors } from "~/ui/field";
import { Alert } from "~/ui/states";
import { useFocusInvalid } from "~/ui/use-focus-invalid";
import { SubmitButton } from "~/ui/pending";

const CLIENT_TYPE_LABEL: Record<string, string> = {
  SMB: "Small Comm",
  RESI: "Residential",
  LARGE_COMMERCIAL: "Large Commercial",
};

type Client = { id: number; name: string; clientType: string };

/**
 * The start form: one page of clients as radios, their pages, and the reason. After a refused submission
 * (`lastResult`, the action's Conform reply) the chosen client and the reason are kept, each error sits
 * next to its field, and the focus moves to the first invalid one.
 */
export function StartForm({
  clients,
  page,
  pages,
  pageHref,
  selected,
  lastResult,
}: {
  clients: Client[];
  page: number;
  pages: number;
  pageHref: (page: number) => string;
  selected: number | null;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const navigation = useNavigation();
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, lastResult?.error ? lastResult : null);
  const first = (name: string) => lastResult?.error?.[name]?.[0];
  const errors = { clientId: first("clientId"), reason: first("reason"), form: first("") };
  const initial = lastResult?.initialValue;
  const values = initial
    ? { clientId: String(initial.clientId ?? ""), reason: String(initial.reason ?? "") }
    : { clientId: selected ? String(selected) : "", reason: "" };
  return (
    <Form method="post" className="stack" noValidate ref={form}>
      {errors.form ? <Alert tone="error">{errors.form}</Alert> : null}
      <fieldset
        className="client-list"
        aria-describedby={errors.clientId ? "clientId-error" : undefined}
        aria-invalid={errors.clientId ? true : undefined}
      >
        <legend>Client</legend>
        {clients.length === 0 ? <p className="muted">No clients match your search.</p> : null}
        {clients.map((c) => (
          <label key={c.id} className="client-option">
            <input
              type="radio"
              name="clientId"
              value={c.id}
              defaultChecked={values.clientId === String(c.id)}
              autoFocus={Boolean(errors.clientId) && c.id === clients[0]?.id}
              required
            />
            <span>{c.name}</span>{" "}
            <span className="muted small">{CLIENT_TYPE_LABEL[c.clientType] ?? c.clientType}</span>
          </label>
        ))}
        <FieldErrors id="clientId-error" errors={errors.clientId ? [errors.clientId] : null} />
      </fieldset>
      {pages > 1 ? (
        <nav aria-label="Client pages" className="row">
          {page > 1 ? <Link to={pageHref(page - 1)}>Previous</Link> : null}
          <span className="muted">
            Page {page} of {pages}
          </span>
          {page < pages ? <Link to={pageHref(page + 1)}>Next</Link> : null}
        </nav>
      ) : null}
      <div className="field">
        <label htmlFor="reason">Reason</label>
        <textarea
          id="reason"
          name="reason"
          className="input"
          rows={3}
          required
          maxLength={500}
          defaultValue={values.reason}
          autoFocus={Boolean(errors.reason) && !errors.clientId}
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={errors.reason ? "reason-error reason-hint" : "reason-hint"}
        />
        <p className="field-hint" id="reason-hint">
          Recorded in the audit log with your name and the time.
        </p>
        <FieldErrors id="reason-error" errors={errors.reason ? [errors.reason] : null} />
      </div>
      <div>
        <SubmitButton
          name="intent"
          value="start"
          className="btn"
          disabled={navigation.state === "submitting"}
        >
          Start impersonating
        </SubmitButton>
      </div>
    </Form>
  );
}
