import { redirect, type AppLoadContext } from "@remix-run/node";
import { createApiClient, type ApiClient } from "./api-client.server";
import { apiBaseUrl, getConfig } from "./config.server";
import { loginRedirectUrl } from "./safe-redirect";
import { destroySession, getSession, type SessionUser } from "./session.server";

type Transform = (body: unknown, user: SessionUser | undefined) => unknown;
const transforms: Transform[] = [];

/** Registers a server-side transform of every upstream answer for this user (demo-mode anonymisation). */
export function registerUpstreamTransform(t: Transform) {
  transforms.push(t);
}

/**
 * The api client for the signed-in user of this request: the upstream session cookie, the request's abort
 * signal plus the upstream timeout, and a 401 that clears the session and sends the user to login.
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
    transform: transforms.length ? (body) => transforms.reduce((b, t) => t(b, session.get("user")), body) : undefined,
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
