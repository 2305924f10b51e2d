import { createClient } from "redis";
import { getConfig } from "~/server/config.server";
import { errorFields, getLogger } from "./logger.server";
import { getMetrics, type RedisFallbackStore } from "./metrics.server";

/**
 * The web process's one Redis connection (REDIS_URL): the shared rate-limit counters, the idempotency store and
 * the readiness check all go through it. Redis is a helper here, never a dependency a request waits on: while
 * it is away (a restart, a managed failover, a frozen server) every caller gets an immediate failure and falls
 * back to this instance's memory, and nothing ever waits on Redis longer than COMMAND_TIMEOUT_MS.
 *
 * How each way of going away is noticed:
 * - the connection closes or cannot be opened: the client's 'error' event (listened to, so it never ends the
 *   process); commands fail at once (no offline queue) and the client reconnects with a capped back-off;
 * - the connection stays open but nothing answers (SIGSTOP, a network black hole): a command that takes longer
 *   than COMMAND_TIMEOUT_MS marks the connection stalled, and commands fail at once until Redis answers again
 *   (the timed-out command's late reply, or the client's own PING every PING_INTERVAL_MS); after
 *   SOCKET_TIMEOUT_MS without a byte the client drops the connection and opens a new one.
 *
 * server.ts and the Remix build are two bundles that both import this module, so the connection lives on
 * globalThis: one per process.
 */

/** Longest wait for one Redis command; the whole budget of a request is a second. */
export const COMMAND_TIMEOUT_MS = 250;
/** The client's PING on an idle connection: replies keep a healthy connection busy, so the socket timeout never fires. */
const PING_INTERVAL_MS = 1000;
/** No byte from Redis for this long (a ping unanswered): the connection is dropped and opened again. */
const SOCKET_TIMEOUT_MS = 3000;
const CONNECT_TIMEOUT_MS = 1000;
/** An outage is logged once it has lasted this long. */
const REPORT_AFTER_MS = 1000;
/** Reconnection back-off: doubling from 100 ms, capped at 2 s, plus up to 100 ms of jitter (instances spread out). */
export const reconnectDelay = (retries: number, jitter = Math.random()) =>
  Math.min(100 * 2 ** retries, 2000) + Math.floor(jitter * 100);

export type RedisStatus = "connecting" | "up" | "down" | "stalled";
export type RedisHealth = {
  status: RedisStatus;
  /** Since when (ms since the epoch) the status holds. */
  since: number;
  /** Why Redis cannot be used, as /readyz reports it (no URL, no credentials); null while up. */
  reason: string | null;
};
export type RedisEvent =
  | { type: "ready" } // connected (again), handshake done
  | { type: "answer" } // a reply arrived (a late one, or the client's PING)
  | { type: "timeout" } // a command got no reply within COMMAND_TIMEOUT_MS
  | { type: "error" }; // the connection failed or closed

export const UNREACHABLE = "redis unreachable";
export const stalledReason = (ms: number) => `redis did not answer within ${ms} ms`;

/**
 * The connection's health after an event (pure). A reply brings a stalled connection back (Redis answers
 * again), and a connected one whose error was not a disconnection; a timeout only stalls a connection that
 * was up; an error means unreachable until the next "ready".
 */
export function nextHealth(
  h: RedisHealth,
  event: RedisEvent,
  now: number,
  connected: boolean,
  timeoutMs = COMMAND_TIMEOUT_MS,
): RedisHealth {
  const to = (status: RedisStatus, reason: string | null): RedisHealth =>
    status === h.status && reason === h.reason ? h : { status, since: now, reason };
  switch (event.type) {
    case "ready":
      return to("up", null);
    case "answer":
      return h.status !== "up" && h.status !== "connecting" && connected ? to("up", null) : h;
    case "timeout":
      return h.status === "up" ? to("stalled", stalledReason(timeoutMs)) : h;
    case "error":
      return to("down", UNREACHABLE);
  }
}

/** A command was refused without asking Redis (not connected, or stalled), or got no reply in time. */
export class RedisUnavailableError extends Error {
  readonly name = "RedisUnavailableError";
}

export type RedisClient = ReturnType<typeof createClient>;

export type SharedRedis = {
  /** Runs commands on the connection: at once RedisUnavailableError while Redis is away, at most COMMAND_TIMEOUT_MS otherwise. */
  run<T>(commands: (client: RedisClient) => Promise<T>): Promise<T>;
  health(): RedisHealth;
  /** For /readyz: null when Redis answers a PING, otherwise why not. */
  check(): Promise<string | null>;
  close(): void;
};

/** Opens a connection (sharedRedis() keeps the process's one; tests open their own). */
export function connectRedis(url: string): SharedRedis {
  const logger = getLogger();
  const metrics = getMetrics();
  let health: RedisHealth = { status: "connecting", since: Date.now(), reason: UNREACHABLE };
  let outage: { since: number; reported: boolean } | null = null;
  let lastError = "";

  const client = createClient({
    url,
    // A command while disconnected fails at once instead of waiting, unbounded, for a reconnection.
    disableOfflineQueue: true,
    pingInterval: PING_INTERVAL_MS,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
      // Always try again (the default gives up after a socket timeout, the frozen-server case).
      reconnectStrategy: (retries) => reconnectDelay(retries),
    },
  });

  const dispatch = (event: RedisEvent) => {
    const before = health;
    health = nextHealth(health, event, Date.now(), client.isReady);
    if (health === before) return;
    if (health.status === "up") {
      if (outage?.reported)
        logger.warn(
          { outageMs: Date.now() - outage.since },
          "redis available again: rate limits and idempotency are shared through it again",
        );
      outage = null;
      return;
    }
    // One warning per outage (not per reconnection attempt), once it has lasted REPORT_AFTER_MS: a single slow
    // reply, or an event loop too busy to read one in time, recovers at once and is not worth two lines.
    if (outage) return;
    const current: { since: number; reported: boolean } = { since: health.since, reported: false };
    outage = current;
    setTimeout(() => {
      if (outage !== current) return;
      current.reported = true;
      logger.warn(
        { reason: health.reason, err: lastError || undefined },
        "redis unavailable: rate limits and idempotency fall back to this instance's memory",
      );
    }, REPORT_AFTER_MS).unref();
  };

  client.on("error", (error: unknown) => {
    lastError = errorFields(error).err;
    dispatch({ type: "error" });
  });
  client.on("ready", () => {
    lastError = "";
    dispatch({ type: "ready" });
  });
  client.on("ping-interval", () => dispatch({ type: "answer" }));
  // Never rejects while reconnection goes on; the 'error' listener above reports every failure.
  client.connect().catch(() => undefined);
  metrics?.trackRedis(() => health.status === "up");

  const run = <T>(commands: (c: RedisClient) => Promise<T>): Promise<T> => {
    if (health.status !== "up" || !client.isReady)
      return Promise.reject(new RedisUnavailableError(health.reason ?? UNREACHABLE));
    return new Promise<T>((resolve, reject) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        lastError = "";
        dispatch({ type: "timeout" });
        reject(new RedisUnavailableError(stalledReason(COMMAND_TIMEOUT_MS)));
      }, COMMAND_TIMEOUT_MS);
      commands(client).then(
        (value) => {
          clearTimeout(timer);
          // A reply after the time-out still proves Redis answers again.
          if (late) dispatch({ type: "answer" });
          else resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (late) return;
          // A command cut by the connection closing is Redis going away, not a fault of the command.
          reject(client.isReady ? error : new RedisUnavailableError(UNREACHABLE));
        },
      );
    });
  };

  return {
    run,
    health: () => health,
    async check() {
      try {
        await run((c) => c.ping());
        return null;
      } catch (error) {
        return error instanceof RedisUnavailableError ? error.message : UNREACHABLE;
      }
    },
    close() {
      if (client.isOpen) client.destroy();
    },
  };
}

/**
 * What a store's fallback to memory reports: a count on redis_fallbacks_total; a log line only for a failure
 * other than Redis being away (that is logged once per outage, above).
 */
export function reportFallback(store: RedisFallbackStore) {
  return (error: unknown) => {
    getMetrics()?.redisFallback(store);
    // By name: server.ts and the Remix build each hold their own copy of the class.
    if (!(error instanceof Error && error.name === "RedisUnavailableError"))
      getLogger().warn({ store, ...errorFields(error) }, "redis command failed: answered from memory");
  };
}

const KEY = Symbol.for("energyops.redis");
type WithRedis = typeof globalThis & { [KEY]?: SharedRedis | null };

/** The process's Redis connection, or null without REDIS_URL (every store then lives in memory). */
export function sharedRedis(): SharedRedis | null {
  const g = globalThis as WithRedis;
  if (g[KEY] === undefined) {
    const url = getConfig().REDIS_URL;
    g[KEY] = url ? connectRedis(url) : null;
  }
  return g[KEY];
}
