import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisRateLimitStore } from "~/server/ops/rate-limit.server";
import { connectRedis, RedisUnavailableError, type SharedRedis } from "~/server/ops/redis.server";
import { controllableRedis, redisAvailable } from "../support/redis";

/**
 * The web process's Redis connection (redis.server.ts) and the shared rate-limit store against a real
 * redis-server that is shut down, restarted and frozen: a command never waits long, the connection comes back
 * by itself, and the counters survive a restart's flushed script cache.
 */
const hasRedis = redisAvailable("the Redis connection tests");

async function until(what: string, ok: () => boolean, ms = 8000) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** How a command ends and how long it took. */
async function timed(redis: SharedRedis) {
  const started = performance.now();
  try {
    await redis.run((c) => c.ping());
    return { ok: true, error: null, ms: performance.now() - started };
  } catch (error) {
    return { ok: false, error, ms: performance.now() - started };
  }
}

describe.skipIf(!hasRedis)("the Redis connection (a real redis-server going away)", () => {
  let server: Awaited<ReturnType<typeof controllableRedis>>;
  let redis: SharedRedis;

  beforeAll(async () => {
    server = await controllableRedis();
    redis = connectRedis(server.url);
    await until("connected", () => redis.health().status === "up");
  });

  afterAll(() => {
    redis?.close();
    server?.stop();
  });

  it("fails at once while Redis is shut down, and reconnects by itself when it is back", async () => {
    expect((await timed(redis)).ok).toBe(true);
    await server.shutdownNosave();
    await until("down", () => redis.health().status === "down");
    const refused = await timed(redis);
    expect(refused.error).toBeInstanceOf(RedisUnavailableError);
    expect(refused.ms).toBeLessThan(20);
    expect(await redis.check()).toBe("redis unreachable");
    await server.restart();
    await until("up again", () => redis.health().status === "up");
    expect(await redis.check()).toBeNull();
  });

  it("gives up on a frozen Redis within the command budget, then fails at once until it answers again", async () => {
    server.freeze();
    try {
      const first = await timed(redis);
      expect(first.error).toBeInstanceOf(RedisUnavailableError);
      expect(String(first.error)).toMatch(/redis did not answer within 250 ms/);
      expect(first.ms).toBeGreaterThanOrEqual(240);
      expect(first.ms).toBeLessThan(400);
      expect(redis.health().status).toBe("stalled");
      const next = await timed(redis);
      expect(next.ok).toBe(false);
      expect(next.ms).toBeLessThan(20);
    } finally {
      server.thaw();
    }
    await until("answering again", () => redis.health().status === "up");
    expect((await timed(redis)).ok).toBe(true);
  });

  it("stays frozen longer than the socket time-out: drops the connection, and opens a new one after SIGCONT", async () => {
    server.freeze();
    try {
      expect((await timed(redis)).ok).toBe(false);
      await until("connection dropped", () => redis.health().status === "down", 6000);
    } finally {
      server.thaw();
    }
    await until("reconnected", () => redis.health().status === "up");
    expect((await timed(redis)).ok).toBe(true);
  });
});

describe.skipIf(!hasRedis)("the shared rate-limit store (RedisRateLimitStore)", () => {
  let server: Awaited<ReturnType<typeof controllableRedis>>;
  let redis: SharedRedis;
  let raw: ReturnType<typeof createClient>;

  beforeAll(async () => {
    server = await controllableRedis();
    redis = connectRedis(server.url);
    await until("connected", () => redis.health().status === "up");
  });

  afterAll(() => {
    redis?.close();
    raw?.destroy();
    server?.stop();
  });

  it("counts in one window per key, and keeps counting after a restart flushed its scripts", async () => {
    const store = new RedisRateLimitStore(redis, "test");
    store.init({ windowMs: 60_000 });
    expect((await store.increment("a")).totalHits).toBe(1);
    const second = await store.increment("a");
    expect(second.totalHits).toBe(2);
    expect(second.resetTime!.getTime() - Date.now()).toBeGreaterThan(50_000);
    await server.shutdownNosave();
    await server.restart();
    await until("up again", () => redis.health().status === "up");
    expect((await store.increment("a")).totalHits).toBe(1);
  });

  it("takes a hit back never below zero, and never creates a count without expiry", async () => {
    const store = new RedisRateLimitStore(redis, "test");
    store.init({ windowMs: 60_000 });
    raw = createClient({ url: server.url });
    await raw.connect();
    await store.decrement("missing");
    expect(await raw.exists("rl:test:missing")).toBe(0);
    await store.increment("b");
    await store.decrement("b");
    await store.decrement("b");
    expect(await raw.get("rl:test:b")).toBe("0");
    expect(await raw.pTTL("rl:test:b")).toBeGreaterThan(0);
    await store.resetKey("b");
    expect(await raw.exists("rl:test:b")).toBe(0);
  });
});
