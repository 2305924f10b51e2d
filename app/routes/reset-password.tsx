import { data, redirect } from "@remix-run/node";
import { getPublicApi } from "~/server/upstream/upstream.server";
import { parseResetPassword, resetPassword, validateResetToken } from "~/features/auth/auth.server";
import { retryAfterText } from "~/server/ops/rate-limit.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { forwardRetryAfter } from "~/server/headers";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AUTH_MESSAGES } from "~/features/auth/messages";
import { validationReply } from "~/features/auth/auth";
import { isApiError } from "~/server/upstream/api-error";
import { PublicPage } from "~/ui/brand";
import { NO_SCRIPTS } from "~/ui/static-page";
import { Field } from "~/ui/field";
import { Alert } from "~/ui/states";
import { SubmitButton } from "~/ui/pending";

/**
 * Opened from an email: complete without JavaScript, so it ships none of the app's JavaScript. After a failed
 * submission the first invalid field has focus through its `autofocus` attribute (`Field`).
 */
export const handle = NO_SCRIPTS;

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (!token) throw redirect("/");
  try {
    await validateResetToken(getPublicApi(request), token.slice(0, 200));
    return data({ token, tokenError: null as string | null }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (!isApiError(error)) throw error;
    return data({ token, tokenError: error.message }, { headers: { "Cache-Control": "no-store" } });
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const token = String(form.get("token") ?? "");
  if (!token) throw redirect("/");
  const submission = parseResetPassword(form);
  if (submission.status !== "success") {
    return data(
      { lastResult: submission.reply({ hideFields: ["password", "confirmPassword"] }), done: false },
      { status: 400 },
    );
  }
  if (context.signInLimited) {
    const s = context.signInLimited.retryAfterSeconds;
    return data(
      {
        lastResult: submission.reply({
          formErrors: [retryAfterText(s)],
          hideFields: ["password", "confirmPassword"],
        }),
        done: false,
      },
      { status: 429, headers: { "Retry-After": String(s) } },
    );
  }
  try {
    await resetPassword(
      getPublicApi(request),
      token,
      submission.value.password,
      submission.value.confirmPassword,
    );
    return { lastResult: null, done: true };
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.kind === "validation" && Object.keys(error.fieldErrors).length > 0) {
      const { fieldErrors, formErrors } = validationReply(error, ["password", "confirmPassword"]);
      return data(
        {
          lastResult: submission.reply({
            fieldErrors,
            formErrors,
            hideFields: ["password", "confirmPassword"],
          }),
          done: false,
        },
        { status: 400 },
      );
    }
    return data(
      {
        lastResult: submission.reply({
          formErrors: [AUTH_MESSAGES.resetFailed],
          hideFields: ["password", "confirmPassword"],
        }),
        done: false,
      },
      { status: 400 },
    );
  }
}

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
