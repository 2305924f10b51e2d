import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { broadcastDevReady, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { rateLimit } from "express-rate-limit";
import helmet from "helmet";
import { bodyLimit } from "./app/server/http/body-limit.server";
import { canonicalPaths } from "./app/server/http/canonical-path.server";
import { privateByDefault } from "./app/server/http/cache-control.server";
import { ConfigError, embeddedWebBaseUrl, getConfig } from "./app/server/config.server";
import { errorFields, getLogger } from "./app/server/ops/logger.server";
import { isCrossSiteRequest } from "./app/server/http/csrf";
import { hostHeaders } from "./app/server/http/host-header.server";
import { apiPassthrough } from "./app/server/upstream/passthrough.server";
import { PAGE_NOT_FOUND } from "./app/features/shell/notices";
import { ASSETS_DIR, ASSETS_URL, PUBLIC_DIR, SERVER_BUILD } from "./shared/build-output.mjs";
import { ARCADIA_PACKAGE_SCRIPT_URL, connectCspSources } from "./app/lib/arcadia-connect";
import { createLoadShedder } from "./app/server/http/load-shed.server";
import { createRouteLabeler, getMetrics, startMetricsServer } from "./app/server/ops/metrics.server";
import { makeRateLimitStore } from "./app/server/ops/rate-limit.server";
import { createReadiness, drainGuard } from "./app/server/ops/readiness.server";
import { sharedRedis } from "./app/server/ops/redis.server";
import { createRequestHandler } from "./app/server/http/remix-handler.server";
import { requestId } from "./app/server/http/request-id.server";
import { guardSlowClients, serverOptions } from "./app/server/http/slow-clients.server";
import { CLIENT_ERRORS_PATH, clientErrorEndpoint } from "./app/server/ops/sentry-browser.server";
import {
  errorReportingExpressHandler,
  errorReportingScope,
  flushErrorReports,
  initErrorReporting,
} from "./app/server/ops/sentry.server";

let config: ReturnType<typeof getConfig>;
try {
  config = getConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const production = config.NODE_ENV === "production";
// Error reporting (docs/operations.md): only with SENTRY_DSN; otherwise the SDK never starts.
await initErrorReporting(config);
const logger = getLogger();
if (config.sessionSecretGenerated) {
  logger.warn("SESSION_SECRET is not set: using a random secret for this process (sessions end on restart).");
}

// The embedded reference api, when no upstream is configured.
let closeApi: (() => Promise<void>) | undefined;
if (!config.API_URL) {
  const { startEmbeddedApi } = await import("./api/embedded");
  try {
    const api = await startEmbeddedApi(
      {
        port: config.API_PORT,
        host: "127.0.0.1",
        dbFile: path.join(config.DATA_DIR, "api.sqlite"),
        webBaseUrl: embeddedWebBaseUrl(config),
        staffEmailDomain: config.STAFF_EMAIL_DOMAIN,
        clockStart: config.CLOCK_START,
      },
      logger.level,
      (msg, data) => logger.info({ service: "api", ...data }, msg),
    );
    process.env.API_URL = api.url;
    // The embedded api serves the provider simulator when no provider is configured (api/config.ts): Connect's
    // script then loads from the simulator's copy (ADR 0024), unless the script's URL is configured.
    if (!config.ARCADIA_CONNECT_SCRIPT_URL && !process.env.ARCADIA_API_URL)
      process.env.ARCADIA_CONNECT_SCRIPT_URL = new URL("/arcadia-sim/dist/v5.js", api.url).href;
    closeApi = api.close;
  } catch (error) {
    console.error(`the embedded api could not start: ${errorFields(error).err}`); // synchronous: the process exits next
    process.exit(1);
  }
}

const BUILD_PATH = path.resolve(SERVER_BUILD);
const loadBuild = async () =>
  (await import(`${pathToFileURL(BUILD_PATH).href}?t=${Date.now()}`)) as ServerBuild;
const build = await loadBuild();

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", config.TRUST_PROXY);

// Every request's id (X-Request-Id: a safe incoming one or a new UUID), in the answer and to the upstream api.
app.use(requestId());

const metrics = getMetrics();
// One access-log line per request: request id, method, path (never the query: it may hold tokens; never a
// cookie), Remix route id, status, duration, the user's id once a loader read the session. The metrics take
// the same route id and status. With SERVER_TIMING (the benchmark; off in production by default) the total
// server time goes out as Server-Timing (benchmarks divide it by the upstream latency).
app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  const writeHead = res.writeHead;
  res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
    if (config.SERVER_TIMING && !res.headersSent) {
      const total = `total;dur=${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)}`;
      const existing = res.getHeader("Server-Timing");
      res.setHeader("Server-Timing", existing ? `${existing}, ${total}` : total);
    }
    return writeHead.apply(this, args);
  } as typeof writeHead;
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // Nothing reads the route id when the log is quiet and metrics are off: skip the match.
    if (!metrics && !logger.isLevelEnabled("info")) return;
    const route = routeLabel(req.path);
    metrics?.httpRequest(route, req.method, res.statusCode, ms / 1000);
    logger.info(
      {
        requestId: req.headers["x-request-id"],
        method: req.method,
        path: req.path,
        route,
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
        userId: (res.locals.loadContext as AppLoadContext | undefined)?.userId ?? res.locals.userId,
      },
      "request",
    );
  });
  next();
});

app.get("/healthz", (_req, res) => {
  res.setHeader("Cache-Control", "no-store");
  res.json({ status: "ok" });
});

// Readiness (load balancers, orchestrators): the upstream api answers, no shutdown has begun; Redis (when
// configured) answering or not only makes it "degraded". Like /healthz: before load shedding, rate limits and
// sessions. The Redis connection opens here, in the background: start-up never waits for it.
const redis = sharedRedis();
const readiness = createReadiness({
  apiUrl: () => process.env.API_URL ?? "",
  checkRedis: redis ? () => redis.check() : undefined,
});
app.get("/readyz", readiness.handler);

// A malformed Host (or, from a trusted proxy, X-Forwarded-Host/-Proto) is a 400 here, not a 500 when Remix
// builds the request URL from it; forwarded headers from an untrusted peer are dropped.
const trustProxy = app.get("trust proxy fn") as (address: string, hop: number) => boolean;
app.use(hostHeaders((address) => trustProxy(address, 0)));
// One spelling per path (`/login//`, `/%6cogin`, `/./login` answer 308 to `/login`), so that every express
// route below that matches a path exactly, the sign-in rate limit first, sees what Remix will route.
app.use(canonicalPaths());
// Once shutdown has begun, every answer closes its connection: keep-alive clients reconnect elsewhere.
app.use((_req, res, next) => {
  if (readiness.shuttingDown) res.setHeader("Connection", "close");
  next();
});
// The drain after SIGTERM (see shutdown): page views answered 503 at once, every other request served.
let draining = false;
app.use(drainGuard(() => draining));

// gzip here unless a proxy in front does it (HTTP_COMPRESSION=off behind docs/deploy.md's nginx): a 90 KB page
// costs about 1.4 ms of this event loop to compress.
const compress: express.RequestHandler =
  config.HTTP_COMPRESSION === "on" ? compression() : (_req, _res, next) => next();

// Fingerprinted build assets first: cached for a year, compressed, with the headers a script or stylesheet needs
// (nosniff, HSTS, cross-origin resource policy) but not the page's CSP and nonce, which govern documents. Each of
// a page's 11–22 script responses was carrying ~1 KiB of page headers.
app.use(
  ASSETS_URL.replace(/\/$/, ""),
  helmet({
    contentSecurityPolicy: false,
    referrerPolicy: false,
    strictTransportSecurity: production ? { maxAge: 31536000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  }),
  compress,
  express.static(ASSETS_DIR, { immutable: true, maxAge: "1y" }),
);

// The provider's Connect (script, frame, hosted page) is allowed only on the pages that open it (rule
// connect-csp-pages): every other page's policy is the same as without it.
const connectProvider =
  config.UTILITY_CONNECT_WIDGET === "provider"
    ? {
        scriptUrl: process.env.ARCADIA_CONNECT_SCRIPT_URL || ARCADIA_PACKAGE_SCRIPT_URL,
        frameOrigin: config.ARCADIA_CONNECT_FRAME_ORIGIN,
      }
    : null;
const connectSources = (req: unknown) => connectCspSources((req as express.Request).path, connectProvider);
// A fresh script nonce per page (16 random bytes), read by helmet's CSP below and by entry.server.
app.use((_req, res, next) => {
  res.locals.nonce = randomBytes(16).toString("base64");
  next();
});
// useDefaults off: the policy is exactly these directives (helmet's defaults would add others).
app.use(
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [
          "'self'",
          (_req, res) => `'nonce-${(res as express.Response).locals.nonce as string}'`,
          (req) => connectSources(req).script.join(" "),
        ],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...(production ? [] : ["ws:"]), (req) => connectSources(req).script.join(" ")],
        frameSrc: [(req) => connectSources(req).frame.join(" ") || "'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        // A sign-in form's redirect chain may end on the residential site (root redirect by client type).
        // The connect page's no-JavaScript path is redirected from its post to the provider's hosted page.
        formAction: [
          "'self'",
          new URL(config.RESIDENTIAL_SITE_URL).origin,
          (req) => connectSources(req).script.join(" "),
        ],
      },
    },
    referrerPolicy: false,
    strictTransportSecurity: production ? { maxAge: 31536000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  }),
);
// Token pages (login link, password reset) never leak their URL through a Referer.
const NO_REFERRER = new Set(["/login/link", "/reset-password"]);
app.use((req, res, next) => {
  res.setHeader(
    "Referrer-Policy",
    NO_REFERRER.has(req.path) ? "no-referrer" : "strict-origin-when-cross-origin",
  );
  next();
});
app.use(compress);

// Everything else in public/ (build assets are served above): cached for an hour.
// Top-level files of public/ (favicon, the sample bill) are listed once, so other paths pay no file-system lookup.
const assetsFolder = path.relative(PUBLIC_DIR, ASSETS_DIR);
const publicFiles = new Set(
  fs
    .readdirSync(PUBLIC_DIR)
    .filter((f) => f !== assetsFolder)
    .map((f) => `/${f}`),
);
const publicStatic = express.static(PUBLIC_DIR, { maxAge: "1h", index: false });
// The route label of the request log and the metrics: a Remix route id or a fixed label, never the raw path.
const routeLabel = createRouteLabeler(build.routes, (p) => p.startsWith(ASSETS_URL) || publicFiles.has(p));
app.use((req, res, next) => (publicFiles.has(req.path) ? publicStatic(req, res, next) : next()));

// Request bodies: at most BODY_LIMIT_BYTES (413 while streaming, Content-Length or not) and a capped form field
// count and name length, and names whose list index or nesting passes small bounds (400: Conform would build a
// list as long as the index), checked before anything parses them; the Remix handler reads the checked bytes.
app.use(
  bodyLimit({
    maxBytes: config.BODY_LIMIT_BYTES,
    maxFields: config.FORM_MAX_FIELDS,
    maxFieldNameLength: config.FORM_MAX_FIELD_NAME_LENGTH,
    maxFieldIndex: config.FORM_MAX_FIELD_INDEX,
    maxFieldDepth: config.FORM_MAX_FIELD_DEPTH,
  }),
);

// Load shedding (never /healthz or static files, answered above): 503 + Retry-After at once when too many
// requests are in flight or the event loop lags, instead of queueing until clients time out.
const shedder = createLoadShedder({
  maxInFlight: config.SHED_MAX_IN_FLIGHT,
  maxEventLoopDelayMs: config.SHED_MAX_EVENT_LOOP_DELAY_MS,
  retryAfterSeconds: config.SHED_RETRY_AFTER_S,
  onShed: metrics ? (reason) => metrics.loadShed(reason) : undefined,
});
metrics?.setInFlightSource(() => shedder.stats().inFlight);
app.use(shedder);

// Every dynamic answer depends on the session or a token: private, no-store unless a route declares public.
app.use(privateByDefault());

// CSRF: every state-changing request from another site is refused (on top of SameSite=Lax cookies).
// One exception: /unsubscribe, whose RFC 8058 one-click POST comes from a mail provider (or a webmail page)
// without our origin. Its action reads no session or cookie: the token in the address is its only authority
// (app/routes/unsubscribe.tsx), so a cross-site post there can do nothing its sender could not do directly.
app.use((req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
  if (req.path === "/unsubscribe") return next();
  const headers = { get: (name: string) => req.get(name) ?? null };
  // The host the request was addressed to, as the host-header check read it (a trusted proxy's forwarded one).
  const host = new URL((req as typeof req & { requestOrigin: string }).requestOrigin).host;
  if (isCrossSiteRequest(headers, host)) {
    res.status(403).type("text/plain").send("Forbidden");
    return;
  }
  next();
});

// Browser errors (the listener in entry.client): same origin, bounded, rate-limited, forwarded to error reporting.
app.post(CLIENT_ERRORS_PATH, ...clientErrorEndpoint({ routeOf: routeLabel }));

// Sign-in actions: a generous per-IP limit (offices share an IP); the strict per-account limit is in the action.
const signInPaths = [
  "/login",
  "/login.data",
  "/login/link",
  "/login/link.data",
  "/reset-password",
  "/reset-password.data",
];
const perIp = rateLimit({
  windowMs: config.LOGIN_RATE_LIMIT_WINDOW_MS,
  limit: config.LOGIN_RATE_LIMIT_PER_IP,
  standardHeaders: "draft-7",
  legacyHeaders: false,
  store: makeRateLimitStore("signin-ip"),
  handler: (_req, res, next, options) => {
    const reset = (_req as express.Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
    const retryAfterSeconds = Math.max(
      1,
      Math.ceil(((reset?.getTime() ?? Date.now() + options.windowMs) - Date.now()) / 1000),
    );
    res.locals.signInLimited = { retryAfterSeconds };
    metrics?.rateLimitRefusal("signin-ip");
    next();
  },
});
app.post(signInPaths, perIp);

app.use(
  "/api",
  apiPassthrough({
    demoFile: (p) =>
      /^\/bill-statement\/\d+\/download$/.test(p) ? path.resolve("public/sample-bill.pdf") : null,
    // An unknown /api/ path stays a 404 (rule api-unknown-404): a browser is told so, with a link to the start.
    notFoundMessage: PAGE_NOT_FOUND,
  }),
);

// OPTIONS changes nothing and carries no form, so it is answered here with the methods pages accept. Remix
// would treat it as a submission and run the route's action, which the CSRF check above lets OPTIONS skip.
app.options("*", (_req, res) => {
  res.setHeader("Allow", "GET, HEAD, POST");
  res.status(204).end();
});

// The CSRF check above has decided, on parsed hosts. Remix's own check on document posts compares raw strings and
// throws (a reported 500) on spellings that one accepts: the opaque `Origin: null` beside Sec-Fetch-Site (a
// no-referrer page sends it), `Host: APP.test` or `X-Forwarded-Host: app.test:443` beside the Origin a browser
// normalises. So the Origin stops here (the browser-error endpoint above still reads it); no route reads it.
app.use((req, _res, next) => {
  delete req.headers.origin;
  next();
});

// Errors reported from here on carry the request's method, path and id (and the user, once a loader knows it).
app.use(errorReportingScope(routeLabel));
// Test hook (ENABLE_TEST_HOOKS, the test servers only): an error express catches outside Remix, reported by the
// handler below. No request a stranger can send reaches that handler otherwise.
if (config.ENABLE_TEST_HOOKS)
  app.get(["/test-hooks/express-error", "/test-hooks/express-error/*"], (_req, _res, next) =>
    next(new Error("Deliberate express failure")),
  );
app.all(
  "*",
  createRequestHandler({
    build,
    mode: config.NODE_ENV,
    getLoadContext: (_req, res) =>
      // Kept on res.locals: the request log reads what the loaders learnt (the user's id).
      (res.locals.loadContext = {
        cspNonce: res.locals.nonce as string,
        signInLimited: res.locals.signInLimited as { retryAfterSeconds: number } | undefined,
        clientIp: _req.ip ?? _req.socket.remoteAddress ?? "unknown",
        requestMethod: _req.method,
        upstream: new Map(),
      } satisfies AppLoadContext),
  }),
);
// Errors express catches (a failure outside Remix's own handling) are reported, then answered as before.
app.use(errorReportingExpressHandler(routeLabel));

// Slow clients are cut off (headers, whole request, body rate) and connections capped: see slow-clients.server.ts.
const server = http.createServer(serverOptions(config), app);
const stopSlowClientGuard = guardSlowClients(server, config);
server.listen(config.PORT, config.HOST, () => {
  const url = `http://localhost:${config.PORT}`;
  logger.info({ url }, "web server listening");
  if (!config.QUIET_BANNER && config.NODE_ENV !== "test") {
    const on = (v: string | undefined) => v === "true" || v === "1";
    const demoOutbox =
      (on(process.env.API_DEV_OUTBOX) || on(process.env.ENABLE_TEST_HOOKS)) && !process.env.SMTP_URL;
    const demo = closeApi
      ? `\n  Demo logins (password demo-pass-2024):\n    dana@harborcoffee.test (client admin)   sam@harborcoffee.test (code or link only)\n    alex@mapledental.test   riley@greenwayhomes.test (resi)   jordan@metrotowers.test (migrated)\n    morgan@${config.STAFF_EMAIL_DOMAIN} (staff)\n${demoOutbox ? `  Emails the demo sends (login codes, links): ${process.env.API_URL}/dev/outbox\n` : ""}`
      : "";
    console.log(`\n  EnergyOps is running at ${url}\n${demo}`);
  }
  if (config.NODE_ENV === "development") broadcastDevReady(build);
});

// Metrics on their own listener (loopback by default), never on the main port: nothing public can read them and
// no token has to be kept secret; a Prometheus on the host, or a sidecar, scrapes METRICS_HOST:METRICS_PORT.
if (metrics && config.METRICS_PORT) {
  startMetricsServer(metrics, config.METRICS_HOST, config.METRICS_PORT)
    .on("listening", () =>
      logger.info(
        { url: `http://${config.METRICS_HOST}:${config.METRICS_PORT}/metrics` },
        "metrics listening",
      ),
    )
    .on("error", (error) => {
      console.error(`the metrics listener could not start: ${errorFields(error).err}`);
      process.exit(1);
    });
}

/**
 * The drain (SHUTDOWN_DRAIN_MS): closing the listener resets every connection the kernel has accepted but
 * node has not, and nginx, which cannot know whether such a request was processed, never resends a POST.
 * So the listener stays open while GET/HEAD are answered 503 (nginx passes them on and, after max_fails,
 * leaves this instance out for fail_timeout) and everything else is served; it closes once no connection
 * has come for SHUTDOWN_DRAIN_QUIET_MS, when nothing is queued behind it, or after SHUTDOWN_DRAIN_MS at the latest.
 */
async function drain() {
  draining = true;
  server.closeIdleConnections();
  const start = Date.now();
  let last = start;
  const seen = () => (last = Date.now());
  server.on("connection", seen);
  const end = start + config.SHUTDOWN_DRAIN_MS;
  while (Date.now() < end && Date.now() - last < config.SHUTDOWN_DRAIN_QUIET_MS)
    await new Promise((r) => setTimeout(r, Math.min(50, end - Date.now())));
  server.off("connection", seen);
  server.closeIdleConnections();
  return {
    ms: Date.now() - start,
    quiet: Date.now() - last >= config.SHUTDOWN_DRAIN_QUIET_MS,
  };
}

// Graceful shutdown: readiness answers 503 first, the drain (above), then the listener closes (new
// connections are refused, so a balancer retries them elsewhere), idle keep-alive connections close,
// in-flight requests finish within SHUTDOWN_TIMEOUT_MS (then they are cut), and the embedded api stops last.
async function shutdown(signal: string) {
  if (readiness.shuttingDown) return;
  readiness.beginShutdown();
  logger.info({ signal, timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, "shutting down");
  if (config.SHUTDOWN_DRAIN_MS > 0) {
    const drained = await drain();
    if (!drained.quiet)
      logger.warn({ drainMs: drained.ms }, "drain: connections still arriving when the listener closed");
  }
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // A connection whose last answer ends after close() turns idle again: close those as they appear.
  const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
  const timedOut = await Promise.race([
    closed.then(() => false),
    new Promise<boolean>((r) => setTimeout(() => r(true), config.SHUTDOWN_TIMEOUT_MS).unref()),
  ]);
  clearInterval(idleSweep);
  stopSlowClientGuard();
  if (timedOut) {
    logger.warn(
      { timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
      "shutdown timeout: cutting the requests still open",
    );
    server.closeAllConnections();
  }
  redis?.close();
  // The embedded api last (in-flight requests needed it); a stuck api cannot hold the exit for long.
  setTimeout(() => process.exit(1), 5_000).unref();
  await closeApi?.();
  // Reports still queued (an error during the last requests) go out before the process ends.
  await flushErrorReports().catch(() => false);
  logger.flush();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("unhandledRejection", (reason) =>
  logger.error({ err: reason instanceof Error ? reason.message : String(reason) }, "unhandled rejection"),
);
