import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisAvailable, startRedis } from "../support/redis";
import { startStack, type Stack } from "../support/stack";

/**
 * REDIS_URL: several web instances count sign-in attempts together. Two production servers share one real
 * redis-server (started here on a free port, nothing persisted); attempts spread over both hit one limit.
 */
const hasRedis = redisAvailable("the shared rate-limit store test");

const postLogin = (base: string, email: string, password: string) =>
  fetch(`${base}/login?email=${encodeURIComponent(email)}`, {
    method: "POST",
    body: new URLSearchParams({ intent: "password", email, password, next: "/" }),
    redirect: "manual",
  });

describe.skipIf(!hasRedis)("rate limits shared through Redis (REDIS_URL)", () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let a: Stack;
  let b: Stack;

  beforeAll(async () => {
    redis = await startRedis();
    const env = {
      REDIS_URL: redis.url,
      LOGIN_RATE_LIMIT_PER_ACCOUNT: "3",
      LOGIN_RATE_LIMIT_PER_IP: "1000",
      LOGIN_RATE_LIMIT_WINDOW_MS: "60000",
    };
    [a, b] = await Promise.all([startStack(env), startStack(env)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    redis?.stop();
  });

  it("attempts on two instances add up to one per-account limit, with Retry-After on both", async () => {
    const email = "alex@mapledental.test";
    expect((await postLogin(a.url, email, "wrong-1")).status).toBe(401);
    expect((await postLogin(b.url, email, "wrong-2")).status).toBe(401);
    expect((await postLogin(a.url, email, "wrong-3")).status).toBe(401);
    const limitedB = await postLogin(b.url, email, "wrong-4");
    expect(limitedB.status).toBe(429);
    expect(Number(limitedB.headers.get("retry-after"))).toBeGreaterThan(0);
    const limitedA = await postLogin(a.url, email, "wrong-5");
    expect(limitedA.status).toBe(429);
    // Another account is not affected.
    expect((await postLogin(a.url, "dana@harborcoffee.test", "wrong")).status).toBe(401);
    expect(a.alive() && b.alive()).toBe(true);
  });
});
