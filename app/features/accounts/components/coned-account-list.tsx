import { FieldErrors } from "~/ui/field";

/**
 * The ConEd account numbers entered so far, each with a Remove button (`op=remove-<index>`), carried as hidden
 * `account` fields of the surrounding form. Shared by the connect wizard and the free bill health check.
 */
export function ConedAccountList({ accounts, error, level }: { accounts: string[]; error?: string | null; level: 2 | 3 }) {
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
              <span className="spacer">{a}</span>
              <button type="submit" name="op" value={`remove-${i}`} className="btn btn-ghost btn-small" aria-label={`Remove account ${a}`}>
                Remove
              </button>
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
