import http from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { UpstreamCallReport } from "~/server/upstream/api-client.server";
import { getConfig } from "~/server/config.server";
import type { DropReason } from "./report-limit";

/**
 * Prometheus metrics of the web tier (docs/operations.md lists each one). Labels are always from a bounded
 * set: a Remix route id (never the raw path), an upstream endpoint template (never a raw id), a limiter's name.
 * server.ts and the Remix build are two bundles that both import this module, so the registry lives on
 * globalThis: one per process, whichever bundle records first.
 */

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const method = (m: string) => (METHODS.has(m.toUpperCase()) ? m.toUpperCase() : "other");

export type UpstreamOutcome = number | "timeout" | "network" | "aborted" | "invalid";
export type ShedReason = "in_flight" | "event_loop";
export type RedisFallbackStore = "rate_limit" | "idempotency";

export function createMetrics() {
  const registry = new Registry();
  // Event-loop delay (nodejs_eventloop_lag_*), heap and RSS (process_resident_memory_bytes), GC, handles.
  collectDefaultMetrics({ register: registry });
  let inFlight: (() => number) | undefined;
  const httpDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival to its last byte, by Remix route id, method and status.",
    labelNames: ["route", "method", "status"] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: "http_requests_in_flight",
    help: "Requests being answered now (the load shedder's count).",
    registers: [registry],
    collect() {
      this.set(inFlight?.() ?? 0);
    },
  });
  const upstreamDuration = new Histogram({
    name: "upstream_request_duration_seconds",
    help: "Upstream api calls, from the request to the whole answer read, by endpoint template, method and status (or timeout, network, aborted, invalid).",
    labelNames: ["endpoint", "method", "status"] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const upstreamFailures = new Counter({
    name: "upstream_request_failures_total",
    help: "Upstream api calls that failed: no answer in time (timeout), no answer (network), a 5xx, or an answer that breaks the contract (invalid).",
    labelNames: ["endpoint", "method", "reason"] as const,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: "rate_limit_refusals_total",
    help: "Requests refused by a rate limit, by limiter.",
    labelNames: ["limiter"] as const,
    registers: [registry],
  });
  const shed = new Counter({
    name: "load_shed_total",
    help: "Requests answered 503 at once by the load shedder, by reason (in_flight, event_loop).",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  const redisFallbacks = new Counter({
    name: "redis_fallbacks_total",
    help: "Rate-limit and idempotency operations answered from this instance's memory because Redis was unavailable, by store.",
    labelNames: ["store"] as const,
    registers: [registry],
  });
  let redisTracked = false;
  // Every series of the bounded label sets that are known up front exists from the start (at zero).
  for (const reason of ["in_flight", "event_loop"]) shed.labels(reason).inc(0);
  for (const store of ["rate_limit", "idempotency"]) redisFallbacks.labels(store).inc(0);
  const reportsDropped = new Counter({
    name: "error_reports_dropped_total",
    help: "Error reports not sent because too many went out this minute: of their kind (kind), or of all kinds (total).",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  for (const reason of ["kind", "total"]) reportsDropped.labels(reason).inc(0);

  return {
    registry,
    setInFlightSource: (fn: () => number) => void (inFlight = fn),
    httpRequest(route: string, httpMethod: string, status: number, seconds: number) {
      httpDuration.labels(route, method(httpMethod), String(status)).observe(seconds);
    },
    upstreamCall(path: string, httpMethod: string, outcome: UpstreamOutcome, seconds: number) {
      const endpoint = endpointTemplate(path);
      const m = method(httpMethod);
      upstreamDuration.labels(endpoint, m, String(outcome)).observe(seconds);
      const reason =
        typeof outcome === "number"
          ? outcome >= 500
            ? "5xx"
            : null
          : outcome === "aborted"
            ? null
            : outcome;
      if (reason) upstreamFailures.labels(endpoint, m, reason).inc();
    },
    rateLimitRefusal: (limiter: string) => rateLimited.labels(limiter).inc(),
    loadShed: (reason: ShedReason) => shed.labels(reason).inc(),
    /** With REDIS_URL only: the redis_up gauge, read from the connection's state at each scrape. */
    trackRedis(isUp: () => boolean) {
      if (redisTracked) return;
      redisTracked = true;
      new Gauge({
        name: "redis_up",
        help: "1 while Redis answers, 0 while it is unreachable or does not answer in time (limits and idempotency are then per instance).",
        registers: [registry],
        collect() {
          this.set(isUp() ? 1 : 0);
        },
      });
    },
    redisFallback: (store: RedisFallbackStore) => redisFallbacks.labels(store).inc(),
    errorReportDropped: (reason: DropReason) => reportsDropped.labels(reason).inc(),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const KEY = Symbol.for("energyops.metrics");
type WithMetrics = typeof globalThis & { [KEY]?: Metrics | null };

/** The process's metrics, or null when they are off (METRICS_PORT unset): then recording costs nothing. */
export function getMetrics(): Metrics | null {
  const g = globalThis as WithMetrics;
  if (g[KEY] === undefined) g[KEY] = getConfig().METRICS_PORT ? createMetrics() : null;
  return g[KEY];
}

/** What every upstream client of a request carries: the request's id, and the metrics hook when metrics are on. */
export function upstreamObservers(requestId: string | null | undefined) {
  const metrics = getMetrics();
  return {
    requestId: requestId ?? undefined,
    onCall: metrics
      ? (c: UpstreamCallReport) => metrics.upstreamCall(c.path, c.method, c.outcome, c.seconds)
      : undefined,
  };
}

/**
 * An upstream path as a template: each segment that is not a plain word becomes a placeholder, so neither ids nor
 * emails ever become label values. `/building/105/bill-statements?page=2` → `/building/:id/bill-statements`,
 * `/users/dana%40example.test/login-options` → `/users/:email/login-options`, `/override-report/7/2024-01-01/…`
 * → `/override-report/:id/:date/…`.
 */
export function endpointTemplate(path: string): string {
  const pathname = path.split(/[?#]/, 1)[0];
  const segments = pathname.split("/").map((segment) => {
    if (segment === "") return segment;
    if (/^\d+$/.test(segment)) return ":id";
    if (/^\d{4}-\d{2}-\d{2}/.test(segment)) return ":date";
    if (/@|%40/i.test(segment)) return ":email";
    if (/^[A-Za-z][A-Za-z_-]{0,39}$/.test(segment)) return segment;
    return ":param";
  });
  return segments.join("/") || "/";
}

type Branch = { id: string; regex: RegExp; score: number; indexes: number[]; order: number };

const PARAM = /^:[\w-]+$/;
/** React Router's rank of a route path (its `computeScore`): static segments outrank params, index routes gain. */
function score(path: string, index: boolean | undefined) {
  const segments = path.split("/");
  let total = segments.length;
  if (segments.includes("*")) total -= 2;
  if (index) total += 2;
  for (const s of segments) if (s !== "*") total += PARAM.test(s) ? 3 : s === "" ? 1 : 10;
  return total;
}

/** React Router's `explodeOptionalSegments`: `a/:b?/c` → `a/:b/c`, `a/c` (each optional segment present, then absent). */
function explode(path: string): string[] {
  const segments = path.split("/");
  if (segments.length === 0) return [];
  const [first, ...rest] = segments;
  const optional = first.endsWith("?");
  const required = first.replace(/\?$/, "");
  if (rest.length === 0) return optional ? [required, ""] : [required];
  const restExploded = explode(rest.join("/"));
  const result: string[] = [];
  for (const sub of restExploded) result.push(sub === "" ? required : [required, sub].join("/"));
  if (optional) result.push(...restExploded);
  return result.map((p) => (path.startsWith("/") && p === "" ? "/" : p));
}

/** A path without its trailing `*` and slashes (React Router's `/\/*\*?$/`, written as a scan from the end). */
function withoutTrailingSplat(path: string) {
  let end = path.endsWith("*") ? path.length - 1 : path.length;
  while (end > 0 && path[end - 1] === "/") end--;
  return path.slice(0, end);
}

/** React Router's `compilePath` for a whole branch path, matched to the end. */
function compile(path: string, caseSensitive: boolean) {
  let source =
    "^" +
    withoutTrailingSplat(path)
      .replace(/^\/*/, "/")
      .replace(/[\\.*+^${}|()[\]]/g, "\\$&")
      .replace(/\/:[\w-]+(\?)?/g, (_m, optional: string) => (optional ? "(?:/([^\\/]+))?" : "/([^\\/]+)"));
  if (path.endsWith("*")) source += path === "*" || path === "/*" ? "(.*)$" : "(?:\\/(.+)|\\/*)$";
  else source += "\\/*$";
  return new RegExp(source, caseSensitive ? undefined : "i");
}

/**
 * The Remix route id that answers a path (the deepest match, as Remix matches it; `.data` requests of single
 * fetch count as their page), or a fixed label: `static` (build assets, files of public/), `healthz`, `readyz`,
 * `api-download` (the /api passthrough) or `unmatched` (no route matched).
 * React Router's matchRoutes flattens, ranks and compiles the whole route tree on every call (about a millisecond
 * here); this labeler does that once, as React Router does it (flatten, explode optional segments, rank by score
 * then sibling order), and matches a path against the ranked, compiled branches: microseconds, no cache to bound.
 */
export function createRouteLabeler(routes: ServerBuild["routes"], isStatic: (path: string) => boolean) {
  const manifest = Object.values(routes);
  const branches: Branch[] = [];
  const flatten = (
    parentId: string | undefined,
    parentPath: string,
    indexes: number[],
    caseSensitive: boolean,
  ) => {
    manifest
      .filter((r) => r.parentId === parentId)
      .forEach((r, i) => {
        const relative = r.path ?? "";
        const path = relative.startsWith("/")
          ? relative
          : [parentPath, relative].join("/").replace(/\/\/+/g, "/");
        const chain = [...indexes, i];
        const cs = caseSensitive || r.caseSensitive === true;
        flatten(r.id, path, chain, cs);
        if (r.path == null && !r.index) return;
        const variants =
          relative === "" || !relative.includes("?")
            ? [path]
            : explode(relative).map((v) => [parentPath, v].join("/").replace(/\/\/+/g, "/"));
        for (const v of variants)
          branches.push({
            id: r.id,
            regex: compile(v, cs),
            score: score(v, r.index),
            indexes: chain,
            order: branches.length,
          });
      });
  };
  flatten(undefined, "", [], false);
  const siblings = (a: number[], b: number[]) =>
    a.length === b.length && a.slice(0, -1).every((n, i) => n === b[i])
      ? a[a.length - 1] - b[b.length - 1]
      : 0;
  branches.sort((a, b) =>
    a.score !== b.score ? b.score - a.score : siblings(a.indexes, b.indexes) || a.order - b.order,
  );

  return (path: string): string => {
    if (path === "/healthz" || path === "/readyz") return path.slice(1);
    if (path.startsWith("/api/")) return "api-download";
    if (isStatic(path)) return "static";
    const pagePath = path === "/_root.data" ? "/" : path.endsWith(".data") ? path.slice(0, -5) : path;
    let decoded = pagePath;
    try {
      decoded = pagePath
        .split("/")
        .map((v) => decodeURIComponent(v).replace(/\//g, "%2F"))
        .join("/");
    } catch {
      /* a malformed escape: matched as it came, as React Router does */
    }
    for (const b of branches) if (b.regex.test(decoded)) return b.id;
    return "unmatched";
  };
}

/**
 * The metrics endpoint on its own listener (METRICS_HOST:METRICS_PORT): GET /metrics in the Prometheus text
 * format; everything else 404. The main port never serves it.
 */
export function startMetricsServer(metrics: Metrics, host: string, port: number) {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?", 1)[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not Found");
      return;
    }
    metrics.registry.metrics().then(
      (body) => {
        res.writeHead(200, { "Content-Type": metrics.registry.contentType, "Cache-Control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      () => res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("metrics failed"),
    );
  });
  server.listen(port, host);
  return server;
}
