import { data, redirect, type AppLoadContext } from "@remix-run/node";
import { z } from "zod/v4";
import { anonymise, hasProviderStandIn, restoreProviderIds } from "./demo-mode";
import { createApiClient, type ApiClient, type OutgoingCall } from "./api-client.server";
import type { ApiError } from "./api-error";
import { apiBaseUrl, getConfig } from "~/server/config.server";
import { upstreamObservers } from "~/server/ops/metrics.server";
import { REQUEST_ID_HEADER } from "~/server/http/request-id.server";
import { loginRedirectUrl } from "~/server/safe-redirect";
import { reportUpstreamFailure, setReportingUser } from "~/server/ops/sentry.server";
import { destroySession, getSession } from "./session.server";

/**
 * The api client for the signed-in user of this request: the upstream session cookie, the request's abort
 * signal plus the upstream timeout, a 401 that clears the session and sends the user to login, and, while
 * the user has demo mode on, the anonymisation of every answer (rule demo-mode-anonymisation, ADR 7).
 * Pass the load context: the shell's and the page's loaders then share identical GETs (one upstream call).
 */
export async function getApi(
  request: Request,
  context?: AppLoadContext,
  /** The form submission the calls are made for: every write carries it as `Idempotency-Key` (ADR 0010). */
  { submissionId }: { submissionId?: string | null } = {},
): Promise<ApiClient> {
  const session = await getSession(request);
  const cfg = getConfig();
  // The request log names the user (server.ts reads it from the load context).
  if (context) context.userId ??= session.get("user")?.id;
  setReportingUser(session.get("user"));
  const demoMode = session.get("user")?.isDemoMode === true;
  return createApiClient({
    ...upstreamObservers(request.headers.get(REQUEST_ID_HEADER)),
    baseUrl: apiBaseUrl(cfg),
    apiSession: session.get("apiSession"),
    signal: request.signal,
    timeoutMs: cfg.UPSTREAM_TIMEOUT_MS,
    shared: context?.upstream,
    transform: demoMode ? anonymise : undefined,
    restore: demoMode ? (call) => restoreRealProviderIds(call, request) : undefined,
    submissionId: submissionId ?? undefined,
    onUnauthorized: async () => {
      const cookie = await destroySession(session);
      throw redirect(loginRedirectUrl(request.url), { headers: { "Set-Cookie": cookie } });
    },
  });
}

// Only the provider ids of the public utility catalogue are read here (built once: see settings.server.ts).
const providerCatalogue = z.object({ items: z.array(z.object({ arcadiaProviderId: z.string() })) });

/**
 * Demo mode's way back (rule demo-mode-anonymisation): a call that carries a provider id stand-in (the
 * connect flow's `?utility=` or hidden field) gets the real id from the public utility catalogue, read
 * without demo mode. Only such calls pay for that read; any other goes out untouched.
 */
async function restoreRealProviderIds(call: OutgoingCall, request: Request): Promise<OutgoingCall> {
  if (!hasProviderStandIn(call)) return call;
  const { items } = await getPublicApi(request).get("/arcadia-utilities", { schema: providerCatalogue });
  return restoreProviderIds(
    call,
    items.map((u) => u.arcadiaProviderId),
  );
}

/**
 * Ends an upstream session the web tier will not keep (a sign-in it refuses, a session it ends): its token is
 * revoked upstream. A failure is ignored: the web session that held it is gone either way.
 */
export async function revokeUpstreamSession(request: Request, apiSession: string) {
  const cfg = getConfig();
  await createApiClient({
    ...upstreamObservers(request.headers.get(REQUEST_ID_HEADER)),
    baseUrl: apiBaseUrl(cfg),
    apiSession,
    signal: request.signal,
    timeoutMs: cfg.UPSTREAM_TIMEOUT_MS,
  })
    .post("/auth/logout")
    .catch(() => undefined);
}

/** The api client without a user session (login, token and public pages). */
export function getPublicApi(request?: Request): ApiClient {
  const cfg = getConfig();
  return createApiClient({
    ...upstreamObservers(request?.headers.get(REQUEST_ID_HEADER)),
    baseUrl: apiBaseUrl(cfg),
    signal: request?.signal,
    timeoutMs: cfg.UPSTREAM_TIMEOUT_MS,
  });
}

/** What a page's primary upstream call came to: a `settle` result, or a loader's own ok/error pair. */
export type PrimaryOutcome = { ok: true } | { ok: false; error: ApiError } | null | undefined;

/**
 * The HTTP status of a page whose primary data failed (ADR 0009): a refusal the upstream answered with a 4xx
 * (403, 404, 409, 422 …) keeps that status; anything else (5xx, no answer, a time-out, an answer that is not the
 * contract: malformed, empty, `errMsg`; an upstream 401 or 429 on a call without a user) is an outage: 502.
 * Every failure that comes here becomes a page's or action's error state, so it is reported here (once;
 * sentry.server.ts leaves out 'Forbidden', 'Object Not Found Matching Id' and aborted calls).
 */
export function failureStatus(error: ApiError): number {
  reportUpstreamFailure(error);
  const s = error.status;
  return s >= 400 && s < 500 && s !== 401 && s !== 429 ? s : 502;
}

/** 200 when every primary outcome succeeded, otherwise the `failureStatus` of the first that failed. */
export function primaryStatus(...primary: PrimaryOutcome[]): number {
  for (const p of primary) if (p && !p.ok) return failureStatus(p.error);
  return 200;
}

/**
 * A loader's answer with the status of its primary data: `return withPrimaryStatus(body, list)`. The page's
 * HTML is the same (its in-page error state); document and `.data` requests both carry the status, so a
 * monitor sees an upstream outage. Secondary data (one card, a banner, the shell's menus) is not passed here.
 */
export function withPrimaryStatus<T>(body: T, ...primary: PrimaryOutcome[]) {
  return data(body, { status: primaryStatus(...primary) });
}
