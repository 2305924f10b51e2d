import { redirect, type AppLoadContext } from "@remix-run/node";
import { anonymise } from "~/features/demo-mode/demo-mode";
import { createApiClient, type ApiClient } from "./api-client.server";
import { apiBaseUrl, getConfig } from "./config.server";
import { loginRedirectUrl } from "./safe-redirect";
import { destroySession, getSession } from "./session.server";

/**
 * The api client for the signed-in user of this request: the upstream session cookie, the request's abort
 * signal plus the upstream timeout, a 401 that clears the session and sends the user to login, and, while
 * the user has demo mode on, the anonymisation of every answer (rule demo-mode-anonymisation, ADR 7).
 * Pass the load context: the shell's and the page's loaders then share identical GETs (one upstream call).
 */
export async function getApi(request: Request, context?: AppLoadContext): Promise<ApiClient> {
  const session = await getSession(request);
  const cfg = getConfig();
  return createApiClient({
    baseUrl: apiBaseUrl(cfg),
    apiSession: session.get("apiSession"),
    signal: request.signal,
    timeoutMs: cfg.UPSTREAM_TIMEOUT_MS,
    shared: context?.upstream,
    transform: session.get("user")?.isDemoMode ? anonymise : undefined,
    onUnauthorized: async () => {
      const cookie = await destroySession(session);
      throw redirect(loginRedirectUrl(request.url), { headers: { "Set-Cookie": cookie } });
    },
  });
}

/** The api client without a user session (login, token and public pages). */
export function getPublicApi(request?: Request): ApiClient {
  const cfg = getConfig();
  return createApiClient({
    baseUrl: apiBaseUrl(cfg),
    signal: request?.signal,
    timeoutMs: cfg.UPSTREAM_TIMEOUT_MS,
  });
}
