import { randomBytes } from "node:crypto";
import { z } from "zod";

const url = z.string().url();
const port = z.coerce.number().int().min(0).max(65535);
const bool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port.default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  /** The upstream /api base, e.g. http://127.0.0.1:3001/api. Unset: server.ts starts the embedded api. */
  API_URL: url.optional(),
  API_PORT: port.default(3001),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** The secret before a rotation: session cookies it sealed still open (new ones use SESSION_SECRET). */
  SESSION_SECRET_PREVIOUS: z.string().min(32, "must be at least 32 characters").optional(),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  RESIDENTIAL_SITE_URL: url.default("https://home.energyops.test/"),
  MIGRATED_APP_URL: url.default("https://mycor.energyops.test/"),
  VENDOR_AUTH_URL: url.default("https://vendor-auth.energyops.test/authorize"),
  ENERGY_ADVISOR_URL: url.default("https://meet.energyops.test/energy-advisor"),
  HELP_URL: url.default("https://help.energyops.test/"),
  /**
   * The support address shown to users. Unset: support@ the host of PUBLIC_URL (without "www."), or
   * DEFAULT_SUPPORT_EMAIL when PUBLIC_URL is unset or its host is not a domain name (localhost, an IP). Never
   * taken from a request: its Host header is whatever the sender wrote.
   */
  SUPPORT_EMAIL: z.string().email().optional(),
  STAFF_EMAIL_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, "must be a domain like energyops.test")
    .default("energyops.test"),
  REDIS_URL: url.optional(),
  /** Number of trusted proxy hops in front of the server (0: the socket address is the client). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * Whether this process gzips its answers (pages, `.data`, build assets). "off" behind a proxy that compresses
   * (docs/deploy.md's nginx does): gzip then costs the proxy's CPU, not this event loop's.
   */
  HTTP_COMPRESSION: z.enum(["on", "off"]).default("on"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  DATA_DIR: z.string().min(1).default("data"),
  /** Sign-in POSTs (every kind) per client address and window; generous, offices share an address. */
  LOGIN_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(300),
  /** Failed password and code attempts per account and client address, per window. */
  LOGIN_RATE_LIMIT_PER_ACCOUNT_IP: z.coerce.number().int().min(1).default(10),
  /** Failed password and code attempts per account over all addresses, per window (NIST 800-63B: at most 100). */
  LOGIN_RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(100),
  LOGIN_RATE_LIMIT_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(15 * 60_000),
  /**
   * Accepted free bill health check starts per client address and hour. Behind a proxy, TRUST_PROXY must be
   * set, or every visitor shares the proxy's address and this budget.
   */
  PROSPECT_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(20),
  /** Login-options lookups (`GET /login?email=`) per client address, per LOGIN_RATE_LIMIT_WINDOW_MS. */
  LOGIN_OPTIONS_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(100),
  /**
   * The Enter Credentials step: the utility-data provider's own Connect ("provider", the default: its React
   * package with a Connect token, or its hosted page without JavaScript), or our built-in form ("builtin").
   */
  UTILITY_CONNECT_WIDGET: z.enum(["builtin", "provider"]).default("provider"),
  /**
   * Where Connect's script loads from. Unset: the package's own (Arcadia), or, when this server starts the
   * embedded api against the provider simulator, the simulator's copy (server.ts sets it). ADR 0024.
   */
  ARCADIA_CONNECT_SCRIPT_URL: url.regex(/^https?:\/\//, "must be an http(s) URL").optional(),
  /** The origin Connect's frame is served from, when not the script's (frame-src on the connect page). */
  ARCADIA_CONNECT_FRAME_ORIGIN: url.optional(),
  /** Server-Timing on every answer (benchmarks read it). Default: on outside production, off in production. */
  SERVER_TIMING: bool.optional(),
  /** Largest request body (bytes), most form fields and longest field name; larger is refused with 413. */
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10 * 1024 * 1024)
    .default(64 * 1024),
  // 1000 fields: the team-access form posts one field per location.
  FORM_MAX_FIELDS: z.coerce.number().int().min(1).default(1000),
  FORM_MAX_FIELD_NAME_LENGTH: z.coerce.number().int().min(1).default(200),
  /**
   * Largest list index (`x[999]`) and deepest nesting (brackets and dots) of a form field name; beyond them the
   * form is refused with 400. No form of the app nests or indexes at all: Conform builds a list as long as the
   * largest index, and echoes it in its reply.
   */
  FORM_MAX_FIELD_INDEX: z.coerce.number().int().min(0).max(100_000).default(999),
  FORM_MAX_FIELD_DEPTH: z.coerce.number().int().min(1).max(64).default(8),
  /** Load shedding: requests in flight, and event-loop delay (median over 1 s, ms; 0: off), above which answers are 503. */
  SHED_MAX_IN_FLIGHT: z.coerce.number().int().min(1).default(64),
  SHED_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(150),
  SHED_RETRY_AFTER_S: z.coerce.number().int().min(1).max(3600).default(5),
  /**
   * Prometheus metrics (GET /metrics) on their own listener, never on the main port; unset: no metrics. It binds
   * METRICS_HOST, loopback by default: only a scraper on the same host (or network namespace) reaches it.
   */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  /** The web app's public origin, for links in the embedded api's emails (default http://localhost:$PORT). */
  PUBLIC_URL: url.optional(),
  /** No start-up banner (the demo logins) on stdout: the test servers. */
  QUIET_BANNER: bool.default("false"),
  /** Test-only routes (a deliberate server error for the error-fallback test); never in production deploys. */
  ENABLE_TEST_HOOKS: bool.default("false"),
  /** Error reporting (docs/operations.md): the Sentry DSN; unset, nothing is reported and nothing is sent. */
  SENTRY_DSN: url.optional(),
  /** The release events are tagged with (a deploy sets the git sha); default energyops-web@<package version>. */
  SENTRY_RELEASE: z.string().min(1).max(200).optional(),
  /** The environment events are tagged with; default NODE_ENV. */
  SENTRY_ENVIRONMENT: z.string().min(1).max(64).optional(),
  /** How often the per-request session counts are sent (ms). */
  SENTRY_SESSION_FLUSH_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /**
   * Slow clients (app/server/http/slow-clients.server.ts): a request's headers must arrive within HEADERS_TIMEOUT_MS
   * and the whole request within REQUEST_TIMEOUT_MS; a body gets BODY_TIMEOUT_MS plus a second per BODY_MIN_RATE
   * bytes received; an idle keep-alive connection closes after KEEP_ALIVE_TIMEOUT_MS (longer than a balancer's
   * idle timeout, 60 s on most); at most MAX_CONNECTIONS are open at once.
   */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(500).max(300_000).default(10_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(500).max(3_600_000).default(30_000),
  BODY_TIMEOUT_MS: z.coerce.number().int().min(500).max(3_600_000).default(10_000),
  BODY_MIN_RATE: z.coerce.number().int().min(1).max(100_000_000).default(500),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(65_000),
  MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1024),
  /**
   * Error reports a minute: of one kind (the error's type and route, or its fingerprint), and of all kinds
   * together; the rest are dropped (counted in error_reports_dropped_total, logged once a minute).
   */
  SENTRY_MAX_EVENTS_PER_KIND: z.coerce.number().int().min(1).max(10_000).default(10),
  SENTRY_MAX_EVENTS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(100),
  /** Graceful shutdown: how long in-flight requests may take to finish after SIGTERM before they are cut. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /**
   * Graceful shutdown: the drain before the listener closes (0: none). Page views are answered 503 (a balancer
   * passes them on and leaves the instance out), other requests are served, and the listener closes once no
   * connection has come for SHUTDOWN_DRAIN_QUIET_MS, or after this long at the latest.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(3_000),
  /** The drain ends once no connection has come for this long: well under nginx's fail_timeout (3 s). */
  SHUTDOWN_DRAIN_QUIET_MS: z.coerce.number().int().min(50).max(10_000).default(500),
  /** Where the clock of web and embedded api starts (ISO instant, then real time): tests only; unset in production. */
  CLOCK_START: z.string().datetime({ offset: true }).optional(),
});

export type Config = Omit<z.infer<typeof schema>, "SERVER_TIMING"> & { SERVER_TIMING: boolean } & {
  SESSION_SECRET: string;
  sessionSecretGenerated: boolean;
};

export class ConfigError extends Error {}

/** Parses the environment once; a bad value throws a ConfigError naming each variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid environment configuration:\n  ${lines.join("\n  ")}`);
  }
  if (result.data.METRICS_PORT !== undefined && result.data.METRICS_PORT === result.data.PORT) {
    throw new ConfigError(
      "Invalid environment configuration:\n  METRICS_PORT: must differ from PORT (metrics are never served on the main port)",
    );
  }
  if (result.data.REQUEST_TIMEOUT_MS < result.data.HEADERS_TIMEOUT_MS) {
    throw new ConfigError(
      "Invalid environment configuration:\n  REQUEST_TIMEOUT_MS: must be at least HEADERS_TIMEOUT_MS (the headers are part of the request)",
    );
  }
  const cfg = {
    ...result.data,
    SERVER_TIMING: result.data.SERVER_TIMING ?? result.data.NODE_ENV !== "production",
  };
  if (!cfg.SESSION_SECRET) {
    if (cfg.NODE_ENV === "production") {
      throw new ConfigError("Invalid environment configuration:\n  SESSION_SECRET: required in production");
    }
    return { ...cfg, SESSION_SECRET: randomBytes(32).toString("hex"), sessionSecretGenerated: true };
  }
  return { ...cfg, SESSION_SECRET: cfg.SESSION_SECRET, sessionSecretGenerated: false };
}

let cached: Config | undefined;

export function getConfig(): Config {
  if (!cached) {
    cached = parseConfig(process.env);
    // Keep one secret per process even if another module instance parses the environment again.
    if (cached.sessionSecretGenerated) process.env.SESSION_SECRET = cached.SESSION_SECRET;
  }
  return cached;
}

export function apiBaseUrl(cfg: Config = getConfig()) {
  return cfg.API_URL ?? `http://127.0.0.1:${cfg.API_PORT}/api`;
}

/**
 * The web app's own address as the embedded api knows it (links in its emails, the return address of the
 * provider's hosted page): PUBLIC_URL, else this server's PORT on localhost (rule connect-return-address: the
 * api takes 127.0.0.1 and [::1] on that port as the same address).
 */
export function embeddedWebBaseUrl(cfg: Pick<Config, "PUBLIC_URL" | "PORT">) {
  return cfg.PUBLIC_URL ? cfg.PUBLIC_URL.replace(/\/$/, "") : `http://localhost:${cfg.PORT}`;
}

/** The support address when neither SUPPORT_EMAIL nor a PUBLIC_URL with a domain name says otherwise. */
export const DEFAULT_SUPPORT_EMAIL = "support@energyops.test";

/**
 * The support address shown to users, from configuration only: SUPPORT_EMAIL, else support@ PUBLIC_URL's host
 * (without "www."), else DEFAULT_SUPPORT_EMAIL. A request's Host header is never read: anybody can send one,
 * and a page (or a cached copy of it) would then tell users to write to the sender's address.
 */
export function supportEmail(cfg: Config = getConfig()) {
  if (cfg.SUPPORT_EMAIL) return cfg.SUPPORT_EMAIL;
  const host = cfg.PUBLIC_URL ? new URL(cfg.PUBLIC_URL).hostname.replace(/^www\./, "") : "";
  // A domain name has a dot and ends in letters: not localhost, not an IPv4 or [IPv6] address.
  return /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(host) ? `support@${host}` : DEFAULT_SUPPORT_EMAIL;
}

export function isStaffEmail(email: string, cfg: Config = getConfig()) {
  return email.toLowerCase().endsWith(`@${cfg.STAFF_EMAIL_DOMAIN.toLowerCase()}`);
}
