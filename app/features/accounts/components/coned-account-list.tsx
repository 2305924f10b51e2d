import { useEffect, useRef } from "react";
import { CONNECT_MESSAGES } from "../accounts";
import { FieldErrors } from "~/ui/field";
import { SubmitButton } from "~/ui/pending";

/**
 * The ConEd account numbers entered so far, each with a Remove button (`op=remove-<index>`), carried as hidden
 * `account` fields of the surrounding form. Shared by the connect wizard and the free bill health check.
 */
export function ConedAccountList({
  accounts,
  error,
  level,
}: {
  accounts: string[];
  error?: string | null;
  level: 2 | 3;
}) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <>
      <Heading className="h3" id="coned-list-heading">
        Accounts to add ({accounts.length})
      </Heading>
      {accounts.length > 0 ? (
        <ul className="account-list" aria-labelledby="coned-list-heading">
          {accounts.map((a, i) => (
            <li key={a} className="row">
              <input type="hidden" name="account" value={a} />
              <span className="spacer">{a}</span>{" "}
              <SubmitButton
                name="op"
                value={`remove-${i}`}
                className="btn btn-ghost btn-small"
                aria-label={`Remove account ${a}`}
              >
                Remove
              </SubmitButton>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No account numbers added yet.</p>
      )}
      <FieldErrors id="coned-accounts-error" errors={error ? [error] : null} />
    </>
  );
}

/**
 * The ConEd account-numbers step's fields: a number to add (Add account posts `op=add`), the list so far, and the
 * required confirmation that every account has a contact email. Controlled by the surrounding form.
 */
export function ConedAccountFields(props: {
  accounts: string[];
  errors: { newAccount?: string; accounts?: string; confirmed?: string };
  pending: string;
  onPendingChange: (value: string) => void;
  confirmed: boolean;
  onConfirmedChange: (value: boolean) => void;
  level: 2 | 3;
}) {
  const { accounts, errors, pending, confirmed, level } = props;
  const numberRef = useRef<HTMLInputElement>(null);
  const confirmedRef = useRef<HTMLInputElement>(null);
  // A refused submission puts the focus on the first field in error (autoFocus does it without JavaScript).
  useEffect(() => {
    if (errors.newAccount) numberRef.current?.focus();
    else if (errors.confirmed) confirmedRef.current?.focus();
  }, [errors.newAccount, errors.confirmed]);
  return (
    <>
      <div className="field">
        <label htmlFor="coned-new-account">Account number</label>
        <div className="row">
          <input
            ref={numberRef}
            id="coned-new-account"
            name="newAccount"
            autoFocus={Boolean(errors.newAccount)}
            className="input"
            value={pending}
            onChange={(e) => props.onPendingChange(e.target.value)}
            aria-invalid={errors.newAccount ? true : undefined}
            aria-describedby={errors.newAccount ? "coned-new-account-error" : undefined}
            autoComplete="off"
          />{" "}
          <SubmitButton name="op" value="add" className="btn btn-secondary">
            Add account
          </SubmitButton>
        </div>
        <FieldErrors id="coned-new-account-error" errors={errors.newAccount ? [errors.newAccount] : null} />
      </div>
      <div>
        <ConedAccountList accounts={accounts} error={errors.accounts} level={level} />
      </div>
      <div className="field">
        <label className="checkbox" htmlFor="coned-confirmed">
          <input
            type="checkbox"
            ref={confirmedRef}
            id="coned-confirmed"
            name="confirmed"
            autoFocus={Boolean(errors.confirmed) && !errors.newAccount}
            value="on"
            checked={confirmed}
            onChange={(e) => props.onConfirmedChange(e.target.checked)}
            aria-invalid={errors.confirmed ? true : undefined}
            aria-describedby={errors.confirmed ? "coned-confirmed-error" : undefined}
          />
          <span>{CONNECT_MESSAGES.conedCheckbox}</span>
        </label>
        <FieldErrors id="coned-confirmed-error" errors={errors.confirmed ? [errors.confirmed] : null} />
      </div>
    </>
  );
}
