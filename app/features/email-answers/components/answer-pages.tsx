import { Form, Link } from "@remix-run/react";

/**
 * The app's alert markup (`~/ui/states`' Alert), written here: importing that module into these two script-free
 * pages would change how the build splits it for every page that loads it.
 */
export function Notice({ tone, children }: { tone: "error" | "info"; children: string }) {
  return (
    <div className={`alert alert-${tone}`} role={tone === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}
import { UNSUBSCRIBE_TEXT, type TokenState } from "../email-answers";

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
