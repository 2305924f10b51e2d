import { MemoryStore, type Options, type Store } from "express-rate-limit";
import { describe, expect, it } from "vitest";
import {
  FallbackIdempotencyStore,
  MemoryIdempotencyStore,
  once,
  type IdempotencyStore,
} from "~/server/idempotency.server";
import { FallbackRateLimitStore } from "~/server/ops/rate-limit.server";
import {
  nextHealth,
  reconnectDelay,
  RedisUnavailableError,
  stalledReason,
  UNREACHABLE,
  type RedisHealth,
} from "~/server/ops/redis.server";

/** A stand-in for Redis: a working store while `up`, RedisUnavailableError on every call while not. */
function switchable<T extends object>(make: () => T) {
  const state = { up: true, store: make() };
  const proxy = new Proxy({} as T, {
    get(_t, name) {
      const value = (state.store as Record<string | symbol, unknown>)[name];
      if (typeof value !== "function") return value;
      return (...args: unknown[]) =>
        state.up
          ? (value as (...a: unknown[]) => unknown).apply(state.store, args)
          : Promise.reject(new RedisUnavailableError(UNREACHABLE));
    },
  });
  return {
    store: proxy,
    down: () => void (state.up = false),
    up: () => void (state.up = true),
    /** Redis back after a restart without persistence: up, and empty. */
    restartEmpty: () => {
      state.store = make();
      state.up = true;
    },
  };
}

const WINDOW = { windowMs: 60_000 } as Options;

function rateLimitPair() {
  const redis = switchable<Store>(() => {
    const s = new MemoryStore();
    s.init(WINDOW);
    return s;
  });
  const fallbacks: unknown[] = [];
  const store = new FallbackRateLimitStore(redis.store, new MemoryStore(), (e) => fallbacks.push(e));
  store.init(WINDOW);
  return { redis, store, fallbacks };
}

describe("the rate-limit fallback (Redis, then this instance's memory)", () => {
  it("counts in Redis while it answers: another instance's hits count here", async () => {
    const { redis, store, fallbacks } = rateLimitPair();
    await redis.store.increment("k"); // another instance's hit, in Redis only
    expect((await store.increment("k")).totalHits).toBe(2);
    expect(fallbacks).toEqual([]);
  });

  it("keeps limiting while Redis is away, counting on from the hits this instance saw before", async () => {
    const { redis, store, fallbacks } = rateLimitPair();
    await store.increment("k");
    await store.increment("k");
    redis.down();
    // Never a fresh start at the outage: an attacker cannot reset the limit by taking Redis away.
    expect((await store.increment("k")).totalHits).toBe(3);
    expect((await store.increment("k")).totalHits).toBe(4);
    expect(fallbacks).toHaveLength(2);
    expect(fallbacks[0]).toBeInstanceOf(RedisUnavailableError);
    // Taking a hit back and resetting work on memory alone too.
    await store.decrement("k");
    expect((await store.increment("k")).totalHits).toBe(4);
    await store.resetKey("k");
    expect((await store.increment("k")).totalHits).toBe(1);
  });

  it("after Redis comes back empty, the larger count decides until this instance's window ends", async () => {
    const { redis, store } = rateLimitPair();
    for (let i = 0; i < 5; i++) await store.increment("k");
    redis.restartEmpty();
    expect((await store.increment("k")).totalHits).toBe(6);
    // Redis counts again, and is shared again: a hit elsewhere shows.
    for (let i = 0; i < 10; i++) await redis.store.increment("k");
    expect((await store.increment("k")).totalHits).toBe(12);
  });

  it("takes a hit back in both counts, so a refused attempt does not count anywhere", async () => {
    const { redis, store } = rateLimitPair();
    await store.increment("k");
    await store.decrement("k");
    expect((await redis.store.increment("k")).totalHits).toBe(1);
    redis.down();
    expect((await store.increment("k")).totalHits).toBe(1);
  });
});

function idempotencyPair() {
  const redis = switchable<IdempotencyStore>(() => new MemoryIdempotencyStore());
  const fallbacks: unknown[] = [];
  const local = new MemoryIdempotencyStore();
  const store = new FallbackIdempotencyStore(redis.store, local, (e) => fallbacks.push(e));
  return { redis, store, local, fallbacks };
}

const settle = () => new Promise((r) => setTimeout(r, 5));

describe("the idempotency fallback (Redis, then this instance's memory)", () => {
  it("claims in Redis: a key another instance holds is refused, and its progress read from Redis", async () => {
    const { redis, store } = idempotencyPair();
    expect(await redis.store.claim("k", 1000)).toBe(true); // another instance
    expect(await store.claim("k", 1000)).toBe(false);
    expect(await store.read("k")).toEqual({ state: "pending" });
    await redis.store.finish("k", "theirs", 1000);
    expect(await store.read("k")).toEqual({ state: "done", outcome: "theirs" });
  });

  it("never runs a submission twice on one instance when Redis goes away mid-submission", async () => {
    const { redis, store } = idempotencyPair();
    let runs = 0;
    let finishRun: (v: string) => void = () => undefined;
    const run = () => {
      runs++;
      return new Promise<string>((r) => (finishRun = r));
    };
    const first = once("k", run, () => true, { store, pollMs: 1 });
    await settle();
    redis.down();
    const repeat = once("k", run, () => true, { store, pollMs: 1 });
    await settle();
    expect(runs).toBe(1);
    finishRun("done once");
    expect(await first).toBe("done once");
    expect(await repeat).toBe("done once");
    expect(runs).toBe(1);
  });

  it("works on memory alone while Redis is away, and keeps the outcome when Redis comes back empty", async () => {
    const { redis, store, fallbacks } = idempotencyPair();
    redis.down();
    let runs = 0;
    const run = async () => `outcome ${++runs}`;
    expect(await once("k", run, () => true, { store })).toBe("outcome 1");
    expect(await once("k", run, () => true, { store })).toBe("outcome 1");
    expect(fallbacks.length).toBeGreaterThan(0);
    redis.restartEmpty();
    expect(await once("k", run, () => true, { store })).toBe("outcome 1");
    expect(runs).toBe(1);
    // New submissions are shared through Redis again.
    expect(await once("n", run, () => true, { store })).toBe("outcome 2");
    expect(await redis.store.read("n")).toEqual({ state: "done", outcome: "outcome 2" });
  });

  it("releases in both stores an outcome that may be retried, even while Redis is away", async () => {
    const { redis, store, local } = idempotencyPair();
    expect(
      await once(
        "k",
        async () => "retry me",
        () => false,
        { store },
      ),
    ).toBe("retry me");
    expect(await redis.store.read("k")).toBeNull();
    redis.down();
    expect(
      await once(
        "k",
        async () => "again",
        () => false,
        { store },
      ),
    ).toBe("again");
    expect(await local.read("k")).toBeNull();
  });
});

describe("the Redis connection's health (nextHealth)", () => {
  const at = (status: RedisHealth["status"], reason: string | null = null): RedisHealth => ({
    status,
    since: 0,
    reason,
  });

  it("is up once ready, stalled after a time-out, up again on the next reply", () => {
    const up = nextHealth(at("connecting", UNREACHABLE), { type: "ready" }, 10, true);
    expect(up).toEqual({ status: "up", since: 10, reason: null });
    const stalled = nextHealth(up, { type: "timeout" }, 20, true, 250);
    expect(stalled).toEqual({ status: "stalled", since: 20, reason: stalledReason(250) });
    expect(stalled.reason).toBe("redis did not answer within 250 ms");
    // Further time-outs keep the outage's start.
    expect(nextHealth(stalled, { type: "timeout" }, 30, true)).toBe(stalled);
    expect(nextHealth(stalled, { type: "answer" }, 40, true)).toEqual({
      status: "up",
      since: 40,
      reason: null,
    });
  });

  it("is down on a connection error until the next ready; a late reply does not bring back a closed connection", () => {
    const down = nextHealth(at("up"), { type: "error" }, 10, false);
    expect(down).toEqual({ status: "down", since: 10, reason: "redis unreachable" });
    expect(nextHealth(down, { type: "error" }, 20, false)).toBe(down);
    expect(nextHealth(down, { type: "answer" }, 20, false)).toBe(down);
    expect(nextHealth(down, { type: "timeout" }, 20, false)).toBe(down);
    expect(nextHealth(down, { type: "ready" }, 30, true).status).toBe("up");
    // An error that did not close the connection: the next reply proves Redis answers.
    expect(nextHealth(down, { type: "answer" }, 40, true).status).toBe("up");
  });

  it("reconnects with a doubling back-off capped at about two seconds", () => {
    expect([0, 1, 2, 3, 4, 5, 10, 100].map((n) => reconnectDelay(n, 0))).toEqual([
      100, 200, 400, 800, 1600, 2000, 2000, 2000,
    ]);
    expect(reconnectDelay(100, 0.999)).toBe(2099);
  });
});
