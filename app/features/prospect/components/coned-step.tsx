import { Form, Link } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { CONNECT_MESSAGES } from "~/features/accounts/accounts";
import { FieldErrors } from "~/ui/field";
import { Alert } from "~/ui/states";
import { useHydrated } from "~/ui/use-hydrated";

type ConedErrors = { accounts?: string; confirmed?: string; newAccount?: string };

/**
 * The ConEd step: the account list is edited with GETs (add/remove) and submitted with a POST. `fromAction`
 * is the action's answer to a failed submit (it wins over the list in the URL).
 */
export function ConedStep({
  action,
  utilityName,
  accounts: urlAccounts,
  confirmed: urlConfirmed,
  newAccount,
  newAccountError,
  fromAction,
  formError,
  renderAccountFields,
}: {
  action: string;
  utilityName?: string;
  accounts: string[];
  confirmed: boolean;
  newAccount: string;
  newAccountError: string | null;
  fromAction?: { accounts: string[]; confirmed: boolean; errors: ConedErrors; newAccount: string };
  formError?: string;
  /**
   * The account-number fields, drawn by the route with the accounts area's component (a feature does not
   * import another feature's components); this step owns their state.
   */
  renderAccountFields: (slot: {
    accounts: string[];
    errors: ConedErrors;
    pending: string;
    onPendingChange: (value: string) => void;
    confirmed: boolean;
    onConfirmedChange: (value: boolean) => void;
  }) => ReactNode;
}) {
  const hydrated = useHydrated();
  const accounts = fromAction?.accounts ?? urlAccounts;
  const errors = fromAction?.errors ?? (newAccountError ? { newAccount: newAccountError } : {});
  const [confirmed, setConfirmed] = useState(fromAction?.confirmed ?? urlConfirmed);
  const [pending, setPending] = useState(fromAction?.newAccount ?? newAccount);
  const canSubmit = (accounts.length > 0 || pending.trim().length > 0) && confirmed;
  return (
    <Form method="get" action={action} className="card stack" data-testid="coned-accounts">
      <h2>Enter your {utilityName} account numbers</h2>
      {renderAccountFields({
        accounts,
        errors,
        pending,
        onPendingChange: setPending,
        confirmed,
        onConfirmedChange: setConfirmed,
      })}
      <Alert tone="info">{CONNECT_MESSAGES.conedEmailNotice}</Alert>
      <FieldErrors errors={formError ? [formError] : null} alert />
      <div className="row">
        <button
          type="submit"
          name="intent"
          value="coned-submit"
          formMethod="post"
          className="btn"
          disabled={hydrated && !canSubmit}
        >
          Submit
        </button>
        <Link to={`${action}?restart`}>Start over</Link>
      </div>
    </Form>
  );
}
