import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import {
  loginPage,
  parseLoginAction,
  rejectedLoginForm,
  sendLoginCode,
  sendLoginLink,
  sendPasswordReset,
  signIn,
  tooManyAttempts,
} from "~/features/auth/login.server";
import { EmailStep, OptionsStep } from "~/features/auth/components/login-steps";
import { forwardRetryAfter } from "~/server/headers";
import { safeRedirect } from "~/server/safe-redirect";
import { PublicPage } from "~/ui/brand";
import { Alert } from "~/ui/states";
import { usePageToast } from "~/ui/toasts";
import { DESCRIPTIONS, description } from "~/features/public/seo";

export const loader = ({ request, context }: LoaderFunctionArgs) => loginPage(request, context);

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseLoginAction(await request.formData());
  if (submission.status !== "success") return rejectedLoginForm(submission, context);
  const value = submission.value;
  if (context.signInLimited) return tooManyAttempts(value.intent, context.signInLimited.retryAfterSeconds);
  const next = safeRedirect(value.next ?? "");
  switch (value.intent) {
    case "password":
    case "code":
      return signIn(request, context, submission, value, next);
    case "link":
      return sendLoginLink(request, context, value.email, next);
    case "request-code":
      return sendLoginCode(request, context, value.email);
    case "reset":
      return sendPasswordReset(request, context, value.email);
  }
}

export const headers = forwardRetryAfter;

/** A sign-in POST never changes the account's options: no second lookup (and no second count) after it. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" ? false : defaultShouldRevalidate;

export default function Login() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  usePageToast(actionData && "toast" in actionData ? actionData.toast : null, actionData);
  return (
    <PublicPage>
      <div className="card">
        <h1>Log in</h1>
        {d.plainHttp ? (
          <Alert tone="warning" title="Sign-in over plain HTTP">
            {d.plainHttp}
          </Alert>
        ) : null}
        {d.step === "email" ? (
          <EmailStep email={d.email} emailError={d.emailError} next={d.next} />
        ) : (
          <OptionsStep email={d.email} options={d.options} next={d.next} actionData={actionData} />
        )}
      </div>
      <p className="muted" style={{ marginTop: "1rem", fontSize: "0.9rem" }}>
        <Link to="/privacy-policy">Privacy policy</Link> ·{" "}
        <Link to="/free-bill-health-check">Free bill health check</Link>
      </p>
    </PublicPage>
  );
}

export const meta: MetaFunction = () => [{ title: "Log in · EnergyOps" }, description(DESCRIPTIONS.login)];
