import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { ApiConfig } from "./lib/http";

const ms = (fallback: number) => z.coerce.number().int().min(0).max(3_600_000).default(fallback);

/** `alerts@example.com` or `EnergyOps <alerts@example.com>`. */
const mailbox = z
  .string()
  .max(300)
  .regex(
    /^(?:[^<>\r\n]*<[^\s@<>]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+>|[^\s@<>]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+)$/i,
    "must be an email address, optionally as Name <address>",
  );

/** The reference api's environment variables, parsed once with Zod (as the web tier's are). */
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  LOG_LEVEL: z.string().optional(),
  /** Fixed delay added to every answer (benchmarks). */
  API_LATENCY_MS: ms(0),
  /** "false": an empty database, no seed, no GET /dev/outbox. */
  API_DEMO_DATA: z.enum(["true", "false"]).default("true"),
  STAFF_EMAIL_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, "must be a domain like energyops.test")
    .default("energyops.test"),
  /** How long the simulated thermostat vendors take to carry out a command. */
  THERMOSTAT_ACTION_DELAY_MS: ms(20_000),
  /** How long the simulated utility-data provider takes to settle a connection. */
  UTILITY_PROVIDER_DELAY_MS: ms(6_000),
  /**
   * Test-only routes (POST /dev/reset): "true" or "1" only on the test servers (playwright.config.ts), never in a
   * deployment. The web tier reads the same variable for its own test routes (app/server/config.server.ts).
   */
  ENABLE_TEST_HOOKS: z.enum(["true", "false", "1", "0"]).default("false"),
  /**
   * The demo's outbox page (GET /dev/outbox, api/routes/outbox.ts), which shows every email with its codes and
   * links: off by default; "true" or "1" serves it (the demo that `npm start` runs without a secret sets it),
   * as test hooks do. Never served when SMTP_URL delivers the mail.
   */
  API_DEV_OUTBOX: z.enum(["true", "false", "1", "0"]).default("false"),
  /**
   * More buildings for the demo client Harbor Coffee Co. (0 to 2,000; default 0), seeded after the demo data
   * (api/db/seed/extra-locations.ts): `API_EXTRA_LOCATIONS=286` gives it 300 locations, for the benchmark's
   * large client. The demo's sign-ins and its other data do not change.
   */
  API_EXTRA_LOCATIONS: z.coerce.number().int().min(0).max(2000).default(0),
  /**
   * How often the notification scheduler runs the jobs (api/mail/scheduler.ts), in ms; 0 turns it off (the
   * test servers, which run the jobs through POST /dev/notifications/run instead).
   */
  NOTIFICATION_INTERVAL_MS: ms(60_000),
  /**
   * A directory for seeded databases made once and reused (api/db/seed/snapshot.ts): the test runs make a fresh
   * one per run (scripts/test-all.mjs, tests/support/seed-cache-setup.ts). Unset by default: every empty
   * database is seeded. Never for a deployment or the quick start.
   */
  SEED_CACHE_DIR: z.string().min(1).optional(),
  /** Where the api clock starts (api/lib/clock.ts): tests only. */
  CLOCK_START: z.string().datetime({ offset: true }).optional(),
  /** The mail server (api/mail/delivery.ts); unset: emails stay in the outbox table. */
  SMTP_URL: z
    .string()
    .url()
    .regex(/^smtps?:\/\/[^/?#]+/i, "must be smtp://user:pass@host:587 or smtps://user:pass@host:465")
    .optional(),
  MAIL_FROM: mailbox.optional(),
  MAIL_REPLY_TO: mailbox.optional(),
  /**
   * The utility-data provider (Arcadia, docs/configuration.md): its api's base URL. Unset: the simulator of the
   * same protocol that this api serves on its own port (/arcadia-sim, api/simulators/arcadia.ts), with the demo
   * keys below. Arcadia's sandbox and production are both https://api.arcadia.com (the keys choose).
   */
  ARCADIA_API_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, "must be an http(s) URL")
    .optional(),
  /** The client's API keys (required with ARCADIA_API_URL); never sent to a browser. */
  ARCADIA_CLIENT_ID: z.string().min(1).max(200).optional(),
  ARCADIA_CLIENT_SECRET: z.string().min(8, "must be at least 8 characters").max(500).optional(),
  /** Which of the provider's environments the keys belong to (Connect is opened with the same `env`). */
  ARCADIA_ENV: z.enum(["sandbox", "production"]).default("sandbox"),
  /**
   * The webhook signing key (Arc-Webhook-Signature), trimmed (a stray space is not another key). Required with
   * a real provider (ARCADIA_API_URL set), whatever NODE_ENV. With the simulator: unset, the documented demo key
   * ARCADIA_DEMO_WEBHOOK_SECRET outside production; in production only with ARCADIA_DEMO_WEBHOOK_KEY on, else a
   * random key of this process that only the built-in simulator knows (webhookSecretOf).
   */
  ARCADIA_WEBHOOK_SECRET: z.string().trim().min(16, "must be at least 16 characters").max(500).optional(),
  /**
   * The explicit demo switch: "true" or "1" lets a production api (NODE_ENV=production)
   * with the simulator accept webhooks signed with the public demo key. Off by default; never with a provider.
   */
  ARCADIA_DEMO_WEBHOOK_KEY: z.enum(["true", "false", "1", "0"]).default("false"),
});

/** The simulator's keys and the demo's webhook signing key (documented in docs/configuration.md): never live. */
export const ARCADIA_DEMO_KEYS = { clientId: "demo-client-id", clientSecret: "demo-client-secret" } as const;
export const ARCADIA_DEMO_WEBHOOK_SECRET = "energyops-demo-arcadia-webhook-key";

const demoSwitch = (e: { ARCADIA_DEMO_WEBHOOK_KEY: string }) =>
  e.ARCADIA_DEMO_WEBHOOK_KEY === "true" || e.ARCADIA_DEMO_WEBHOOK_KEY === "1";

/**
 * The key webhooks must be signed with (rule arcadia-webhook-key): the configured one
 * (trimmed by the schema); without one, the public demo key outside production or with the demo switch on;
 * else (a production api with the simulator, the Docker default) a random key of this process, which the
 * built-in simulator signs with and nobody else knows, so the public demo key is refused.
 */
export function webhookSecretOf(e: {
  NODE_ENV: string;
  ARCADIA_WEBHOOK_SECRET?: string;
  ARCADIA_DEMO_WEBHOOK_KEY: string;
}): string {
  if (e.ARCADIA_WEBHOOK_SECRET) return e.ARCADIA_WEBHOOK_SECRET;
  if (e.NODE_ENV !== "production" || demoSwitch(e)) return ARCADIA_DEMO_WEBHOOK_SECRET;
  return randomBytes(32).toString("hex");
}

/** Parses the environment; a bad value throws an error naming each variable. */
export function apiConfigFromEnv(
  env: Record<string, string | undefined> = process.env,
): Omit<ApiConfig, "webBaseUrl"> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema
    .superRefine((e, ctx) => {
      // Mail without a From of our choosing would be sent as whatever the library makes up, and refused.
      if (e.SMTP_URL && !e.MAIL_FROM)
        ctx.addIssue({ code: "custom", path: ["MAIL_FROM"], message: "required when SMTP_URL is set" });
      // A real provider needs the client's keys; the simulator (no ARCADIA_API_URL) takes the demo keys.
      if (e.ARCADIA_API_URL && !e.ARCADIA_CLIENT_ID)
        ctx.addIssue({
          code: "custom",
          path: ["ARCADIA_CLIENT_ID"],
          message: "required when ARCADIA_API_URL is set",
        });
      if (e.ARCADIA_API_URL && !e.ARCADIA_CLIENT_SECRET)
        ctx.addIssue({
          code: "custom",
          path: ["ARCADIA_CLIENT_SECRET"],
          message: "required when ARCADIA_API_URL is set",
        });
      // A live provider always has its own signing key (whatever NODE_ENV), never the public demo key.
      if (e.ARCADIA_API_URL && !e.ARCADIA_WEBHOOK_SECRET)
        ctx.addIssue({
          code: "custom",
          path: ["ARCADIA_WEBHOOK_SECRET"],
          message: "required when ARCADIA_API_URL is set",
        });
      if (e.ARCADIA_API_URL && e.ARCADIA_WEBHOOK_SECRET === ARCADIA_DEMO_WEBHOOK_SECRET)
        ctx.addIssue({
          code: "custom",
          path: ["ARCADIA_WEBHOOK_SECRET"],
          message: "the demo key is for the simulator only",
        });
      if (e.ARCADIA_API_URL && demoSwitch(e))
        ctx.addIssue({
          code: "custom",
          path: ["ARCADIA_DEMO_WEBHOOK_KEY"],
          message: "the demo key is for the simulator only: unset it with ARCADIA_API_URL",
        });
      // Production with the simulator: the public demo key, named explicitly, needs the demo switch.
      if (
        e.NODE_ENV === "production" &&
        e.ARCADIA_WEBHOOK_SECRET === ARCADIA_DEMO_WEBHOOK_SECRET &&
        !demoSwitch(e)
      )
        ctx.addIssue({
          code: "custom",
          path: ["ARCADIA_WEBHOOK_SECRET"],
          message: "the public demo key is refused in production unless ARCADIA_DEMO_WEBHOOK_KEY=true",
        });
    })
    .safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid api environment configuration:\n  ${lines.join("\n  ")}`);
  }
  const e = result.data;
  return {
    latencyMs: e.API_LATENCY_MS,
    demoData: e.API_DEMO_DATA === "true",
    staffEmailDomain: e.STAFF_EMAIL_DOMAIN,
    thermostatActionDelayMs: e.THERMOSTAT_ACTION_DELAY_MS,
    utilityProviderDelayMs: e.UTILITY_PROVIDER_DELAY_MS,
    quiet: e.NODE_ENV === "test" || e.LOG_LEVEL === "silent",
    clockStart: e.CLOCK_START,
    seedCacheDir: e.SEED_CACHE_DIR,
    testHooks: e.ENABLE_TEST_HOOKS === "true" || e.ENABLE_TEST_HOOKS === "1",
    devOutbox: e.API_DEV_OUTBOX === "true" || e.API_DEV_OUTBOX === "1",
    extraLocations: e.API_EXTRA_LOCATIONS,
    smtp:
      e.SMTP_URL && e.MAIL_FROM
        ? { url: e.SMTP_URL, from: e.MAIL_FROM, replyTo: e.MAIL_REPLY_TO }
        : undefined,
    notificationIntervalMs: e.NOTIFICATION_INTERVAL_MS,
    arcadia: {
      apiUrl: e.ARCADIA_API_URL ? e.ARCADIA_API_URL.replace(/\/$/, "") : null,
      clientId: e.ARCADIA_CLIENT_ID ?? ARCADIA_DEMO_KEYS.clientId,
      clientSecret: e.ARCADIA_CLIENT_SECRET ?? ARCADIA_DEMO_KEYS.clientSecret,
      env: e.ARCADIA_ENV,
      webhookSecret: webhookSecretOf(e),
    },
  };
}
