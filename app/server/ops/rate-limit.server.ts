import { createHash } from "node:crypto";
import {
  MemoryStore,
  type ClientRateLimitInfo,
  type IncrementResponse,
  type Options,
  type Store,
} from "express-rate-limit";
import { getConfig } from "~/server/config.server";
import { getMetrics } from "./metrics.server";
import { reportFallback, sharedRedis, type SharedRedis } from "./redis.server";

/**
 * A fixed window per key, opened by its first hit (PX): the count and the time left. A key without a TTL (left
 * by an older store's DECR of a missing key) starts a fresh window rather than counting forever.
 */
const INCREMENT = `local ttl = redis.call("PTTL", KEYS[1])
if ttl <= 0 then
  redis.call("SET", KEYS[1], 1, "PX", ARGV[1])
  return { 1, tonumber(ARGV[1]) }
end
return { redis.call("INCR", KEYS[1]), ttl }`;
/** Takes back one hit, never below zero and never on a missing key (which would create a count without TTL). */
const DECREMENT = `local n = tonumber(redis.call("GET", KEYS[1]) or "0")
if n > 0 then return redis.call("DECR", KEYS[1]) end
return 0`;
const sha1 = (script: string) => createHash("sha1").update(script).digest("hex");
const SCRIPTS = { increment: INCREMENT, decrement: DECREMENT };
const SHAS = { increment: sha1(INCREMENT), decrement: sha1(DECREMENT) };

/** Counters in Redis, shared by every instance: one key per client, `rl:<limiter>:<key>`. */
export class RedisRateLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  private windowMs = 60_000;

  constructor(
    private readonly redis: Pick<SharedRedis, "run">,
    limiter: string,
  ) {
    this.prefix = `rl:${limiter}:`;
  }

  init(options: Pick<Options, "windowMs">) {
    this.windowMs = options.windowMs;
  }

  /** A script by its hash, loaded again after a Redis restart (NOSCRIPT), in one round of the time budget. */
  private script(name: keyof typeof SCRIPTS, key: string, args: string[]) {
    return this.redis.run(async (c) => {
      const tail = ["1", this.prefix + key, ...args];
      try {
        return await c.sendCommand(["EVALSHA", SHAS[name], ...tail]);
      } catch (error) {
        if (!String(error).includes("NOSCRIPT")) throw error;
        return c.sendCommand(["EVAL", SCRIPTS[name], ...tail]);
      }
    });
  }

  async increment(key: string): Promise<IncrementResponse> {
    const reply = await this.script("increment", key, [String(this.windowMs)]);
    if (!Array.isArray(reply) || reply.length !== 2) throw new Error("unexpected reply from redis");
    return { totalHits: Number(reply[0]), resetTime: new Date(Date.now() + Number(reply[1])) };
  }

  async decrement(key: string) {
    await this.script("decrement", key, []);
  }

  async resetKey(key: string) {
    await this.redis.run((c) => c.del(this.prefix + key));
  }
}

/**
 * The store used with REDIS_URL: every hit is counted in Redis (shared by the instances) and in this instance's
 * memory. While Redis answers, the larger of the two counts decides; while it does not (down, restarting, too
 * slow), the memory count alone does.
 *
 * What the fallback must never do: let an attacker bypass a limit by taking Redis away (or waiting for a
 * failover). So the memory count is kept all along, not started at the outage: the hits this instance saw before
 * Redis went away still count during the outage, and after Redis comes back empty (a restart without
 * persistence) until their window ends. During an outage a limit therefore holds per instance: an attacker
 * spread over N instances gets at most N times the limit, never an unlimited number of tries.
 */
export class FallbackRateLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;

  constructor(
    private readonly shared: Store,
    private readonly local: Store,
    private readonly onFallback: (error: unknown) => void,
  ) {
    this.prefix = shared.prefix ?? "";
  }

  init(options: Options) {
    this.shared.init?.(options);
    this.local.init?.(options);
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const mine = await this.local.increment(key);
    try {
      const all = await this.shared.increment(key);
      return all.totalHits >= mine.totalHits ? all : mine;
    } catch (error) {
      this.onFallback(error);
      return mine;
    }
  }

  async decrement(key: string) {
    await this.local.decrement(key);
    try {
      await this.shared.decrement(key);
    } catch (error) {
      this.onFallback(error);
    }
  }

  async resetKey(key: string) {
    await this.local.resetKey(key);
    try {
      await this.shared.resetKey(key);
    } catch (error) {
      this.onFallback(error);
    }
  }

  shutdown() {
    return this.local.shutdown?.();
  }
}

/**
 * A rate-limit store: in memory by default; with REDIS_URL, shared through Redis with this instance's memory as
 * the fallback (FallbackRateLimitStore), so several instances behind a load balancer count together and an
 * outage of Redis never stops sign-in.
 */
export function makeRateLimitStore(prefix: string): Store {
  const redis = sharedRedis();
  if (!redis) return new MemoryStore();
  return new FallbackRateLimitStore(
    new RedisRateLimitStore(redis, prefix),
    new MemoryStore(),
    reportFallback("rate_limit"),
  );
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
