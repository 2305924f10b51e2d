import { MemoryStore, type Store } from "express-rate-limit";
import { RedisStore } from "rate-limit-redis";
import { createClient } from "redis";
import { getConfig } from "./config.server";
import { errorFields, getLogger } from "./logger.server";
import { getMetrics } from "./metrics.server";

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
    redis
      .connect()
      .catch((error: unknown) =>
        getLogger().error(errorFields(error), "redis connection failed (rate-limit store)"),
      );
  }
  const client = redis;
  return new RedisStore({
    prefix: `rl:${prefix}:`,
    sendCommand: (...args: string[]) => client.sendCommand(args),
  });
}

export type LimitResult = { limited: boolean; retryAfterSeconds: number };

const retryAfter = (resetTime: Date | undefined, windowMs: number) =>
  Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000));

/** A counter over a window, keyed by whatever the caller chooses (an account's email, an IP). */
export function createKeyedLimiter(prefix: string, limit: number, windowMs: number) {
  const store = makeRateLimitStore(prefix);
  store.init?.({ windowMs } as never);
  return {
    async hit(key: string): Promise<LimitResult> {
      const { totalHits, resetTime } = await store.increment(key.toLowerCase());
      const limited = totalHits > limit;
      if (limited) getMetrics()?.rateLimitRefusal(prefix);
      return { limited, retryAfterSeconds: retryAfter(resetTime, windowMs) };
    },
    /** Takes back one hit (an attempt that turned out not to count). */
    undo: (key: string) => store.decrement(key.toLowerCase()),
    reset: (key: string) => store.resetKey(key.toLowerCase()),
  };
}

type KeyedLimiter = ReturnType<typeof createKeyedLimiter>;
let accountIpLimiter: KeyedLimiter | undefined;
let accountLimiter: KeyedLimiter | undefined;
let optionsLimiter: KeyedLimiter | undefined;

/**
 * Failed password and code attempts (ASVS 2.2.1, NIST 800-63B 5.2.2), counted twice: per account and client
 * address (LOGIN_RATE_LIMIT_PER_ACCOUNT_IP, strict: one address guessing one account), and per account over
 * all addresses (LOGIN_RATE_LIMIT_PER_ACCOUNT, NIST's ceiling of 100). A stranger at one address therefore
 * cannot lock the owner out at another; only a distributed attack reaches the account ceiling, and even then
 * only password and code sign-in wait: login links and password reset keep only their per-IP limit.
 *
 * Usage: `begin()` before the upstream call counts the attempt (so concurrent guesses cannot slip past the
 * limit) and answers whether it is refused (a refused attempt is taken back: it does not count). A wrong
 * password or code keeps the hit; otherwise call `succeeded()` (clears the address's counter, takes back the
 * account's hit) or `abandoned()` (an upstream failure, not a wrong password: takes both back).
 */
export async function beginSignInAttempt(email: string, ip: string) {
  const cfg = getConfig();
  accountIpLimiter ??= createKeyedLimiter(
    "signin-account-ip",
    cfg.LOGIN_RATE_LIMIT_PER_ACCOUNT_IP,
    cfg.LOGIN_RATE_LIMIT_WINDOW_MS,
  );
  accountLimiter ??= createKeyedLimiter(
    "signin-account",
    cfg.LOGIN_RATE_LIMIT_PER_ACCOUNT,
    cfg.LOGIN_RATE_LIMIT_WINDOW_MS,
  );
  const byAccountIp = accountIpLimiter;
  const byAccount = accountLimiter;
  const accountIpKey = `${email}|${ip}`;
  const [a, b] = await Promise.all([byAccountIp.hit(accountIpKey), byAccount.hit(email)]);
  const undoBoth = () =>
    Promise.all([byAccountIp.undo(accountIpKey), byAccount.undo(email)]).then(() => undefined);
  if (a.limited || b.limited) {
    await undoBoth();
    const retryAfterSeconds = Math.max(
      a.limited ? a.retryAfterSeconds : 0,
      b.limited ? b.retryAfterSeconds : 0,
    );
    return { limited: { retryAfterSeconds } } as const;
  }
  return {
    limited: null,
    succeeded: () =>
      Promise.all([byAccountIp.reset(accountIpKey), byAccount.undo(email)]).then(() => undefined),
    abandoned: undoBoth,
  } as const;
}

/** Per-IP limit on the login-options lookup (`GET /login?email=`): it tells which sign-in methods an email has. */
export function loginOptionsLimiter() {
  const cfg = getConfig();
  optionsLimiter ??= createKeyedLimiter(
    "login-options-ip",
    cfg.LOGIN_OPTIONS_RATE_LIMIT_PER_IP,
    cfg.LOGIN_RATE_LIMIT_WINDOW_MS,
  );
  return optionsLimiter;
}

/** "Please try again in 5 minutes." style wording for a 429. */
export function retryAfterText(seconds: number) {
  if (seconds < 60)
    return `Too many attempts. Please try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
