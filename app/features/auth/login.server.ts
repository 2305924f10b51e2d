import type { Submission } from "@conform-to/react";
import { data, redirect, type AppLoadContext } from "@remix-run/node";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { ApiError, isApiError } from "~/server/upstream/api-error";
import { getConfig } from "~/server/config.server";
import { safeRedirect, signInLanding } from "~/server/safe-redirect";
import { parseForm } from "~/server/forms.server";
import { beginSignInAttempt, loginOptionsLimiter, retryAfterText } from "~/server/ops/rate-limit.server";
import { getSessionUser, secureSessionCookie } from "~/server/upstream/session.server";
import { getPublicApi } from "~/server/upstream/upstream.server";
import {
  codeSignInSchema,
  emailSchema,
  loginActionSchema,
  LOGIN_OPTIONS_RETRIES,
  passwordSignInSchema,
  type LoginAction,
  type LoginActionData,
  type LoginOption,
  type LoginOptionsOutcome,
  plainHttpNotice,
} from "./auth";
import { AUTH_MESSAGES, LOGIN_INTENTS, signInMailWaitText, type LoginIntent } from "./messages";
import {
  completeLogin,
  requestLoginLink,
  SignInStrategy,
  signInRefusalOf,
  upstreamLogin,
} from "./sign-in.server";
import { z } from "zod";

/*
 * The login page's server side (app/routes/login.tsx): its password and code strategies, the login-options
 * lookup, the sign-in mails it asks for, and the steps of its loader and action.
 */

/**
 * One remix-auth strategy per way to sign in (docs/api-contract.md, "Sign-in"): each owns its form schema and
 * its upstream call. The emailed link's is in login-link.server.ts.
 */
export const passwordStrategy = new SignInStrategy(
  "password",
  passwordSignInSchema,
  ({ value, request, clientIp }) =>
    upstreamLogin(request, "/auth/login", { email: value.email, password: value.password }, clientIp),
);

export const loginCodeStrategy = new SignInStrategy(
  "login-code",
  codeSignInSchema,
  ({ value, request, clientIp }) =>
    upstreamLogin(request, "/auth/login-code", { email: value.email, code: value.code }, clientIp),
);

// ---- The other upstream calls of the sign-in pages -----------------------------------------------------

const optionsSchema = z.object({
  items: z.array(z.string()).default([]),
  error: z.string().nullish(),
});

/** GET /users/{email}/login-options with up to 3 retries (none for mycor/resi, none for a plain "no account"). */
export async function getLoginOptions(api: ApiClient, email: string): Promise<LoginOptionsOutcome> {
  for (let attempt = 0; attempt <= LOGIN_OPTIONS_RETRIES; attempt++) {
    try {
      const res = await api.get(`/users/${encodeURIComponent(email)}/login-options`, {
        schema: optionsSchema,
      });
      if (res.error === "mycor") return { kind: "mycor" };
      if (res.error === "resi") return { kind: "resi" };
      const options = res.items.filter(
        (o): o is LoginOption => o === "password" || o === "login_link" || o === "login_code",
      );
      return { kind: "options", options };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 404) return { kind: "unknown" };
      if (error.kind === "aborted") throw error;
      // A timeout has spent the whole time budget of the page: retry only failures that answer fast.
      if (error.kind === "timeout") return { kind: "failed" };
      if (attempt === LOGIN_OPTIONS_RETRIES) return { kind: "failed" };
    }
  }
  return { kind: "failed" };
}
export const requestLoginCode = (api: ApiClient, email: string, clientIp: string | undefined) =>
  api.post("/auth/login-code/request", { body: { email }, forwardedFor: clientIp });
export const requestPasswordReset = (api: ApiClient, email: string, clientIp: string | undefined) =>
  api.post("/auth/password-reset/request", { body: { email }, forwardedFor: clientIp });
// Form parsing lives here, server-only, so the sign-in pages never ship zod or Conform to the browser.
export const parseEmail = (value: FormDataEntryValue | null) => emailSchema.safeParse({ email: value });
export const parseLoginAction = (form: FormData) => parseForm(form, { schema: loginActionSchema });

// ---- The login page --------------------------------------------------------------------------------------

type LoginContext = Pick<AppLoadContext, "clientIp" | "signInLimited" | "requestMethod">;
type LoginSubmission = Submission<unknown, string[], LoginAction>;

const emailStep = (url: URL, next: string, email: string, emailError: string | null) => ({
  step: "email" as const,
  next,
  email,
  emailError,
  options: [] as LoginOption[],
  plainHttp: plainHttpNotice(url, secureSessionCookie(), getConfig().PUBLIC_URL),
});

/**
 * The login page: the email step, or the sign-in options of the address in `?email=` (rule login-options,
 * docs/rules.md). A signed-in user without `?email=` goes straight to `next`; a mycor address to /mycor.
 */
export async function loginPage(request: Request, context: LoginContext) {
  const url = new URL(request.url);
  const next = safeRedirect(url.searchParams.get("next"));
  const user = await getSessionUser(request);
  // An empty `?email=` (a link or a bookmark that carries the parameter with no value) is nothing typed yet, as
  // no `?email=` at all: the blank email step, with no validation error before anything is typed.
  const rawEmail = url.searchParams.get("email")?.trim() ? url.searchParams.get("email") : null;
  if (user && rawEmail === null) throw redirect(signInLanding(next));
  if (rawEmail === null) return emailStep(url, next, "", null);
  const parsed = parseEmail(rawEmail);
  if (!parsed.success) return emailStep(url, next, rawEmail.slice(0, 254), AUTH_MESSAGES.invalidEmail);
  const email = parsed.data.email;
  // The lookup tells which sign-in methods an address has: limited per client address, before the upstream.
  // Not counted when this loader renders the answer to a sign-in POST (no JavaScript; the request is a POST,
  // the page shows the action's answer): those are counted by the per-IP sign-in limit in server.ts.
  const lookup =
    context.requestMethod === "POST" ? null : await loginOptionsLimiter().hit(context.clientIp ?? "unknown");
  if (lookup?.limited) {
    return data(emailStep(url, next, email, retryAfterText(lookup.retryAfterSeconds)), {
      status: 429,
      headers: { "Retry-After": String(lookup.retryAfterSeconds) },
    });
  }
  const outcome = await getLoginOptions(getPublicApi(request), email);
  switch (outcome.kind) {
    case "mycor":
      throw redirect("/mycor");
    case "resi":
      return emailStep(url, next, email, AUTH_MESSAGES.resi);
    case "unknown":
      return emailStep(url, next, email, AUTH_MESSAGES.unknownEmail);
    case "failed": // the upstream is down or answered nonsense: 502 (ADR 0009)
      return data(emailStep(url, next, email, AUTH_MESSAGES.somethingWrong), { status: 502 });
    case "options":
      return {
        step: "options" as const,
        next,
        email,
        emailError: null,
        options: outcome.options,
        plainHttp: plainHttpNotice(url, secureSessionCookie(), getConfig().PUBLIC_URL),
      };
  }
}

/** 429 with Retry-After and the spec's "Too many attempts…" message. */
export function tooManyAttempts(intent: LoginIntent, retryAfterSeconds: number, codeRequested = false) {
  return data<LoginActionData>(
    { intent, formError: retryAfterText(retryAfterSeconds), ...(codeRequested ? { codeRequested } : {}) },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } },
  );
}

/**
 * A form the schema rejected, checked in the order the page always has: an unknown intent (400), an invalid
 * email address (the form's error, 400), the per-IP sign-in limit (429), then the intent's own fields (400).
 */
export function rejectedLoginForm(
  submission: Exclude<LoginSubmission, { status: "success" }>,
  context: LoginContext,
) {
  const intent = submission.payload.intent;
  if (submission.error?.intent || !LOGIN_INTENTS.includes(intent as LoginIntent)) {
    return data<LoginActionData>({ intent: null, lastResult: submission.reply() }, { status: 400 });
  }
  const known = intent as LoginIntent;
  if (submission.error?.email) {
    return data<LoginActionData>({ intent: known, formError: AUTH_MESSAGES.invalidEmail }, { status: 400 });
  }
  if (context.signInLimited) return tooManyAttempts(known, context.signInLimited.retryAfterSeconds);
  if (known === "code") {
    return data<LoginActionData>(
      { intent: known, codeRequested: true, lastResult: submission.reply() },
      { status: 400 },
    );
  }
  return data<LoginActionData>(
    { intent: known, lastResult: submission.reply({ hideFields: ["password"] }) },
    { status: 400 },
  );
}

/**
 * Password or code sign-in through its remix-auth strategy, behind the per-account attempt limit. A wrong password
 * says so; a failed code login is silent (rule code-login-silent-failure, docs/rules.md).
 */
export async function signIn(
  request: Request,
  context: LoginContext,
  submission: LoginSubmission,
  value: Extract<LoginAction, { intent: "password" | "code" }>,
  next: string,
) {
  const { intent } = value;
  const attempt = await beginSignInAttempt(value.email, context.clientIp ?? "unknown");
  if (attempt.limited) return tooManyAttempts(intent, attempt.limited.retryAfterSeconds, intent === "code");
  try {
    // The page parsed its form once; the intent's strategy makes the upstream call with the parsed value.
    const result =
      value.intent === "password"
        ? await passwordStrategy.signIn(value, request, context.clientIp)
        : await loginCodeStrategy.signIn(value, request, context.clientIp);
    await attempt.succeeded();
    return await completeLogin(request, result, next);
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.status !== 401) await attempt.abandoned();
    // Not a failed sign-in: this person may not sign in here (rule sign-in-by-client-type).
    const refusal = signInRefusalOf(error);
    if (refusal === "mycor") throw redirect("/mycor");
    if (refusal === "resi") {
      return data<LoginActionData>(
        { intent, formError: AUTH_MESSAGES.resi, ...(intent === "code" ? { codeRequested: true } : {}) },
        { status: 403 },
      );
    }
    // The upstream refused the credentials (a 4xx): 401. It failed (5xx, no answer, time-out): an outage,
    // 502 (ADR 0009), so monitors see it; the form still shows the spec's one message for a failed login.
    const status = error.status >= 400 && error.status < 500 ? 401 : 502;
    if (intent === "code") {
      return data<LoginActionData>(
        { intent, codeRequested: true, lastResult: submission.reply() },
        { status },
      );
    }
    return data<LoginActionData>(
      {
        intent,
        lastResult: submission.reply({ formErrors: [AUTH_MESSAGES.wrongPassword], hideFields: ["password"] }),
      },
      { status },
    );
  }
}

/**
 * The api's answer that this browser asked for too many sign-in mails for this address (429, rule
 * sign-in-mail-limit): the page says how long to wait, in words that hold whether or not an account exists,
 * with the same 429 and Retry-After. Null for any other failure.
 */
function mailWait(error: ApiError, intent: LoginIntent, extra: Partial<LoginActionData> = {}) {
  if (error.status !== 429) return null;
  const seconds = error.details.retryAfterSeconds ?? 15 * 60;
  return data<LoginActionData>(
    { intent, notice: signInMailWaitText(seconds), ...extra },
    { status: 429, headers: { "Retry-After": String(seconds) } },
  );
}

/** Emails a login link. The answer never says whether the account exists. */
export async function sendLoginLink(request: Request, context: LoginContext, email: string, next: string) {
  try {
    await requestLoginLink(getPublicApi(request), email, next, context.clientIp);
  } catch (error) {
    if (!isApiError(error)) throw error;
    const wait = mailWait(error, "link");
    if (wait) return wait;
  }
  return { intent: "link", message: AUTH_MESSAGES.linkSent } satisfies LoginActionData;
}

export async function sendLoginCode(request: Request, context: LoginContext, email: string) {
  try {
    await requestLoginCode(getPublicApi(request), email, context.clientIp);
    return {
      intent: "request-code",
      codeRequested: true,
      message: AUTH_MESSAGES.codeSent,
    } satisfies LoginActionData;
  } catch (error) {
    if (!isApiError(error)) throw error;
    // An earlier code may still be on its way or in the inbox: the field to type it stays.
    const wait = mailWait(error, "request-code", { codeRequested: true });
    if (wait) return wait;
    const message =
      error.kind === "http" || error.kind === "validation" ? error.message : AUTH_MESSAGES.codeRequestFailed;
    // The login page answering this request says it (a flash would show on whatever page came next).
    return data<LoginActionData>(
      { intent: "request-code", toast: { kind: "error", message } },
      { status: 502 },
    );
  }
}

export async function sendPasswordReset(request: Request, context: LoginContext, email: string) {
  try {
    await requestPasswordReset(getPublicApi(request), email, context.clientIp);
    return { intent: "reset", message: AUTH_MESSAGES.resetSent } satisfies LoginActionData;
  } catch (error) {
    if (!isApiError(error)) throw error;
    const wait = mailWait(error, "reset");
    if (wait) return wait;
    return data<LoginActionData>(
      { intent: "reset", formError: AUTH_MESSAGES.resetRequestFailed },
      { status: 502 },
    );
  }
}
