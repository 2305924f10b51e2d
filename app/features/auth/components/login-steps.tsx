import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useRef, useState } from "react";
import { Field } from "~/ui/field";
import { Alert } from "~/ui/states";
import { useFocusInvalid } from "~/ui/use-focus-invalid";
import { useHydrated } from "~/ui/use-hydrated";
import type { LoginActionData, LoginOption } from "../auth";
import { AUTH_MESSAGES, loginPath, looksLikeEmail } from "../messages";
import { SubmitButton } from "~/ui/pending";
import { EmailField } from "./email-field";

/** Field errors of a Conform reply (`submission.reply()`), by field name; "" holds the form's own errors. */
function replyErrors(result: SubmissionResult<string[]> | undefined) {
  const e = (result?.error ?? {}) as Record<string, string[] | null | undefined>;
  return (name: string) => e[name] ?? undefined;
}

/** Step 1: the email address, a GET to the same page (the loader looks up the sign-in options). */
export function EmailStep({
  email,
  emailError,
  next,
}: {
  email: string;
  emailError: string | null;
  next: string;
}) {
  const hydrated = useHydrated();
  const [value, setValue] = useState(email);
  const [touched, setTouched] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusInvalid(formRef, emailError);
  const valid = looksLikeEmail(value);
  const clientError = hydrated && touched && !valid ? AUTH_MESSAGES.invalidEmail : null;
  const errors = clientError ? [clientError] : emailError && value === email ? [emailError] : undefined;
  return (
    <Form method="get" ref={formRef} noValidate={hydrated}>
      {next !== "/" ? <input type="hidden" name="next" value={next} /> : null}
      <EmailField
        value={value}
        onChange={(e) => setValue(e.currentTarget.value)}
        onBlur={() => setTouched(true)}
        errors={errors}
        autoFocus
      />
      <SubmitButton className="btn btn-block" disabled={hydrated && !valid}>
        Continue
      </SubmitButton>
    </Form>
  );
}

/** Step 2: the address's sign-in options (password, code, link) and the password reset. */
export function OptionsStep({
  email,
  options,
  next,
  actionData,
}: {
  email: string;
  options: LoginOption[];
  next: string;
  actionData?: LoginActionData;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const hasPassword = options.includes("password");
  const codeRequested = Boolean(actionData?.codeRequested);
  const pwErrors = replyErrors(actionData?.intent === "password" ? actionData.lastResult : undefined);
  const codeErrors = replyErrors(actionData?.intent === "code" ? actionData.lastResult : undefined);
  const pwRef = useRef<HTMLFormElement>(null);
  const codeRef = useRef<HTMLFormElement>(null);
  useFocusInvalid(pwRef, actionData?.intent === "password" ? actionData : null);
  useFocusInvalid(codeRef, actionData?.intent === "code" ? actionData : null);
  const codeValue =
    actionData?.intent === "code"
      ? String((actionData.lastResult?.initialValue as { code?: string } | undefined)?.code ?? "")
      : "";

  return (
    <div className="stack">
      <p>
        Logging in as <strong data-testid="login-email">{email}</strong>
      </p>
      {actionData?.message ? <Alert tone="success">{actionData.message}</Alert> : null}
      {actionData?.notice ? <Alert tone="warning">{actionData.notice}</Alert> : null}
      {actionData?.formError ? <Alert tone="error">{actionData.formError}</Alert> : null}

      {hasPassword ? (
        <Form method="post" ref={pwRef} noValidate>
          <input type="hidden" name="email" value={email} />
          <input type="hidden" name="next" value={next} />
          <Field
            label="Password"
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            errors={pwErrors("password") ?? pwErrors("")}
          />
          <SubmitButton name="intent" value="password" className="btn btn-block" disabled={busy}>
            Log in
          </SubmitButton>
        </Form>
      ) : null}

      {options.includes("login_code") && codeRequested ? (
        <Form method="post" ref={codeRef} noValidate>
          <input type="hidden" name="email" value={email} />
          <input type="hidden" name="next" value={next} />
          <Field
            label="6-digit code"
            id="code"
            name="code"
            type="text"
            defaultValue={codeValue}
            key={codeValue}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            required
            errors={codeErrors("code")}
          />
          <SubmitButton name="intent" value="code" className="btn btn-block" disabled={busy}>
            Log in with code
          </SubmitButton>
        </Form>
      ) : null}

      <Form method="post" className="stack">
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="next" value={next} />
        {options.includes("login_link") ? (
          <SubmitButton name="intent" value="link" className="btn btn-secondary btn-block" disabled={busy}>
            Email me a login link
          </SubmitButton>
        ) : null}{" "}
        {options.includes("login_code") ? (
          <SubmitButton
            name="intent"
            value="request-code"
            className="btn btn-secondary btn-block"
            disabled={busy}
          >
            {codeRequested ? "Send a new code" : "Email me a 6-digit code"}
          </SubmitButton>
        ) : null}
        <div className="row">
          <SubmitButton name="intent" value="reset" className="link-button" disabled={busy}>
            {hasPassword ? "Reset password" : "Set password"}
          </SubmitButton>{" "}
          <span className="spacer" />
          <Link to={loginPath(next)}>Log in as another user</Link>
        </div>
      </Form>
    </div>
  );
}
