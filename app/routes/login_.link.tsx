import { signInWithLink, tokenLoginLoader } from "~/features/auth/login-link.server";
import type { ActionFunctionArgs, HeadersFunction, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { LinkFailed } from "~/features/auth/components/link-failed";
import { forwardRetryAfter } from "~/server/headers";
import { PublicPage } from "~/ui/brand";
import { NO_SCRIPTS } from "~/ui/static-page";
import { Alert } from "~/ui/states";
import { SubmitButton } from "~/ui/pending";

/** Opened from an email: complete without JavaScript, so it ships none of the app's JavaScript. */
export const handle = NO_SCRIPTS;

export const loader = tokenLoginLoader;

export const headers: HeadersFunction = (args) => {
  const h = new Headers(forwardRetryAfter(args));
  h.set("Cache-Control", "no-store");
  return h;
};

/**
 * The POST signs in with the token, or emails a new link from the failed page (`signInWithLink`); a failure
 * renders the page with the way on (rule token-login-failure).
 */
export const action = ({ request, context }: ActionFunctionArgs) => signInWithLink(request, context);

export default function TokenLogin() {
  const { token, next, failed: noToken } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const failed = noToken || Boolean(actionData?.failed && !actionData.limited);
  return (
    <PublicPage>
      <div className="card stack">
        <h1>Log in</h1>
        {actionData?.limited ? <Alert tone="error">{actionData.limited}</Alert> : null}
        {failed ? (
          <LinkFailed next={next} answer={actionData} />
        ) : (
          <Form method="post" className="stack">
            <p>Continue to log in to your account.</p>
            <input type="hidden" name="token" value={token} />
            <input type="hidden" name="next" value={next} />
            <SubmitButton className="btn btn-block" autoFocus>
              Continue
            </SubmitButton>
          </Form>
        )}
      </div>
    </PublicPage>
  );
}

export const meta: MetaFunction = () => [
  { title: "Log in · EnergyOps" },
  { name: "referrer", content: "no-referrer" },
];
