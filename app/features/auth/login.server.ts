import type { Submission } from "@conform-to/react";
import type { LoginIntent } from "./messages";
import { data, redirect, type AppLoadContext } from "@remix-run/node";
import { isApiError } from "~/server/api-error";
import { completeLogin } from "~/server/login.server";
import { beginSignInAttempt, loginOptionsLimiter, retryAfterText } from "~/server/rate-limit.server";
import { safeRedirect } from "~/server/safe-redirect";
import { getSessionUser, secureSessionCookie } from "~/server/session.server";
import { getPublicApi } from "~/server/upstream.server";
import type { LoginAction, LoginActionData, LoginOption } from "./auth";
import { plainHttpNotice } from "./auth";
import {
  getLoginOptions,
  parseEmail,
  requestLoginCode,
  requestLoginLink,
  requestPasswordReset,
} from "./auth.server";
import { AUTH_MESSAGES, LOGIN_INTENTS } from "./messages";
import { loginCodeStrategy, passwordStrategy } from "./strategies.server";

type LoginContext = Pick<AppLoadContext, "clientIp" | "signInLimited" | "signInActionRan">;
type LoginSubmission = Submission<unknown, string[], LoginAction>;

const emailStep = (url: URL, next: string, email: string, emailError: string | null) => ({
  step: "email" as const,
  next,
  email,
  emailError,
  options: [] as LoginOption[],
  plainHttp: plainHttpNotice(url, secureSessionCookie()),
});

/**
 * The login page: the email step, or the sign-in options of the address in `?email=` (rule login-options,
 * docs/rules.md). A signed-in user without `?email=` goes straight to `next`; a mycor address to /mycor.
 */
export async function loginPage(request: Request, context: LoginContext) {
  const url = new URL(request.url);
  const next = safeRedirect(url.searchParams.get("next"));
  const user = await getSessionUser(request);
  const rawEmail = url.searchParams.get("email");
  if (user && rawEmail === null) throw redirect(next);
  if (rawEmail === null) return emailStep(url, next, "", null);
  const parsed = parseEmail(rawEmail);
  if (!parsed.success) return emailStep(url, next, rawEmail.slice(0, 254), AUTH_MESSAGES.invalidEmail);
  const email = parsed.data.email;
  // The lookup tells which sign-in methods an address has: limited per client address, before the upstream.
  // Not counted again when this loader re-renders the page after a sign-in POST (no JavaScript): those are
  // counted by the per-IP sign-in limit in server.ts.
  const lookup = context.signInActionRan
    ? null
    : await loginOptionsLimiter().hit(context.clientIp ?? "unknown");
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
        plainHttp: plainHttpNotice(url, secureSessionCookie()),
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
 * Password or code sign-in through its remix-auth strategy (strategies.server.ts), behind the per-account attempt limit. A wrong
 * password says so; a failed code login is silent (rule code-login-silent-failure, docs/rules.md).
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
        ? await passwordStrategy.signIn(value, request)
        : await loginCodeStrategy.signIn(value, request);
    await attempt.succeeded();
    return await completeLogin(result, next);
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.status !== 401) await attempt.abandoned();
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

/** Emails a login link. The answer never says whether the account exists. */
export async function sendLoginLink(request: Request, email: string, next: string) {
  await requestLoginLink(getPublicApi(request), email, next).catch((e) => {
    if (!isApiError(e)) throw e;
  });
  return { intent: "link", message: AUTH_MESSAGES.linkSent } satisfies LoginActionData;
}

export async function sendLoginCode(request: Request, email: string) {
  try {
    await requestLoginCode(getPublicApi(request), email);
    return {
      intent: "request-code",
      codeRequested: true,
      message: AUTH_MESSAGES.codeSent,
    } satisfies LoginActionData;
  } catch (error) {
    if (!isApiError(error)) throw error;
    const message =
      error.kind === "http" || error.kind === "validation" ? error.message : AUTH_MESSAGES.codeRequestFailed;
    // The login page answering this request says it (a flash would show on whatever page came next).
    return data<LoginActionData>(
      { intent: "request-code", toast: { kind: "error", message } },
      { status: 502 },
    );
  }
}

export async function sendPasswordReset(request: Request, email: string) {
  try {
    await requestPasswordReset(getPublicApi(request), email);
    return { intent: "reset", message: AUTH_MESSAGES.resetSent } satisfies LoginActionData;
  } catch (error) {
    if (!isApiError(error)) throw error;
    return data<LoginActionData>(
      { intent: "reset", formError: AUTH_MESSAGES.resetRequestFailed },
      { status: 502 },
    );
  }
}
