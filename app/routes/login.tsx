import type { SubmissionResult } from "@conform-to/react";
import { useRef, useState } from "react";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { forwardRetryAfter } from "~/server/headers";
import { Form, Link, useActionData, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import type { LoginIntent, LoginOption } from "~/features/auth/auth";
import { AUTH_MESSAGES, LOGIN_INTENTS, looksLikeEmail } from "~/features/auth/messages";
import { useFocusInvalid } from "~/ui/use-focus-invalid";
import {
  getLoginOptions,
  parseCodeLogin,
  parseEmail,
  parsePasswordLogin,
  requestLoginCode,
  requestLoginLink,
  requestPasswordReset,
} from "~/features/auth/auth.server";
import { isApiError } from "~/server/api-error";
import { authenticator } from "~/server/auth.server";
import { completeLogin } from "~/server/login.server";
import { beginSignInAttempt, loginOptionsLimiter, retryAfterText } from "~/server/rate-limit.server";
import { safeRedirect } from "~/server/safe-redirect";
import { getSessionUser, toastHeaders } from "~/server/session.server";
import { getPublicApi } from "~/server/upstream.server";
import { PublicPage } from "~/ui/brand";
import { Field } from "~/ui/field";
import { Alert } from "~/ui/states";
import { useHydrated } from "~/ui/use-hydrated";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const next = safeRedirect(url.searchParams.get("next"));
  const user = await getSessionUser(request);
  const rawEmail = url.searchParams.get("email");
  if (user && rawEmail === null) throw redirect(next);
  if (rawEmail === null) return { step: "email" as const, next, email: "", emailError: null, options: [] as LoginOption[] };
  const parsed = parseEmail(rawEmail);
  if (!parsed.success) {
    return { step: "email" as const, next, email: rawEmail.slice(0, 254), emailError: AUTH_MESSAGES.invalidEmail, options: [] as LoginOption[] };
  }
  const email = parsed.data.email;
  // The lookup tells which sign-in methods an address has: limited per client address, before the upstream.
  // Not counted again when this loader re-renders the page after a sign-in POST (no JavaScript): those are
  // counted by the per-IP sign-in limit in server.ts.
  const lookup = context.signInActionRan ? null : await loginOptionsLimiter().hit(context.clientIp ?? "unknown");
  if (lookup?.limited) {
    return data(
      { step: "email" as const, next, email, emailError: retryAfterText(lookup.retryAfterSeconds), options: [] as LoginOption[] },
      { status: 429, headers: { "Retry-After": String(lookup.retryAfterSeconds) } },
    );
  }
  const outcome = await getLoginOptions(getPublicApi(request), email);
  switch (outcome.kind) {
    case "mycor":
      throw redirect("/mycor");
    case "resi":
      return { step: "email" as const, next, email, emailError: AUTH_MESSAGES.resi, options: [] as LoginOption[] };
    case "unknown":
      return { step: "email" as const, next, email, emailError: AUTH_MESSAGES.unknownEmail, options: [] as LoginOption[] };
    case "failed": // the upstream is down or answered nonsense: 502 (ADR 0009)
      return data({ step: "email" as const, next, email, emailError: AUTH_MESSAGES.somethingWrong, options: [] as LoginOption[] }, { status: 502 });
    case "options":
      return { step: "options" as const, next, email, emailError: null, options: outcome.options };
  }
}

type ActionResult = {
  intent: LoginIntent;
  message?: string;
  formError?: string;
  codeRequested?: boolean;
  lastResult?: SubmissionResult<string[]>;
};

export async function action({ request, context }: ActionFunctionArgs) {
  context.signInActionRan = true;
  const form = await request.clone().formData();
  const intent = String(form.get("intent") ?? "") as LoginIntent;
  if (!LOGIN_INTENTS.includes(intent)) throw data({ message: "Unknown intent" }, { status: 400 });
  const next = safeRedirect(String(form.get("next") ?? ""));
  const emailCheck = parseEmail(form.get("email"));
  if (!emailCheck.success) {
    return data<ActionResult>({ intent, formError: AUTH_MESSAGES.invalidEmail }, { status: 400 });
  }
  const email = emailCheck.data.email;

  if (context.signInLimited) return tooManyAttempts(intent, context.signInLimited.retryAfterSeconds);

  const api = getPublicApi(request);
  switch (intent) {
    case "password": {
      const submission = parsePasswordLogin(form);
      if (submission.status !== "success") {
        return data<ActionResult>({ intent, lastResult: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
      }
      const attempt = await beginSignInAttempt(email, context.clientIp ?? "unknown");
      if (attempt.limited) return tooManyAttempts(intent, attempt.limited.retryAfterSeconds);
      try {
        const result = await authenticator.authenticate("password", request);
        await attempt.succeeded();
        return await completeLogin(result, next);
      } catch (error) {
        if (!isApiError(error)) throw error;
        if (error.status !== 401) await attempt.abandoned();
        return data<ActionResult>(
          { intent, lastResult: submission.reply({ formErrors: [AUTH_MESSAGES.wrongPassword], hideFields: ["password"] }) },
          { status: 401 },
        );
      }
    }
    case "code": {
      const submission = parseCodeLogin(form);
      if (submission.status !== "success") {
        return data<ActionResult>({ intent, codeRequested: true, lastResult: submission.reply() }, { status: 400 });
      }
      const attempt = await beginSignInAttempt(email, context.clientIp ?? "unknown");
      if (attempt.limited) return tooManyAttempts(intent, attempt.limited.retryAfterSeconds, true);
      try {
        const result = await authenticator.authenticate("login-code", request);
        await attempt.succeeded();
        return await completeLogin(result, next);
      } catch (error) {
        if (!isApiError(error)) throw error;
        if (error.status !== 401) await attempt.abandoned();
        // Rule code-login-silent-failure (docs/rules.md): a failed code login is silently ignored (no message); the code stays on screen.
        return data<ActionResult>({ intent, codeRequested: true, lastResult: submission.reply() }, { status: 401 });
      }
    }
    case "link": {
      // The answer never says whether the account exists.
      await requestLoginLink(api, email, next).catch((e) => {
        if (!isApiError(e)) throw e;
      });
      return { intent, message: AUTH_MESSAGES.linkSent } satisfies ActionResult;
    }
    case "request-code": {
      try {
        await requestLoginCode(api, email);
        return { intent, codeRequested: true, message: AUTH_MESSAGES.codeSent } satisfies ActionResult;
      } catch (error) {
        if (!isApiError(error)) throw error;
        const message = error.kind === "http" || error.kind === "validation" ? error.message : AUTH_MESSAGES.codeRequestFailed;
        return data<ActionResult>({ intent }, { status: 502, headers: await toastHeaders(request, { kind: "error", message }) });
      }
    }
    case "reset": {
      try {
        await requestPasswordReset(api, email);
        return { intent, message: AUTH_MESSAGES.resetSent } satisfies ActionResult;
      } catch (error) {
        if (!isApiError(error)) throw error;
        return data<ActionResult>({ intent, formError: AUTH_MESSAGES.resetRequestFailed }, { status: 502 });
      }
    }
  }
}

/** 429 with Retry-After and the spec's "Too many attempts…" message. */
function tooManyAttempts(intent: LoginIntent, retryAfterSeconds: number, codeRequested = false) {
  return data<ActionResult>(
    { intent, formError: retryAfterText(retryAfterSeconds), ...(codeRequested ? { codeRequested } : {}) },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } },
  );
}

export const headers = forwardRetryAfter;

/** A sign-in POST never changes the account's options: no second lookup (and no second count) after it. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" ? false : defaultShouldRevalidate;

export const meta: MetaFunction = () => [{ title: "Log in · EnergyOps" }];

export default function Login() {
  const loaderData = useLoaderData<typeof loader>();
  return (
    <PublicPage>
      <div className="card">
        <h1>Log in</h1>
        {loaderData.step === "email" ? <EmailStep /> : <OptionsStep />}
      </div>
      <p className="muted" style={{ marginTop: "1rem", fontSize: "0.9rem" }}>
        <Link to="/privacy-policy">Privacy policy</Link> · <Link to="/free-bill-health-check">Free bill health check</Link>
      </p>
    </PublicPage>
  );
}

/** Field errors of a Conform reply (`submission.reply()`), by field name; "" holds the form's own errors. */
function replyErrors(result: SubmissionResult<string[]> | undefined) {
  const e = (result?.error ?? {}) as Record<string, string[] | null | undefined>;
  return (name: string) => e[name] ?? undefined;
}

function EmailStep() {
  const { email, emailError, next } = useLoaderData<typeof loader>();
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
      <Field
        label="Email"
        id="email"
        name="email"
        type="email"
        value={value}
        onChange={(e) => setValue(e.currentTarget.value)}
        onBlur={() => setTouched(true)}
        autoComplete="username"
        required
        errors={errors}
        autoFocus
      />
      <button type="submit" className="btn btn-block" disabled={hydrated && !valid}>
        Continue
      </button>
    </Form>
  );
}

function OptionsStep() {
  const { email, options, next } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const hasPassword = options.includes("password");
  const codeRequested = Boolean(actionData && "codeRequested" in actionData && actionData.codeRequested);
  const anotherUser = `/login${next !== "/" ? `?next=${encodeURIComponent(next)}` : ""}`;
  const pwErrors = replyErrors(actionData?.intent === "password" ? actionData.lastResult : undefined);
  const codeErrors = replyErrors(actionData?.intent === "code" ? actionData.lastResult : undefined);
  const pwRef = useRef<HTMLFormElement>(null);
  const codeRef = useRef<HTMLFormElement>(null);
  useFocusInvalid(pwRef, actionData?.intent === "password" ? actionData : null);
  useFocusInvalid(codeRef, actionData?.intent === "code" ? actionData : null);
  const codeValue = actionData?.intent === "code" ? String((actionData.lastResult?.initialValue as { code?: string } | undefined)?.code ?? "") : "";

  return (
    <div className="stack">
      <p>
        Logging in as <strong data-testid="login-email">{email}</strong>
      </p>
      {actionData && "message" in actionData && actionData.message ? <Alert tone="success">{actionData.message}</Alert> : null}
      {actionData && "formError" in actionData && actionData.formError ? <Alert tone="error">{actionData.formError}</Alert> : null}

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
          <button type="submit" name="intent" value="password" className="btn btn-block" disabled={busy}>
            Log in
          </button>
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
          <button type="submit" name="intent" value="code" className="btn btn-block" disabled={busy}>
            Log in with code
          </button>
        </Form>
      ) : null}

      <Form method="post" className="stack">
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="next" value={next} />
        {options.includes("login_link") ? (
          <button type="submit" name="intent" value="link" className="btn btn-secondary btn-block" disabled={busy}>
            Email me a login link
          </button>
        ) : null}
        {options.includes("login_code") ? (
          <button type="submit" name="intent" value="request-code" className="btn btn-secondary btn-block" disabled={busy}>
            {codeRequested ? "Send a new code" : "Email me a 6-digit code"}
          </button>
        ) : null}
        <div className="row">
          <button type="submit" name="intent" value="reset" className="link-button" disabled={busy}>
            {hasPassword ? "Reset password" : "Set password"}
          </button>
          <span className="spacer" />
          <Link to={anotherUser}>Log in as another user</Link>
        </div>
      </Form>
    </div>
  );
}
