import { AsyncLocalStorage } from "node:async_hooks";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type * as SentrySdk from "@sentry/node";
import type { Config } from "~/server/config.server";
import { getLogger } from "./logger.server";
import { getMetrics } from "./metrics.server";
import { createReportLimiter } from "./report-limit";
import { MAX_PATH, pathTag, scrubEvent, scrubTag, stripQuery } from "./sentry-scrub.server";

/**
 * Error reporting: unexpected server errors, upstream failures a page turns into its error state, and
 * browser errors (forwarded by the BFF, see sentry-browser.server.ts) go to a Sentry-compatible service through
 * `@sentry/node`. Off unless SENTRY_DSN is set; unset, the SDK is not even loaded and nothing touches the network.
 *
 * The web server and the Remix build are two bundles that both import this module, so what must be shared (the
 * per-request scope) lives on `globalThis`; the Sentry client itself is global in the SDK already.
 */

/** What an event may say about the request it happened in (never headers, cookies or the query string). */
type RequestScope = {
  method: string;
  path: string;
  /** The Remix route id (or fixed label) of the path, what a kind of failure is grouped by: read when reporting. */
  route: () => string | undefined;
  /** Read when an event is captured: the request-id middleware may run after the scope is entered. */
  requestId: () => string | undefined;
  userId?: number;
  clientId?: number;
};

const SCOPE_KEY = Symbol.for("energyops.error-reporting.request-scope");
const SDK_KEY = Symbol.for("energyops.error-reporting.sdk");
const LIMIT_KEY = Symbol.for("energyops.error-reporting.limit");
const shared = globalThis as typeof globalThis & {
  [SCOPE_KEY]?: AsyncLocalStorage<RequestScope>;
  /** The SDK, loaded by `initErrorReporting` only when a DSN is set (it costs ~40 MB and seconds to load). */
  [SDK_KEY]?: typeof SentrySdk;
  /** How many reports may still go out (one per process, whichever bundle reports). */
  [LIMIT_KEY]?: { admit: (kind: string) => boolean };
};
const requests = (shared[SCOPE_KEY] ??= new AsyncLocalStorage<RequestScope>());

/** The started SDK, or undefined when reporting is off. */
function sdk() {
  const Sentry = shared[SDK_KEY];
  return Sentry?.getClient() ? Sentry : undefined;
}

export function reportingEnabled() {
  return sdk() !== undefined;
}

/**
 * The release: SENTRY_RELEASE (a deploy sets it, e.g. to the image's git sha), else `<name>@<version>` of
 * package.json when it has a version, else `<name>@<short git sha>` of the checkout, else `<name>@unknown`.
 */
export function releaseName(cfg: Pick<Config, "SENTRY_RELEASE">, cwd = process.cwd()) {
  if (cfg.SENTRY_RELEASE) return cfg.SENTRY_RELEASE;
  let name = "energyops-web";
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(cwd, "package.json"), "utf8")) as {
      name?: string;
      version?: string;
    };
    name = pkg.name ?? name;
    if (pkg.version) return `${name}@${pkg.version}`;
  } catch {
    /* no package.json: the sha, or unknown */
  }
  try {
    const sha = execFileSync("git", ["rev-parse", "--short=12", "HEAD"], {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 2000,
    }).trim();
    if (/^[0-9a-f]{7,40}$/.test(sha)) return `${name}@${sha}`;
  } catch {
    /* not a git checkout (a container image): set SENTRY_RELEASE */
  }
  return `${name}@unknown`;
}

/** Loads and starts the SDK when SENTRY_DSN is set (never otherwise); returns whether reporting is on. */
export async function initErrorReporting(cfg: Config): Promise<boolean> {
  if (!cfg.SENTRY_DSN) return false;
  const Sentry = await import("@sentry/node");
  shared[LIMIT_KEY] = reportLimit(cfg);
  Sentry.init({
    dsn: cfg.SENTRY_DSN,
    release: releaseName(cfg),
    environment: cfg.SENTRY_ENVIRONMENT ?? cfg.NODE_ENV,
    // The spec: every error, every session.
    sampleRate: 1,
    sendDefaultPii: false,
    // No tracing, no module patching: only what reporting needs (the app already has its own access log).
    // No dedupe either: two users meeting the same bug one after the other are two events (100 %).
    registerEsmLoaderHooks: false,
    defaultIntegrations: false,
    integrations: [
      Sentry.eventFiltersIntegration(),
      Sentry.functionToStringIntegration(),
      Sentry.linkedErrorsIntegration(),
      // Request isolation and release-health sessions for every request (100 %); never the request body.
      Sentry.httpServerIntegration({
        sessions: true,
        maxRequestBodySize: "none",
        sessionFlushingDelayMS: cfg.SENTRY_SESSION_FLUSH_MS,
      }),
      Sentry.onUncaughtExceptionIntegration(),
      Sentry.onUnhandledRejectionIntegration({ mode: "warn" }),
    ],
    maxBreadcrumbs: 0,
    beforeBreadcrumb: () => null,
    beforeSend: (event, hint) =>
      shouldReport(hint.originalException) && admittedBySdk(event) ? scrubEvent(event) : null,
    beforeSendTransaction: () => null,
  });
  shared[SDK_KEY] = Sentry;
  return true;
}

/**
 * The rate limit of reports (report-limit.ts): each dropped one is counted in the metrics, and the first of a
 * minute is logged, with its kind.
 */
function reportLimit(cfg: Pick<Config, "SENTRY_MAX_EVENTS_PER_KIND" | "SENTRY_MAX_EVENTS_PER_MINUTE">) {
  const limiter = createReportLimiter({
    perKind: cfg.SENTRY_MAX_EVENTS_PER_KIND,
    total: cfg.SENTRY_MAX_EVENTS_PER_MINUTE,
  });
  return {
    admit(kind: string) {
      const admission = limiter.admit(kind);
      if (admission.sent) return true;
      getMetrics()?.errorReportDropped(admission.reason);
      if (admission.firstDropInWindow)
        getLogger().warn(
          {
            kind: kind.slice(0, 300),
            reason: admission.reason,
            perKind: cfg.SENTRY_MAX_EVENTS_PER_KIND,
            perMinute: cfg.SENTRY_MAX_EVENTS_PER_MINUTE,
          },
          "error reports dropped: too many this minute (counted in error_reports_dropped_total)",
        );
      return false;
    },
  };
}

/** Whether a report of this kind may go out (always, before reporting starts). */
const admit = (kind: string) => shared[LIMIT_KEY]?.admit(kind) ?? true;

/** An error's type for its kind: the class name, or a Response's status. */
function errorType(error: unknown) {
  if (error instanceof Response) return `Response ${error.status}`;
  if (error && typeof error === "object") return String(error.constructor?.name ?? "Object").slice(0, 100);
  return typeof error;
}

/**
 * Events the SDK captured itself (an uncaught exception, an unhandled rejection) meet the limit in `beforeSend`;
 * the capture functions below tag theirs with `where` after the limit let them through.
 */
function admittedBySdk(event: SentrySdk.ErrorEvent) {
  if (event.tags?.where) return true;
  const ex = event.exception?.values?.[0];
  return admit(`sdk|${ex?.type ?? "message"}|${ex?.mechanism?.type ?? ""}`);
}

const NOT_REPORTED_MESSAGES = [/^Forbidden$/, /Object Not Found Matching Id/];

/**
 * The spec's rule and ours: 'Forbidden' and 'Object Not Found Matching Id' errors, aborted requests, 404s
 * and every other answer a route throws on purpose (a redirect, a 4xx) are not reported.
 */
export function shouldReport(error: unknown, aborted = false): boolean {
  if (aborted) return false;
  if (error === undefined || error === null) return true;
  if (error instanceof Response) return error.status >= 500;
  if (typeof error === "object") {
    const e = error as {
      status?: unknown;
      name?: unknown;
      message?: unknown;
      kind?: unknown;
    };
    // A thrown `data(…, { status })` or route error response: the route's own answer.
    if (e.constructor?.name === "ErrorResponseImpl" || e.constructor?.name === "DataWithResponseInit") {
      const r = e as { status?: number; init?: { status?: number } | null };
      const status = Number(r.status ?? r.init?.status ?? 0);
      return status >= 500;
    }
    if (e.name === "AbortError" || e.kind === "aborted") return false;
    if (e.kind === "forbidden" || (e.name === "ApiError" && (e.status === 403 || e.status === 404)))
      return false;
    if (typeof e.message === "string" && NOT_REPORTED_MESSAGES.some((re) => re.test(e.message as string)))
      return false;
  }
  if (typeof error === "string" && NOT_REPORTED_MESSAGES.some((re) => re.test(error))) return false;
  return true;
}

/** A path's route id (metrics.server.ts `createRouteLabeler`), or a fixed label. */
export type RouteOf = (path: string) => string;

/**
 * Express middleware: every later handler of this request captures events with its method, path, route and id.
 */
export function errorReportingScope(routeOf?: RouteOf) {
  return (
    req: { method: string; path: string; headers: Record<string, unknown> },
    _res: unknown,
    next: () => void,
  ) => {
    if (!reportingEnabled()) return next();
    requests.run(requestScope(req, routeOf), next);
  };
}

function requestScope(
  req: { method: string; path: string; headers: Record<string, unknown> },
  routeOf?: RouteOf,
): RequestScope {
  let route: string | undefined;
  return {
    method: req.method,
    path: req.path,
    route: () => (route ??= routeOf?.(req.path)),
    requestId: () => {
      const v = req.headers["x-request-id"];
      return typeof v === "string" ? v : undefined;
    },
  };
}

/** The signed-in user of this request, for its reports: the user id and client id only. */
export function setReportingUser(user: { id: number; clientId?: number | null } | null | undefined) {
  const scope = requests.getStore();
  if (!scope || !user) return;
  scope.userId = user.id;
  scope.clientId = user.clientId ?? undefined;
}

type Where = "loader-action-render" | "express" | "upstream" | "browser";

function applyScope(scope: SentrySdk.Scope, where: Where, request?: Request) {
  const current = requests.getStore();
  scope.setTag("where", where);
  const requestId = request?.headers.get("x-request-id") ?? current?.requestId();
  if (requestId) scope.setTag("request_id", scrubTag(requestId.slice(0, 128)));
  const method = request?.method ?? current?.method;
  const url = request ? new URL(request.url).pathname : current?.path;
  if (method && url) scope.setContext("request", { method, path: stripQuery(url) });
  if (url) scope.setTag("path", pathTag(url));
  const route = current?.route();
  if (route) scope.setTag("route", route);
  if (current?.userId !== undefined) scope.setUser({ id: String(current.userId) });
  if (current?.clientId !== undefined) scope.setTag("client_id", String(current.clientId));
}

/** Reports an unexpected server error (unless the rules above exclude it); the event id, or undefined. */
export function captureServerError(error: unknown, where: Where, request?: Request): string | undefined {
  const Sentry = sdk();
  if (!Sentry || !shouldReport(error, request?.signal.aborted)) return undefined;
  // No report, no reference: the fallback page shows none for a dropped one.
  if (!admit(`${where}|${errorType(error)}|${requests.getStore()?.route() ?? "unknown"}`)) return undefined;
  return Sentry.withScope((scope) => {
    applyScope(scope, where, request);
    return Sentry.captureException(error);
  });
}

const reportedUpstream = new WeakSet<object>();

/**
 * Reports an upstream failure a page or action turns into its error state (called where the failure becomes
 * the answer's status: `failureStatus`). Each failure once; the catalogue's message is the event's.
 */
export function reportUpstreamFailure(error: Error & { status?: number; kind?: string }): string | undefined {
  const Sentry = sdk();
  if (!Sentry || reportedUpstream.has(error)) return undefined;
  reportedUpstream.add(error);
  if (!shouldReport(error)) return undefined;
  // Grouped like the events themselves: an outage is one kind whatever pages meet it.
  if (!admit(`upstream|${error.kind ?? "unknown"}|${error.status ?? ""}`)) return undefined;
  return Sentry.withScope((scope) => {
    applyScope(scope, "upstream");
    scope.setTag("upstream_status", String(error.status ?? "none"));
    if (error.kind) scope.setTag("upstream_kind", error.kind);
    scope.setFingerprint(["upstream", error.kind ?? "unknown", String(error.status ?? "")]);
    return Sentry.captureException(error);
  });
}

/** An express error handler (after the Remix handler): reports, then lets express answer as before. */
/**
 * The status express's final handler answers an error with: its numeric `status` (else `statusCode`) when that
 * is a 4xx or 5xx, else 500. Express marks the errors a request causes this way (a path segment that is not
 * valid percent-encoding, `/x/%zz`, is a URIError with status 400).
 */
export function expressErrorStatus(error: unknown): number {
  if (error && typeof error === "object") {
    const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
    for (const s of [status, statusCode])
      if (typeof s === "number" && Number.isInteger(s) && s >= 400 && s < 600) return s;
  }
  return 500;
}

export function errorReportingExpressHandler(routeOf?: RouteOf) {
  return (
    error: unknown,
    req: { method: string; path: string; headers: Record<string, unknown> },
    res: { headersSent: boolean },
    next: (error: unknown) => void,
  ) => {
    // An error express answers with a 4xx was caused by the request, not by a fault of ours: not reported.
    if (reportingEnabled() && expressErrorStatus(error) >= 500)
      requests.run(requestScope(req, routeOf), () => captureServerError(error, "express"));
    next(error);
  };
}

/** What the browser listener sends (sentry-browser.server.ts checks it). */
export type BrowserErrorReport = {
  kind: "error" | "unhandledrejection" | "render";
  name?: string;
  message: string;
  stack?: string;
  page: string;
};

/** Forwards a browser error through the server SDK; the event id, or undefined when not reported. */
export function captureBrowserError(
  report: BrowserErrorReport,
  req: { method: string; path: string; headers: Record<string, unknown> },
  routeOf?: RouteOf,
): string | undefined {
  if (!reportingEnabled()) return undefined;
  if (!shouldReport({ message: report.message })) return undefined;
  const page = report.page.slice(0, MAX_PATH).split(/[?#]/, 1)[0];
  if (!admit(`browser|${(report.name || "Error").slice(0, 100)}|${routeOf?.(page) ?? "unknown"}`))
    return undefined;
  return requests.run(requestScope(req), () => captureBrowserEvent(report));
}

function captureBrowserEvent(report: BrowserErrorReport) {
  const Sentry = sdk();
  if (!Sentry) return undefined;
  return Sentry.withScope((scope) => {
    applyScope(scope, "browser");
    scope.setTag("runtime", "browser");
    scope.setTag("browser_event", report.kind);
    scope.setTag("page", pathTag(report.page));
    const frames = report.stack ? Sentry.defaultStackParser(report.stack) : [];
    return Sentry.captureEvent({
      level: "error",
      platform: "javascript",
      exception: {
        values: [
          {
            type: (report.name || "Error").slice(0, 100),
            value: report.message,
            stacktrace: frames.length ? { frames } : undefined,
            mechanism: { type: `browser.${report.kind}`, handled: false },
          },
        ],
      },
    });
  });
}

/** Waits until the queued reports are sent (shutdown, tests). */
export function flushErrorReports(timeoutMs = 2000) {
  return sdk()?.flush(timeoutMs) ?? Promise.resolve(true);
}
