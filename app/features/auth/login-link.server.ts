import { data, redirect, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/node";
import { isApiError } from "~/server/upstream/api-error";
import { parseForm } from "~/server/forms.server";
import { retryAfterText } from "~/server/ops/rate-limit.server";
import { safeRedirect, signInLanding } from "~/server/safe-redirect";
import { getSession, getSessionUser } from "~/server/upstream/session.server";
import { getPublicApi } from "~/server/upstream/upstream.server";
import { linkPageActionSchema, linkSignInSchema } from "./auth";
import { AUTH_MESSAGES, signInMailWaitText } from "./messages";
import {
  completeLogin,
  linkMark,
  requestLoginLink,
  SignInStrategy,
  signInRefusalOf,
  upstreamLogin,
  type AuthResult,
} from "./sign-in.server";

/*
 * The login link page's server side (app/routes/login_.link.tsx): the emailed link's strategy, the page's
 * loader (a GET only asks) and its action (Continue signs in; a failed link offers a new one).
 */

/** The emailed link: the form's `next` wins over the one the link was requested with. */
export const loginLinkStrategy = new SignInStrategy(
  "login-link",
  linkSignInSchema,
  async ({ value, request, clientIp }): Promise<AuthResult> => {
    const result = await upstreamLogin(request, "/auth/login-link", { token: value.token }, clientIp);
    return { ...result, next: value.next ?? result.next };
  },
);
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
      throw redirect(signInLanding(next), { headers: noStore });
  }
  return data({ token: token.slice(0, 200), next, failed: token.length === 0 }, { headers: noStore });
}
