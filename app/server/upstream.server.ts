import { redirect } from "@remix-run/node";
import { createApiClient, type ApiClient } from "./api-client.server";
import { ApiError } from "./api-error";
import { toQueryString } from "./casing";
import { apiBaseUrl, getConfig } from "./config.server";
import { loginRedirectUrl } from "./safe-redirect";
import { destroySession, getSession, type SessionUser } from "./session.server";

type Transform = (body: unknown, user: SessionUser | undefined) => unknown;
const transforms: Transform[] = [];

/** Registers a server-side transform of every upstream answer for this user (demo-mode anonymisation). */
export function registerUpstreamTransform(t: Transform) {
  transforms.push(t);
}

const timings = new WeakMap<Request, { label: string; ms: number }[]>();

/** Upstream call durations for a request, for the Server-Timing header. */
export const upstreamTimings = (request: Request) => timings.get(request) ?? [];

function recordTiming(request: Request) {
  return (label: string, ms: number) => {
    const list = timings.get(request) ?? [];
    list.push({ label, ms });
    timings.set(request, list);
  };
}

const sameRequestGets = new WeakMap<Request, Map<string, Promise<unknown>>>();

/**
 * Identical GETs within one request (the shell and the page both list the buildings) share one upstream
 * call; each caller still validates the answer with its own schema.
 */
function dedupeGets(request: Request, client: ApiClient): ApiClient {
  const memo = sameRequestGets.get(request) ?? new Map<string, Promise<unknown>>();
  sameRequestGets.set(request, memo);
  const get = client.get;
  const shared: ApiClient["get"] = (path, options) => {
    const key = `${path}${toQueryString(options?.query)}`;
    let pending = memo.get(key);
    if (!pending) {
      pending = get(path, { query: options?.query });
      memo.set(key, pending);
      pending.catch(() => memo.delete(key));
    }
    return pending.then((body) => {
      if (!options?.schema) return body;
      const parsed = options.schema.safeParse(body);
      if (!parsed.success) throw new ApiError("The server answered in an unexpected format", "contract", 502);
      return parsed.data;
    }) as ReturnType<ApiClient["get"]>;
  };
  return { ...client, get: shared };
}

/**
 * The api client for the signed-in user of this request: the upstream session cookie, the request's abort
 * signal plus the upstream timeout, and a 401 that clears the session and sends the user to login.
 */
export async function getApi(request: Request): Promise<ApiClient> {
  const session = await getSession(request);
  const cfg = getConfig();
  const client = createApiClient({
    baseUrl: apiBaseUrl(cfg),
    apiSession: session.get("apiSession"),
    signal: request.signal,
    timeoutMs: cfg.UPSTREAM_TIMEOUT_MS,
    onTiming: recordTiming(request),
    transform: transforms.length ? (body) => transforms.reduce((b, t) => t(b, session.get("user")), body) : undefined,
    onUnauthorized: async () => {
      const cookie = await destroySession(session);
      throw redirect(loginRedirectUrl(request.url), { headers: { "Set-Cookie": cookie } });
    },
  });
  return dedupeGets(request, client);
}

/** The api client without a user session (login, token and public pages). */
export function getPublicApi(request?: Request): ApiClient {
  const cfg = getConfig();
  return createApiClient({
    baseUrl: apiBaseUrl(cfg),
    signal: request?.signal,
    timeoutMs: cfg.UPSTREAM_TIMEOUT_MS,
    onTiming: request ? recordTiming(request) : undefined,
  });
}
