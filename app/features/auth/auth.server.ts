import type { Submission } from "@conform-to/react";
import {
  data,
  redirect,
  type AppLoadContext,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from "@remix-run/node";
import { Strategy } from "remix-auth/strategy";
import { createHash } from "node:crypto";
import { z } from "zod";
import { signInRefusal, type SignInRefusal } from "../../../shared/sign-in-access";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { ApiError, isApiError } from "~/server/upstream/api-error";
import { isStaffEmail, getConfig } from "~/server/config.server";
import { parseForm } from "~/server/forms.server";
import { beginSignInAttempt, loginOptionsLimiter, retryAfterText } from "~/server/ops/rate-limit.server";
import { safeRedirect } from "~/server/safe-redirect";
import {
  commitSession,
  getSession,
  getSessionUser,
  newSession,
  secureSessionCookie,
  type SessionUser,
} from "~/server/upstream/session.server";
import { getPublicApi, revokeUpstreamSession } from "~/server/upstream/upstream.server";
import {
  codeSignInSchema,
  emailSchema,
  linkPageActionSchema,
  linkSignInSchema,
  loginActionSchema,
  LOGIN_OPTIONS_RETRIES,
  passwordSignInSchema,
  resetPasswordSchema,
  type LoginAction,
  type LoginActionData,
  type LoginOption,
  type LoginOptionsOutcome,
  plainHttpNotice,
  validationReply,
} from "./auth";
import { AUTH_MESSAGES, LOGIN_INTENTS, signInMailWaitText, type LoginIntent } from "./messages";

/*
 * Signing in, server side: the user as the api answers it and as the session keeps it, the sign-in strategies,
 * the other upstream calls of the sign-in pages, and the steps of the login and login-link pages.
 *
 * One way to use remix-auth: every sign-in action reads its form once, parses it with its one schema through
 * `parseForm`, and hands the parsed value to the strategy's `signIn`. No route calls an Authenticator's
 * `authenticate`: in remix-auth 4 it keeps no session and only picks a strategy by name and passes it a copy
 * of the request, whose body must still be unread; the login page has to parse its union of intents (and
 * check the attempt limits) before it knows which strategy signs in, so going through `authenticate` would
 * mean cloning the body and parsing the form twice (ADR 0004).
 */

// ---- The signed-in user --------------------------------------------------------------------------------

/** The user as the upstream's GET /user (and login endpoints) answer it, camelCased. */
export const apiUserSchema = z.object({
  id: z.number(),
  email: z.string(),
  firstName: z.string().nullish(),
  lastName: z.string().nullish(),
  clientId: z.number().nullable(),
  client: z
    .object({ id: z.number(), name: z.string(), clientType: z.enum(["SMB", "RESI", "LARGE_COMMERCIAL"]) })
    .nullable(),
  isImpersonating: z.boolean(),
  canImpersonate: z.boolean(),
  isClientAdmin: z.boolean(),
  isDemoMode: z.boolean().optional(),
  next: z.string().nullish(),
});
export type ApiUser = z.infer<typeof apiUserSchema>;

export function toSessionUser(u: ApiUser): SessionUser {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName ?? "",
    lastName: u.lastName ?? "",
    clientId: u.clientId,
    client: u.client,
    isStaff: isStaffEmail(u.email),
    isClientAdmin: u.isClientAdmin,
    isImpersonating: u.isImpersonating,
    canImpersonate: u.canImpersonate,
    isDemoMode: u.isDemoMode ?? false,
  };
}

export type AuthResult = { user: SessionUser; apiSession: string; next?: string | null };

/**
 * Signs in upstream with one of the login endpoints; the api answers the user and sets its session cookie. The
 * browser's address goes along: the api remembers the addresses a person signs in from, whose sign-in mails
 * strangers cannot hold back (rule sign-in-mail-limit).
 */
export async function upstreamLogin(
  request: Request,
  path: string,
  body: Record<string, unknown>,
  clientIp: string | undefined,
): Promise<AuthResult> {
  const { data, apiSession } = await getPublicApi(request).withSessionCookie("POST", path, {
    body,
    schema: apiUserSchema,
    forwardedFor: clientIp,
  });
  if (!apiSession) throw new ApiError("Got empty body", "empty-body", 200);
  return { user: toSessionUser(data), apiSession, next: data.next };
}

/**
 * Why the api refused a sign-in by client type (its 403 with `error` `mycor` or `resi`, rule
 * sign-in-by-client-type), or null for any other failure.
 */
export function signInRefusalOf(error: ApiError): SignInRefusal | null {
  const code = error.status === 403 ? error.details.code : undefined;
  return code === "mycor" || code === "resi" ? code : null;
}

/** The mark of an emailed login link kept in the session it started (not the token: a hash of it). */
export const linkMark = (token: string) =>
  createHash("sha256").update(token).digest("base64url").slice(0, 22);

/**
 * A new session for a fresh login (the old cookie's data is dropped), then the safe `next`. Somebody who may
 * not have a session (rule sign-in-by-client-type) gets none, even from an upstream that signed them in: the
 * upstream session is revoked and the refusal thrown as the api would answer it. `signInLink`: the mark of
 * the emailed link that signed in (`linkMark`).
 */
export async function completeLogin(
  request: Request,
  result: AuthResult,
  next: string | null | undefined,
  signInLink?: string,
) {
  const refusal = signInRefusal({ isStaff: result.user.isStaff, clientType: result.user.client?.clientType });
  if (refusal) {
    await revokeUpstreamSession(request, result.apiSession);
    throw new ApiError("Forbidden", "forbidden", 403, {}, { code: refusal });
  }
  const session = await newSession();
  session.set("user", result.user);
  session.set("apiSession", result.apiSession);
  if (signInLink) session.set("signInLink", signInLink);
  return redirect(safeRedirect(next ?? result.next ?? "/"), {
    headers: { "Set-Cookie": await commitSession(session) },
  });
}

// ---- One remix-auth strategy per way to sign in ------------------------------------------------------------

type SignInSubmission<S extends z.ZodTypeAny> = Submission<z.input<S>, string[], z.output<S>>;

/** A sign-in form the strategy's schema refused; `submission.reply()` gives the form its errors back. */
export class InvalidSignInForm<S extends z.ZodTypeAny = z.ZodTypeAny> extends Error {
  constructor(readonly submission: Exclude<SignInSubmission<S>, { status: "success" }>) {
    super("invalid sign-in form");
  }
}

/** What a strategy's verify function is given: the parsed form, the request and the browser's address. */
type VerifyParams<S extends z.ZodTypeAny> = { value: z.output<S>; request: Request; clientIp?: string };

/**
 * A remix-auth strategy for one way to sign in. It owns its form schema (`parse`, through `parseForm`) and its
 * upstream call (the verify function, run by `signIn` with the parsed value and the load context's client
 * address). `authenticate` is remix-auth's entry point for a request whose form is still unread; our pages
 * parse their forms themselves (see the top of this file), so it is kept only to honour remix-auth's contract
 * (it has no load context, so no client address).
 */
export class SignInStrategy<S extends z.ZodTypeAny> extends Strategy<AuthResult, VerifyParams<S>> {
  constructor(
    readonly name: string,
    readonly schema: S,
    verify: (params: VerifyParams<S>) => Promise<AuthResult>,
  ) {
    super(verify);
  }

  parse(form: FormData): SignInSubmission<S> {
    return parseForm(form, { schema: this.schema }) as SignInSubmission<S>;
  }

  signIn(value: z.output<S>, request: Request, clientIp?: string): Promise<AuthResult> {
    return this.verify({ value, request, clientIp });
  }

  async authenticate(request: Request): Promise<AuthResult> {
    const submission = this.parse(await request.formData());
    if (submission.status !== "success") throw new InvalidSignInForm<S>(submission);
    return this.signIn(submission.value, request);
  }
}

/**
 * One remix-auth strategy per way to sign in (docs/api-contract.md, "Sign-in"): each owns its form schema and
 * its upstream call.
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

/** The emailed link: the form's `next` wins over the one the link was requested with. */
export const loginLinkStrategy = new SignInStrategy(
  "login-link",
  linkSignInSchema,
  async ({ value, request, clientIp }): Promise<AuthResult> => {
    const result = await upstreamLogin(request, "/auth/login-link", { token: value.token }, clientIp);
    return { ...result, next: value.next ?? result.next };
  },
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

/*
 * The sign-in mails. The browser's address (the load context's `clientIp`, which follows TRUST_PROXY) goes
 * upstream as X-Forwarded-For: the api keeps its mail limits per recipient and requesting address, so that a
 * stranger asking for somebody's mails only spends its own share (rule sign-in-mail-limit).
 */
export const requestLoginLink = (api: ApiClient, email: string, next: string, clientIp: string | undefined) =>
  api.post("/auth/login-link/request", { body: { email, next }, forwardedFor: clientIp });
export const requestLoginCode = (api: ApiClient, email: string, clientIp: string | undefined) =>
  api.post("/auth/login-code/request", { body: { email }, forwardedFor: clientIp });
export const requestPasswordReset = (api: ApiClient, email: string, clientIp: string | undefined) =>
  api.post("/auth/password-reset/request", { body: { email }, forwardedFor: clientIp });

export const validateResetToken = (api: ApiClient, token: string) =>
  api.get("/user/password/token/validate", { query: { token } });

const resetAnswer = z.object({ message: z.string() });
export const resetPassword = (api: ApiClient, token: string, password: string, confirmPassword: string) =>
  api.post("/user/password/reset", {
    body: { token, password, confirmPassword },
    schema: resetAnswer,
  });

export const logoutUpstream = (api: ApiClient) => api.post("/auth/logout");

// Form parsing lives here, server-only, so the sign-in pages never ship zod or Conform to the browser.
export const parseEmail = (value: FormDataEntryValue | null) => emailSchema.safeParse({ email: value });
export const parseLoginAction = (form: FormData) => parseForm(form, { schema: loginActionSchema });
export const parseResetPassword = (form: FormData) => parseForm(form, { schema: resetPasswordSchema });

// ---- The login page --------------------------------------------------------------------------------------

type LoginContext = Pick<AppLoadContext, "clientIp" | "signInLimited" | "signInActionRan">;
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

// ---- The login link page ---------------------------------------------------------------------------------

const noStore = { "Cache-Control": "no-store" };

/** What the login link page shows after a POST. */
export type LinkPageData = {
  /** The link could not sign in (used, expired, unknown, or no token). */
  failed: boolean;
  /** Still signed in (by other means): the page offers to go on to `next` rather than a new link. */
  signedIn?: boolean;
  /** The page's own limit (sign-in posts per address), as the login page says it. */
  limited: string | null;
  /** The answer to "Email me a new login link". */
  sent?: string;
  /** The wait before another sign-in mail (rule sign-in-mail-limit). */
  notice?: string;
  /** The address typed into the new-link form, kept after a refusal. */
  email?: string;
  emailError?: string;
  /** A person who may not sign in here (resi): the spec's message instead of "Invalid token". */
  refused?: string;
};

/**
 * The login link's POST: Continue (the token, through its strategy), or "Email me a new login link" from the
 * failed page (an address; `next` kept), both parsed by the page's one schema. A failed link shows the one
 * "Invalid token" message, and offers the way on: a new link to the same `next`, or, for somebody still
 * signed in, that page (rule token-login-failure). A large commercial client's person goes to /mycor, a
 * residential one's sees "Login has not yet been enabled for this account" (rule sign-in-by-client-type).
 */
export async function signInWithLink(
  request: Request,
  context: Pick<AppLoadContext, "signInLimited" | "clientIp">,
) {
  if (context.signInLimited) {
    const s = context.signInLimited.retryAfterSeconds;
    return data<LinkPageData>(
      { failed: true, limited: retryAfterText(s) },
      { status: 429, headers: { "Retry-After": String(s), ...noStore } },
    );
  }
  const submission = parseForm(await request.formData(), { schema: linkPageActionSchema });
  if (submission.status !== "success") {
    const payload = submission.payload as { intent?: unknown; email?: unknown };
    // The new-link form with a bad address: the address comes back as typed, with the message.
    const asked = payload.intent === "request-link";
    return data<LinkPageData>(
      {
        failed: true,
        limited: null,
        ...(asked
          ? { email: String(payload.email ?? "").slice(0, 254), emailError: AUTH_MESSAGES.invalidEmail }
          : {}),
      },
      { status: 400, headers: noStore },
    );
  }
  const value = submission.value;
  if (value.intent === "request-link") {
    const next = safeRedirect(value.next ?? "");
    try {
      await requestLoginLink(getPublicApi(request), value.email, next, context.clientIp);
    } catch (error) {
      if (!isApiError(error)) throw error;
      if (error.status === 429) {
        const seconds = error.details.retryAfterSeconds ?? 15 * 60;
        return data<LinkPageData>(
          { failed: true, limited: null, email: value.email, notice: signInMailWaitText(seconds) },
          { status: 429, headers: { "Retry-After": String(seconds), ...noStore } },
        );
      }
    }
    return data<LinkPageData>(
      { failed: true, limited: null, email: value.email, sent: AUTH_MESSAGES.linkSent },
      { headers: noStore },
    );
  }
  try {
    const result = await loginLinkStrategy.signIn(value, request, context.clientIp);
    return await completeLogin(request, result, result.next ?? "/", linkMark(value.token));
  } catch (error) {
    if (!isApiError(error)) throw error;
    const refusal = signInRefusalOf(error);
    if (refusal === "mycor") throw redirect("/mycor", { headers: noStore });
    if (refusal === "resi")
      return data<LinkPageData>(
        { failed: true, limited: null, refused: AUTH_MESSAGES.resi },
        { status: 403, headers: noStore },
      );
    const signedIn = (await getSessionUser(request)) !== null;
    return data<LinkPageData>({ failed: true, limited: null, signedIn }, { status: 401, headers: noStore });
  }
}

export async function resetPasswordLoader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (!token) throw redirect("/");
  try {
    await validateResetToken(getPublicApi(request), token.slice(0, 200));
    return data({ token, tokenError: null as string | null }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (!isApiError(error)) throw error;
    // The link of somebody who may not sign in here (rule sign-in-by-client-type) sets no password.
    const refusal = signInRefusalOf(error);
    if (refusal === "mycor") throw redirect("/mycor", { headers: { "Cache-Control": "no-store" } });
    if (refusal === "resi")
      return data({ token, tokenError: AUTH_MESSAGES.resi }, { headers: { "Cache-Control": "no-store" } });
    return data({ token, tokenError: error.message }, { headers: { "Cache-Control": "no-store" } });
  }
}

export async function resetPasswordAction({ request, context }: ActionFunctionArgs) {
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
    const refusal = signInRefusalOf(error);
    if (refusal === "mycor") throw redirect("/mycor");
    if (refusal === "resi")
      return data(
        {
          lastResult: submission.reply({
            formErrors: [AUTH_MESSAGES.resi],
            hideFields: ["password", "confirmPassword"],
          }),
          done: false,
        },
        { status: 403 },
      );
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

/**
 * Token login. Mail systems' link scanners open links, so a GET only shows a Continue button; the POST
 * consumes the token and creates the session. The same link opened again in the session it started (a second
 * tap on the email's button) goes straight on to its page: the link is spent, the person is signed in by it.
 */
export async function tokenLoginLoader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const next = safeRedirect(url.searchParams.get("next"));
  if (token) {
    const session = await getSession(request);
    const mark = session.get("signInLink");
    if (session.get("user") && mark && mark === linkMark(token.slice(0, 200)))
      throw redirect(next, { headers: noStore });
  }
  return data({ token: token.slice(0, 200), next, failed: token.length === 0 }, { headers: noStore });
}
