import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisAvailable, startRedis } from "../support/redis";
import { startStack, type Stack } from "../support/stack";

/**
 * The per-account+address and per-account counters of failed sign-ins and the login-options limit, shared by
 * two web instances through one real redis-server (REDIS_URL); refused attempts taken back in Redis too.
 */
const hasRedis = redisAvailable("the shared sign-in limits test");

const login = (base: string, ip: string, email: string, password: string) =>
  fetch(`${base}/login?email=${encodeURIComponent(email)}`, {
    method: "POST",
    body: new URLSearchParams({ intent: "password", email, password, next: "/" }),
    redirect: "manual",
    headers: { "X-Forwarded-For": ip },
  });

describe.skipIf(!hasRedis)("sign-in limits shared through Redis (REDIS_URL)", () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let a: Stack;
  let b: Stack;

  beforeAll(async () => {
    redis = await startRedis();
    const env = {
      REDIS_URL: redis.url,
      TRUST_PROXY: "1",
      LOGIN_RATE_LIMIT_PER_IP: "1000",
      LOGIN_RATE_LIMIT_PER_ACCOUNT_IP: "3",
      LOGIN_RATE_LIMIT_PER_ACCOUNT: "6",
      LOGIN_RATE_LIMIT_WINDOW_MS: "60000",
      LOGIN_OPTIONS_RATE_LIMIT_PER_IP: "2",
    };
    [a, b] = await Promise.all([startStack(env), startStack(env)]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    redis?.stop();
  });

  it("one address's failures on both instances add up; refused attempts do not count; the owner elsewhere signs in", async () => {
    const email = "alex@mapledental.test";
    expect((await login(a.url, "203.0.113.1", email, "wrong-1")).status).toBe(401);
    expect((await login(b.url, "203.0.113.1", email, "wrong-2")).status).toBe(401);
    expect((await login(a.url, "203.0.113.1", email, "wrong-3")).status).toBe(401);
    // Refused on both instances, many times: each refusal is taken back from the account's count.
    for (let i = 0; i < 5; i++) {
      const refused = await login(i % 2 ? a.url : b.url, "203.0.113.1", email, "wrong");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // 3 failures counted for the account (ceiling 6): the owner at another address signs in on either.
    expect((await login(b.url, "198.51.100.5", email, "demo-pass-2024")).status).toBe(302);
    // Three more failures from another address reach the account's ceiling, seen by both instances.
    for (let i = 0; i < 3; i++)
      expect((await login(i % 2 ? a.url : b.url, "203.0.113.2", email, "wrong")).status).toBe(401);
    expect((await login(b.url, "203.0.113.3", email, "wrong")).status).toBe(429);
    expect((await login(a.url, "198.51.100.5", email, "demo-pass-2024")).status).toBe(429);
    expect(a.alive() && b.alive()).toBe(true);
  });

  it("the login-options limit counts lookups on both instances", async () => {
    const lookup = (base: string) =>
      fetch(`${base}/login?email=x%40example.test`, { headers: { "X-Forwarded-For": "192.0.2.77" } });
    expect((await lookup(a.url)).status).toBe(200);
    expect((await lookup(b.url)).status).toBe(200);
    expect((await lookup(a.url)).status).toBe(429);
  });
});
