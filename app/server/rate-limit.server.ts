import { MemoryStore, type Store } from "express-rate-limit";
import { RedisStore } from "rate-limit-redis";
import { createClient } from "redis";
import { getConfig } from "./config.server";

let redis: ReturnType<typeof createClient> | undefined;

/**
 * A rate-limit store: in memory by default, shared through Redis when REDIS_URL is set, so several web
 * instances behind a load balancer count together (the web tier keeps no other state).
 */
export function makeRateLimitStore(prefix: string): Store {
  const cfg = getConfig();
  if (!cfg.REDIS_URL) return new MemoryStore();
  if (!redis) {
    redis = createClient({ url: cfg.REDIS_URL });
    redis.connect().catch((error: unknown) => console.error("redis connection failed", error));
  }
  const client = redis;
  return new RedisStore({ prefix: `rl:${prefix}:`, sendCommand: (...args: string[]) => client.sendCommand(args) });
}

export type LimitResult = { limited: boolean; retryAfterSeconds: number };

/** A counter over a window, keyed by whatever the caller chooses (an account's email). */
export function createKeyedLimiter(prefix: string, limit: number, windowMs: number) {
  const store = makeRateLimitStore(prefix);
  store.init?.({ windowMs } as never);
  return {
    async hit(key: string): Promise<LimitResult> {
      const { totalHits, resetTime } = await store.increment(key.toLowerCase());
      const retryAfterSeconds = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000));
      return { limited: totalHits > limit, retryAfterSeconds };
    },
    reset: (key: string) => store.resetKey(key.toLowerCase()),
  };
}

let accountLimiter: ReturnType<typeof createKeyedLimiter> | undefined;

/** The strict per-account limit on sign-in attempts (office users share one IP; accounts do not). */
export function signInAccountLimiter() {
  const cfg = getConfig();
  accountLimiter ??= createKeyedLimiter("signin-account", cfg.LOGIN_RATE_LIMIT_PER_ACCOUNT, cfg.LOGIN_RATE_LIMIT_WINDOW_MS);
  return accountLimiter;
}

/** "Please try again in 5 minutes." style wording for a 429. */
export function retryAfterText(seconds: number) {
  if (seconds < 60) return `Too many attempts. Please try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
