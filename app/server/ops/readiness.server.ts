import type { RequestHandler } from "express";

/** One dependency's state as `/readyz` reports it. */
export type CheckState = "ok" | "failing" | "skipped";

export type ReadinessReport = {
  /**
   * "degraded": everything answers but Redis; the instance serves with limits and idempotency in its own memory
   * (answered 200, see createReadiness).
   */
  status: "ready" | "degraded" | "not ready";
  /** Set once SIGTERM (or SIGINT) has begun the shutdown. */
  shuttingDown: boolean;
  checks: { api: CheckState; redis: CheckState };
  /** The failing checks' reasons, short and free of secrets (no URL, no credentials). */
  reasons?: string[];
};

export type ReadinessOptions = {
  /** The upstream /api base (API_URL, or the embedded api's URL). */
  apiUrl: () => string;
  /** Null when Redis answers, otherwise why not (short, no URL); undefined when REDIS_URL is unset. */
  checkRedis?: () => Promise<string | null>;
  /** Per check (upstream call, Redis ping). */
  timeoutMs?: number;
  /** A result is reused this long, so frequent probes from several balancers cost one upstream call. */
  cacheMs?: number;
  fetchImpl?: typeof fetch;
  now?: () => number;
};

const withTimeout = <T>(p: Promise<T>, ms: number, what: string) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });

/**
 * Readiness (`/readyz`), for load balancers and orchestrators; `/healthz` stays liveness (the process
 * answers). Ready means: no shutdown has begun, the upstream api answers (a cheap unauthenticated call:
 * `GET /user` without a session, any answer below 500 counts), and Redis answers a PING when REDIS_URL is set.
 * Checks run at most once per `cacheMs`, and concurrent probes share the check in progress.
 *
 * Redis failing alone is "degraded", answered 200: every instance shares the one Redis, so a 503 would take
 * the whole tier out of the load balancer at once, for a dependency the instances can do without (limits and
 * idempotency fall back to each instance's memory). The body says which check failed, for the operator.
 */
export function createReadiness(opts: ReadinessOptions) {
  const timeoutMs = opts.timeoutMs ?? 1000;
  const cacheMs = opts.cacheMs ?? 1000;
  const doFetch = opts.fetchImpl ?? fetch;
  const now = opts.now ?? Date.now;
  let shuttingDown = false;
  let cached: { at: number; report: Promise<ReadinessReport> } | undefined;

  async function checkApi(): Promise<string | null> {
    try {
      const url = `${opts.apiUrl().replace(/\/$/, "")}/user`;
      const res = await doFetch(url, {
        headers: { accept: "application/json" },
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body?.cancel();
      return res.status < 500 ? null : `api answered ${res.status}`;
    } catch (error) {
      const name = error instanceof Error ? error.name : "";
      return name === "TimeoutError" || name === "AbortError"
        ? `api did not answer within ${timeoutMs} ms`
        : "api unreachable";
    }
  }

  async function checkRedis(): Promise<string | null> {
    if (!opts.checkRedis) return null;
    try {
      return await withTimeout(opts.checkRedis(), timeoutMs, "redis");
    } catch (error) {
      return /did not answer/.test(String(error))
        ? `redis did not answer within ${timeoutMs} ms`
        : "redis unreachable";
    }
  }

  async function run(): Promise<ReadinessReport> {
    const [api, redis] = await Promise.all([checkApi(), checkRedis()]);
    const reasons = [api, redis].filter((r): r is string => r !== null);
    return {
      status: api ? "not ready" : redis ? "degraded" : "ready",
      shuttingDown: false,
      checks: {
        api: api ? "failing" : "ok",
        redis: opts.checkRedis ? (redis ? "failing" : "ok") : "skipped",
      },
      ...(reasons.length ? { reasons } : {}),
    };
  }

  async function check(): Promise<ReadinessReport> {
    if (shuttingDown) {
      return {
        status: "not ready",
        shuttingDown: true,
        checks: { api: "skipped", redis: "skipped" },
        reasons: ["shutting down"],
      };
    }
    const t = now();
    if (!cached || t - cached.at >= cacheMs) cached = { at: t, report: run() };
    return cached.report;
  }

  const handler: RequestHandler = (_req, res) => {
    void check().then((report) => {
      res.setHeader("Cache-Control", "no-store");
      res.status(report.status === "not ready" ? 503 : 200).json(report);
    });
  };

  return {
    check,
    handler,
    /** From now on every probe answers 503, before the server stops accepting connections. */
    beginShutdown() {
      shuttingDown = true;
    },
    get shuttingDown() {
      return shuttingDown;
    },
  };
}

/**
 * The drain after SIGTERM (SHUTDOWN_DRAIN_MS): while `isDraining()`, GET and HEAD are answered 503 at once,
 * before any work, so a balancer without active health checks (open-source nginx, which never reads
 * /readyz) passes them to another instance and, after `max_fails` such answers, stops sending here; the
 * listener then closes when no connection has come for a moment, and no request is left in its accept queue
 * to be reset. Every other method is served as usual: nginx never resends a POST, so refusing one would lose it.
 */
export function drainGuard(isDraining: () => boolean): RequestHandler {
  return (req, res, next) => {
    if (!isDraining() || (req.method !== "GET" && req.method !== "HEAD")) return next();
    res.setHeader("Retry-After", "1");
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Connection", "close");
    res.status(503).type("text/plain").send("The service is restarting. Please try again in a few seconds.");
  };
}
