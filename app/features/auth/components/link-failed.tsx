import { Form } from "@remix-run/react";
import { Alert } from "~/ui/states";
import { SubmitButton } from "~/ui/pending";
import { AUTH_MESSAGES, loginPath } from "../messages";
import { EmailField } from "./email-field";

/** What the login link page's POST answered (login-link.server.ts `LinkPageData`), as this view reads it. */
type Answer = {
  signedIn?: boolean;
  sent?: string;
  notice?: string;
  email?: string;
  emailError?: string;
  refused?: string;
};

/**
 * A login link that did not sign in (rule token-login-failure): the spec's "Invalid token" message, then the
 * way on instead of a trip to the home page that loses where the link led. Still signed in: that page. Signed
 * out: a new link to the same page, by email (the address is all it asks), or the login page with `next` kept.
 */
export function LinkFailed({ next, answer }: { next: string; answer?: Answer }) {
  if (answer?.refused)
    return (
      <>
        <Alert tone="error">{answer.refused}</Alert>
        <a href="/login" className="btn btn-secondary">
          Back to login
        </a>
      </>
    );
  return (
    <>
      <Alert tone="error">{AUTH_MESSAGES.invalidToken}</Alert>
      {answer?.signedIn ? (
        <>
          <p>This login link was already used or has expired, but you are still logged in.</p>
          <a href={next} className="btn">
            Continue
          </a>
        </>
      ) : (
        <>
          <p>
            This login link was already used or has expired. Enter your email address and we will send a new
            one that opens the same page.
          </p>
          {answer?.sent ? <Alert tone="success">{answer.sent}</Alert> : null}
          {answer?.notice ? <Alert tone="warning">{answer.notice}</Alert> : null}
          <Form method="post" className="stack" noValidate>
            <input type="hidden" name="next" value={next} />
            <EmailField
              defaultValue={answer?.email ?? ""}
              errors={answer?.emailError ? [answer.emailError] : undefined}
            />
            <SubmitButton name="intent" value="request-link" className="btn btn-block">
              Email me a new login link
            </SubmitButton>
          </Form>
          <a href={loginPath(next)} className="btn btn-secondary btn-block">
            Log in another way
          </a>
        </>
      )}
    </>
  );
}
