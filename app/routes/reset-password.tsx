import type { MetaFunction } from "@remix-run/node";
import { forwardRetryAfter } from "~/server/headers";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AUTH_MESSAGES } from "~/features/auth/messages";
import { PublicPage } from "~/ui/brand";
import { NO_SCRIPTS } from "~/ui/static-page";
import { Field } from "~/ui/field";
import { Alert } from "~/ui/states";
import { SubmitButton } from "~/ui/pending";
import { resetPasswordLoader, resetPasswordAction } from "~/features/auth/reset-password.server";

/**
 * Opened from an email: complete without JavaScript, so it ships none of the app's JavaScript. After a failed
 * submission the first invalid field has focus through its `autofocus` attribute (`Field`).
 */
export const handle = NO_SCRIPTS;

export const loader = resetPasswordLoader;

export const action = resetPasswordAction;

export const headers = forwardRetryAfter;

export default function ResetPassword() {
  const { token, tokenError } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const errors = (actionData?.lastResult?.error ?? {}) as Record<string, string[] | null | undefined>;
  const formErrors = errors[""] ?? null;
  return (
    <PublicPage>
      <div className="card stack">
        <h1>Set a new password</h1>
        {actionData?.done ? (
          <>
            <Alert tone="success">{AUTH_MESSAGES.passwordChanged}</Alert>
            <Link to="/login" className="btn">
              Log in
            </Link>
          </>
        ) : tokenError ? (
          <>
            <Alert tone="error">{tokenError}</Alert>
            <Link to="/login" className="btn btn-secondary">
              Back to login
            </Link>
          </>
        ) : (
          <Form method="post" noValidate>
            {formErrors?.length ? <Alert tone="error">{formErrors.join(" ")}</Alert> : null}
            <input type="hidden" name="token" value={token} />
            <input type="text" name="username" autoComplete="username" hidden readOnly value="" />
            <Field
              label="New password"
              id="password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              errors={errors.password ?? undefined}
              hint="At least 8 characters."
            />
            <Field
              label="Confirm password"
              id="confirmPassword"
              name="confirmPassword"
              type="password"
              autoComplete="new-password"
              required
              errors={errors.confirmPassword ?? undefined}
            />
            <SubmitButton className="btn btn-block">Set password</SubmitButton>
          </Form>
        )}
      </div>
    </PublicPage>
  );
}

export const meta: MetaFunction = () => [
  { title: "Set a new password · EnergyOps" },
  { name: "referrer", content: "no-referrer" },
];
