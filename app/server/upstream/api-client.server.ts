import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { ApiError, errorFromResponse, isApiError } from "./api-error";
import { keysToCamel, keysToSnake, toCamel, toQueryString, type QueryValue } from "./casing";
import { upstreamFetch, type UpstreamAnswer, type UpstreamFetch } from "./upstream-transport.server";

export type ApiClientOptions = {
  baseUrl: string;
  /** The upstream session cookie value (`api_session`). */
  apiSession?: string;
  /** The incoming request's abort signal: a closed browser cancels the upstream call. */
  signal?: AbortSignal;
  timeoutMs: number;
  /** Called on a 401; it should throw (a redirect to login). If it returns, an ApiError is thrown. */
  onUnauthorized?: () => Promise<void> | void;
  /** Applied to every converted JSON answer (demo-mode anonymisation). */
  transform?: (body: unknown) => unknown;
  /**
   * Applied to every call's query and body before it is sent: `transform`'s way back (demo mode turns the
   * provider id stand-ins a page sends back into real ids).
   */
  restore?: (call: OutgoingCall) => OutgoingCall | Promise<OutgoingCall>;
  /** A `fetch` to use instead of the upstream transport (upstream-transport.server.ts), for every call (tests). */
  fetchImpl?: typeof fetch;
  /**
   * One map per incoming request (the load context): identical GETs made by that request's loaders share one
   * upstream call. Any other method clears it, so a loader after an action never sees pre-mutation data.
   */
  shared?: Map<string, Promise<unknown>>;
  /** The incoming request's id (request-id.server.ts): sent upstream as `X-Request-Id` on every call. */
  requestId?: string;
  /** Told of every call once it ends: its outcome and how long it took (the metrics). */
  onCall?: (call: UpstreamCallReport) => void;
  /**
   * The form submission this client works for (`idempotentAction`, ADR 0010): every write (not GET) carries it
   * as `Idempotency-Key`, so the api answers a resent submission with its first answer instead of acting again.
   */
  submissionId?: string;
};

/** What a call sends: its query (GET) and its body (other methods). */
export type OutgoingCall = { query?: Record<string, QueryValue>; body?: unknown };

/** One upstream call as reported to `onCall`: the answer's status, or how it failed without a usable one. */
export type UpstreamCallReport = {
  method: string;
  path: string;
  /** The HTTP status; or no answer (`timeout`, `network`, `aborted`), or an answer that breaks the contract (`invalid`). */
  outcome: number | "timeout" | "network" | "aborted" | "invalid";
  seconds: number;
};

const INVALID_KINDS = new Set(["unparseable", "empty-body", "errmsg"]);

/**
 * A number per schema object, for the shared map's keys: one built per call never matches, so build them once,
 * at module level.
 */
const objectIds = new WeakMap<object, number>();
let lastObjectId = 0;
function objectId(o: object) {
  let id = objectIds.get(o);
  if (id === undefined) objectIds.set(o, (id = ++lastObjectId));
  return id;
}

/**
 * What checks an answer against the contract: a zod schema. Most are zod 3 (the forms' Conform adapter needs
 * it); the long lists that grow with a client (locations.server.ts) use zod 4, which validates them about 3×
 * faster. Build a schema once, at module level: zod 4 compiles it on first use.
 */
type Schema = { safeParse(data: unknown): { success: boolean } };

type Options<S extends Schema | undefined> = {
  query?: Record<string, QueryValue>;
  body?: unknown;
  schema?: S;
  /**
   * The browser's address (the load context's `clientIp`), sent as `X-Forwarded-For` on this call: the api keys
   * its sign-in mail limits on who asked. Only the sign-in calls send it.
   */
  forwardedFor?: string;
};

/** What a call adds to its request besides query and body. */
type CallExtras = { forwardedFor?: string };

/**
 * A write's `Idempotency-Key`: the submission id, then a digest of the call (method, path, JSON body), as a
 * structured-field string (the IETF draft's form). The same submission sent again makes the same calls, so each
 * gets its first key back; a submission that makes several writes (a team-access save, one per location) gives
 * each its own; and a form changed after a failure under the same id is a new request with a new key, not a
 * reuse the api must refuse.
 */
export function idempotencyKey(submissionId: string, method: string, path: string, payload = "") {
  const digest = createHash("sha256").update(`${method} ${path} ${payload}`).digest("base64url").slice(0, 16);
  return `"${submissionId}.${digest}"`;
}

/**
 * No answer to a write: the request may have reached the api and been applied (the connection closed after it was
 * sent, the time-out), unless it failed while connecting (nothing was sent). `ApiError.maybeApplied` says so.
 */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);
function notSent(error: unknown) {
  const codes = [error, (error as { cause?: unknown } | null)?.cause].map(
    (e) => (e as { code?: unknown } | null)?.code,
  );
  return codes.some((c) => typeof c === "string" && NOT_SENT_CODES.has(c));
}
type Result<S> = S extends { safeParse(data: unknown): infer R }
  ? Extract<R, { success: true }> extends { data: infer T }
    ? T
    : never
  : unknown;

/**
 * One upstream call's abort signal: the upstream timeout and the incoming request's abort on one AbortController.
 * `AbortSignal.timeout` plus `AbortSignal.any` cost about four times as much per call on Node 20 and keep their
 * timer and listener until garbage collection; `release` clears both once the answer has been read.
 */
export function callSignal(timeoutMs: number, outer?: AbortSignal) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException("The upstream call timed out", "TimeoutError"));
  }, timeoutMs);
  timer.unref();
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    release() {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    },
  };
}

/**
 * The one upstream client (ARCHITECTURE.md): every convention of docs/api-contract.md (rule upstream-conventions).
 * GET sends only non-empty query parameters in snake_case; other methods send JSON in snake_case;
 * answers come back in camelCase unless `x-no-convert: true`; 204 gives null; every failure is an ApiError.
 */
export function createApiClient(opts: ApiClientOptions) {
  const { fetchImpl } = opts;
  const transport: UpstreamFetch = fetchImpl
    ? (url, init) => fetchImpl(url, { ...init, redirect: "manual" })
    : upstreamFetch;

  /**
   * A call's URL and request, every convention applied (snake_case query or JSON body, session, request id, the
   * browser's address when the call passes it).
   */
  function prepare(
    method: string,
    path: string,
    query?: Record<string, QueryValue>,
    body?: unknown,
    { forwardedFor }: CallExtras = {},
  ) {
    const url = `${opts.baseUrl.replace(/\/$/, "")}${path.startsWith("/") ? path : `/${path}`}${method === "GET" ? toQueryString(query) : ""}`;
    const headers: Record<string, string> = { accept: "application/json", "cache-control": "no-store" };
    if (opts.apiSession) headers.cookie = `api_session=${opts.apiSession}`;
    if (opts.requestId) headers["x-request-id"] = opts.requestId;
    // Only an address: anything else (the "unknown" of a request without a peer) says nothing worth passing on.
    if (forwardedFor && isIP(forwardedFor)) headers["x-forwarded-for"] = forwardedFor;
    let payload: string | undefined;
    if (method !== "GET" && method !== "HEAD" && body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(keysToSnake(body));
    }
    if (opts.submissionId && method !== "GET" && method !== "HEAD")
      headers["idempotency-key"] = idempotencyKey(opts.submissionId, method, path, payload);
    return { url, init: { method, headers, body: payload } };
  }

  /** Why a call got no answer, as an ApiError; a write's says whether it may have been applied all the same. */
  function noAnswer(call: ReturnType<typeof callSignal>, method: string, cause?: unknown) {
    call.release();
    const write = method !== "GET" && method !== "HEAD";
    let error: ApiError;
    if (call.timedOut()) error = new ApiError("The server took too long to answer", "timeout", 504);
    else if (opts.signal?.aborted) error = new ApiError("Request aborted", "aborted", 499);
    else error = new ApiError("Could not reach the server", "network", 502);
    error.maybeApplied = write && !notSent(cause);
    return error;
  }

  /** One call through the transport; `release` once its body has been read (or will not be). */
  async function send(
    method: string,
    path: string,
    query?: Record<string, QueryValue>,
    body?: unknown,
    extras?: CallExtras,
  ) {
    const { url, init } = prepare(method, path, query, body, extras);
    const call = callSignal(opts.timeoutMs, opts.signal);
    try {
      const res = await transport(url, { ...init, signal: call.signal });
      const release = () => {
        res.dispose?.();
        call.release();
      };
      return { res, release, url };
    } catch (error) {
      throw noAnswer(call, method, error);
    }
  }

  /** A file download: through `fetch`, whose Response body (a web stream) the caller passes on. */
  async function sendRaw(path: string) {
    const { url, init } = prepare("GET", path);
    const call = callSignal(opts.timeoutMs, opts.signal);
    try {
      return await (fetchImpl ?? fetch)(url, { ...init, signal: call.signal, redirect: "manual" });
    } catch (error) {
      throw noAnswer(call, "GET", error);
    }
  }

  /** Runs one call and reports it to `onCall`; `status` is set by the call as soon as the answer's headers arrive. */
  async function observed<T>(
    method: string,
    path: string,
    run: (got: <R extends UpstreamAnswer>(res: R) => R) => Promise<T>,
  ): Promise<T> {
    const onCall = opts.onCall;
    if (!onCall) return run((res) => res);
    const started = performance.now();
    let status: number | undefined;
    const report = (outcome: UpstreamCallReport["outcome"]) =>
      onCall({ method, path, outcome, seconds: (performance.now() - started) / 1000 });
    try {
      const result = await run((res) => ((status = res.status), res));
      report(status ?? 200);
      return result;
    } catch (error) {
      if (
        isApiError(error) &&
        (error.kind === "timeout" || error.kind === "network" || error.kind === "aborted")
      )
        report(error.kind);
      else if (isApiError(error) && INVALID_KINDS.has(error.kind)) report("invalid");
      else report(status ?? (isApiError(error) ? error.status : 502));
      throw error;
    }
  }

  /** The answer's body; lost on the way (the connection closed mid-body), a write's 2xx was applied. */
  async function readText(res: UpstreamAnswer, method = "GET") {
    try {
      return await res.text();
    } catch {
      const error = new ApiError("Could not reach the server", "network", 502);
      error.maybeApplied = res.ok && method !== "GET" && method !== "HEAD";
      throw error;
    }
  }

  /** One call: the converted (and transformed) answer, before any schema. */
  async function fetchData(
    method: string,
    path: string,
    query?: Record<string, QueryValue>,
    body?: unknown,
    extras?: CallExtras,
  ): Promise<unknown> {
    return observed(method, path, async (got) => {
      const { res, release } = await send(method, path, query, body, extras);
      try {
        return await readData(got(res), method);
      } finally {
        release();
      }
    });
  }

  /** The answer's data. */
  async function readData(res: UpstreamAnswer, method = "GET"): Promise<unknown> {
    if (!res.ok) {
      const text = await readText(res);
      if (res.status === 401) {
        await opts.onUnauthorized?.();
        throw new ApiError("Your session has expired", "unauthorized", 401);
      }
      throw errorFromResponse(res.status, text, toCamel);
    }
    if (res.status === 204) return null;
    const noConvert = res.headers.get("x-no-convert") === "true";
    const isJson = (res.headers.get("content-type") ?? "").includes("json");
    const text = await readText(res, method);
    if (!text.trim()) throw new ApiError("Got empty body", "empty-body", res.status);
    if (noConvert && !isJson) return text;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ApiError("Could not parse API response", "unparseable", res.status);
    }
    if (parsed && typeof parsed === "object" && "errMsg" in parsed && typeof parsed.errMsg === "string") {
      throw new ApiError(parsed.errMsg, "errmsg", res.status);
    }
    let data = noConvert ? parsed : keysToCamel(parsed);
    if (opts.transform) data = opts.transform(data);
    return data;
  }

  /** `make()`'s promise under `key` in the request's shared map, made once; a failure is not kept. */
  function once(shared: Map<string, Promise<unknown>>, key: string, make: () => Promise<unknown>) {
    let pending = shared.get(key);
    if (!pending) {
      const call = make();
      pending = call;
      shared.set(key, call);
      // A failed call is not shared with later loaders: they try again.
      call.catch(() => shared.get(key) === call && shared.delete(key));
    }
    return pending;
  }

  const sharedKey = (path: string, query?: Record<string, QueryValue>) =>
    `${opts.apiSession ?? ""} ${path}${toQueryString(query)}`;

  function sharedGet(path: string, query?: Record<string, QueryValue>) {
    const shared = opts.shared;
    if (!shared) return fetchData("GET", path, query);
    return once(shared, sharedKey(path, query), () => fetchData("GET", path, query));
  }

  function validate<S extends Schema>(schema: S, data: unknown): Result<S> {
    const result = schema.safeParse(data) as { success: true; data: Result<S> } | { success: false };
    if (!result.success) throw new ApiError("The server answered in an unexpected format", "contract", 502);
    return result.data;
  }

  async function request<S extends Schema | undefined = undefined>(
    method: string,
    path: string,
    options: Options<S> = {},
  ): Promise<Result<S>> {
    const { schema } = options;
    let { query, body } = options;
    if (opts.restore) ({ query, body } = await opts.restore({ query, body }));
    const shared = opts.shared;
    // The same answer read through the same schema by two loaders of one request is validated once, and
    // both get the same parsed value (read it, never change it: sort or filter into a new array).
    if (method === "GET" && schema && shared)
      return once(shared, `${sharedKey(path, query)} #${objectId(schema)}`, async () =>
        validate(schema, await sharedGet(path, query)),
      ) as Promise<Result<S>>;
    let data: unknown;
    if (method === "GET") data = await sharedGet(path, query);
    else {
      shared?.clear();
      data = await fetchData(method, path, query, body, options);
    }
    if (schema) return validate(schema, data);
    // Without a schema the answer may be shared with another loader: hand out a copy then.
    return (opts.shared && data && typeof data === "object" ? structuredClone(data) : data) as Result<S>;
  }

  return {
    get: <S extends Schema | undefined = undefined>(
      path: string,
      o?: Omit<Options<S>, "body" | "forwardedFor">,
    ) => request("GET", path, o),
    post: <S extends Schema | undefined = undefined>(path: string, o?: Options<S>) =>
      request("POST", path, o),
    put: <S extends Schema | undefined = undefined>(path: string, o?: Options<S>) => request("PUT", path, o),
    patch: <S extends Schema | undefined = undefined>(path: string, o?: Options<S>) =>
      request("PATCH", path, o),
    delete: <S extends Schema | undefined = undefined>(path: string, o?: Options<S>) =>
      request("DELETE", path, o),
    /** The raw upstream Response (file downloads). Errors still become ApiErrors. */
    raw(path: string) {
      return observed("GET", path, async (got) => {
        // The timeout keeps running while the caller streams the body on (as a download's limit).
        const res = got(await sendRaw(path));
        if (res.status === 401) {
          await opts.onUnauthorized?.();
          throw new ApiError("Your session has expired", "unauthorized", 401);
        }
        if (!res.ok) throw errorFromResponse(res.status, await readText(res), toCamel);
        return res;
      });
    },
    /** Reads a Set-Cookie api_session from an answer (login endpoints). */
    async withSessionCookie<S extends Schema | undefined = undefined>(
      method: string,
      path: string,
      o?: Options<S>,
    ) {
      if (method !== "GET") opts.shared?.clear();
      const { res, data: parsedData } = await observed(method, path, async (got) => {
        const sent = await send(method, path, o?.query, o?.body, o);
        const res = got(sent.res);
        const text = await readText(res).finally(sent.release);
        if (!res.ok) throw errorFromResponse(res.status, text, toCamel);
        if (!text.trim()) throw new ApiError("Got empty body", "empty-body", res.status);
        try {
          return { res, data: keysToCamel(JSON.parse(text)) as unknown };
        } catch {
          throw new ApiError("Could not parse API response", "unparseable", res.status);
        }
      });
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith("api_session="));
      const apiSession = cookie?.split(";")[0].slice("api_session=".length);
      const data: unknown = o?.schema ? validate(o.schema, parsedData) : parsedData;
      return { data: data as Result<S>, apiSession };
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
