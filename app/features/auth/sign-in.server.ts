import type { Submission } from "@conform-to/react";
import { redirect } from "@remix-run/node";
import { Strategy } from "remix-auth/strategy";
import { createHash } from "node:crypto";
import { z } from "zod";
import { signInRefusal, type SignInRefusal } from "../../../shared/sign-in-access";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { ApiError } from "~/server/upstream/api-error";
import { isStaffEmail } from "~/server/config.server";
import { parseForm } from "~/server/forms.server";
import { signInLanding } from "~/server/safe-redirect";
import { commitSession, newSession, type SessionUser } from "~/server/upstream/session.server";
import { getPublicApi, revokeUpstreamSession } from "~/server/upstream/upstream.server";

/*
 * Signing in, server side, what the sign-in pages share: the user as the api answers it and as the session
 * keeps it, the upstream login and the new session it opens, and the remix-auth strategy every way to sign in
 * is one of. Each page's own steps live in its own module: `login.server.ts` (the login page),
 * `login-link.server.ts` (the emailed link), `reset-password.server.ts`, `logout.server.ts`.
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
  // With the flag an email's bills link names in view (its fragment never reached the server).
  return redirect(signInLanding(next ?? result.next ?? "/"), {
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

/*
 * The sign-in mails. The browser's address (the load context's `clientIp`, which follows TRUST_PROXY) goes
 * upstream as X-Forwarded-For: the api keeps its mail limits per recipient and requesting address, so that a
 * stranger asking for somebody's mails only spends its own share (rule sign-in-mail-limit).
 */
export const requestLoginLink = (api: ApiClient, email: string, next: string, clientIp: string | undefined) =>
  api.post("/auth/login-link/request", { body: { email, next }, forwardedFor: clientIp });
