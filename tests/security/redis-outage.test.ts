import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DANA } from "../support/pages";
import { controllableRedis, redisAvailable } from "../support/redis";
import { freePort, startStack, type Stack } from "../support/stack";

/**
 * The web tier survives Redis going away (REDIS_URL set): shut down (SHUTDOWN NOSAVE, a failover), never
 * reachable at start-up, or frozen (SIGSTOP: the connection stays open, nothing answers). Every instance stays
 * alive and answers pages, /healthz and sign-in within a second, with limits and idempotency in its own memory;
 * /readyz says "degraded" (200); once Redis is back, the instances share their counts through it again.
 */
const hasRedis = redisAvailable("the Redis outage tests");

const SECOND = 1000;

/** One request that must be answered within a second (then its status and how long it took). */
async function within1s(url: string, init: RequestInit = {}) {
  const started = performance.now();
  try {
    const res = await fetch(url, { redirect: "manual", ...init, signal: AbortSignal.timeout(SECOND) });
    const body = await res.text();
    return { status: res.status, body, headers: res.headers, ms: performance.now() - started };
  } catch (error) {
    throw new Error(`${init.method ?? "GET"} ${url} was not answered within 1 s (${String(error)})`);
  }
}

const signIn = (base: string, email: string, password: string) =>
  within1s(`${base}/login?email=${encodeURIComponent(email)}`, {
    method: "POST",
    body: new URLSearchParams({ intent: "password", email, password, next: "/" }),
  });

type Ready = { status: string; checks: { api: string; redis: string }; reasons?: string[] };

async function readyz(base: string) {
  const r = await within1s(`${base}/readyz`);
  return { status: r.status, body: JSON.parse(r.body) as Ready };
}

/** Polls /readyz until its body's status is `want` (within `ms`), and returns that answer. */
async function readyzBecomes(base: string, want: "ready" | "degraded", ms = 10 * SECOND) {
  const deadline = Date.now() + ms;
  let last: Awaited<ReturnType<typeof readyz>> | undefined;
  while (Date.now() < deadline) {
    last = await readyz(base);
    if (last.body.status === want) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`/readyz did not become ${want} within ${ms} ms: ${JSON.stringify(last?.body)}`);
}

async function redisUp(metricsPort: number) {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return /^redis_up (\d+)$/m.exec(text)?.[1];
}

const lines = (s: Stack, pattern: RegExp) =>
  s.logs
    .join("")
    .split("\n")
    .filter((l) => pattern.test(l));

/**
 * The log lines matching `pattern` once the first has appeared (within `ms`): the outage is logged only once it
 * has lasted a second, so on a fast machine the requests above can all be answered before it is.
 */
async function loggedLines(s: Stack, pattern: RegExp, ms = 5 * SECOND) {
  const deadline = Date.now() + ms;
  while (lines(s, pattern).length === 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  return lines(s, pattern);
}

/** Everything a visitor and a signed-in user do, each answered within a second; returns the slowest. */
async function servesEverything(base: string) {
  const health = await within1s(`${base}/healthz`);
  expect(health.status).toBe(200);
  const page = await within1s(`${base}/login`);
  expect(page.status).toBe(200);
  const options = await within1s(`${base}/login?email=${encodeURIComponent(DANA)}`);
  expect(options.status).toBe(200);
  const signedIn = await signIn(base, DANA, "demo-pass-2024");
  expect(signedIn.status).toBe(302);
  const cookie = signedIn.headers
    .getSetCookie()
    .find((c) => c.includes("session="))!
    .split(";")[0];
  const control = await within1s(`${base}/locations/104/control`, { headers: { cookie } });
  expect(control.status).toBe(200);
  return Math.max(health.ms, page.ms, options.ms, signedIn.ms, control.ms);
}

/** The same thermostat setting posted three times at once to one instance: vendor commands sent, answers. */
async function doubleSubmit(s: Stack) {
  const signedIn = await signIn(s.url, DANA, "demo-pass-2024");
  const cookie = signedIn.headers
    .getSetCookie()
    .find((c) => c.includes("session="))!
    .split(";")[0];
  const page = await within1s(`${s.url}/locations/104/control`, { headers: { cookie } });
  const form = page.body.split("<form").find((f) => f.includes('name="thermostatId" value="1011"'))!;
  const field = (name: string) => new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(form)?.[1] ?? "";
  const cool = Number(field("coolSetpointF"));
  const body = new URLSearchParams({
    thermostatId: "1011",
    tab: field("tab"),
    submissionId: field("submissionId"),
    mode: "cool",
    coolSetpointF: String(cool >= 85 ? cool - 1 : cool + 1),
    heatSetpointF: field("heatSetpointF"),
    intent: "save",
  });
  const vendorCalls = () =>
    s.proxy.calls.filter((c) => c.method === "POST" && c.path === "/thermostats/1011/settings").length;
  const before = vendorCalls();
  const answers = await Promise.all(
    [0, 1, 2].map(() =>
      fetch(`${s.url}/locations/104/control`, {
        method: "POST",
        headers: { cookie },
        body,
        redirect: "manual",
      }),
    ),
  );
  return {
    vendorCalls: vendorCalls() - before,
    statuses: answers.map((r) => r.status),
    sameAnswer: new Set(answers.map((r) => r.headers.get("location"))).size === 1,
  };
}

describe.skipIf(!hasRedis)("Redis shut down while two instances run, then back on the same port", () => {
  let redis: Awaited<ReturnType<typeof controllableRedis>>;
  let a: Stack;
  let b: Stack;
  let metricsPort: number;

  beforeAll(async () => {
    redis = await controllableRedis();
    metricsPort = await freePort();
    const env = {
      REDIS_URL: redis.url,
      LOGIN_RATE_LIMIT_PER_ACCOUNT: "3",
      LOGIN_RATE_LIMIT_WINDOW_MS: "60000",
    };
    [a, b] = await Promise.all([startStack({ ...env, METRICS_PORT: String(metricsPort) }), startStack(env)]);
    await Promise.all([readyzBecomes(a.url, "ready"), readyzBecomes(b.url, "ready")]);
  }, 60_000);

  afterAll(async () => {
    // Redis first: a server that fails to stop must not leave a redis-server behind.
    redis?.stop();
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it("both stay alive and answer within a second; /readyz says degraded; limits still apply per instance", async () => {
    await redis.shutdownNosave();
    // The instances used to die within 3 s of the shutdown: serve for longer than that.
    let slowest = 0;
    const until = Date.now() + 4 * SECOND;
    while (Date.now() < until)
      for (const s of [a, b]) slowest = Math.max(slowest, await servesEverything(s.url));
    expect(slowest).toBeLessThan(SECOND);
    expect(a.alive() && b.alive()).toBe(true);

    for (const s of [a, b]) {
      const ready = await readyz(s.url);
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({
        status: "degraded",
        checks: { api: "ok", redis: "failing" },
        reasons: ["redis unreachable"],
      });
    }
    expect(await redisUp(metricsPort)).toBe("0");
    // One warning per outage, not one per reconnection attempt.
    for (const s of [a, b]) expect(await loggedLines(s, /redis unavailable/)).toHaveLength(1);

    // The per-account limit (3) still holds on each instance, in its memory.
    const email = "riley@greenwayhomes.test";
    for (let i = 0; i < 3; i++) expect((await signIn(a.url, email, `wrong-${i}`)).status).toBe(401);
    expect((await signIn(a.url, email, "wrong-again")).status).toBe(429);

    // A double submit on one instance still reaches the api once (idempotency in the instance's memory).
    expect(await doubleSubmit(a)).toEqual({ vendorCalls: 1, statuses: [302, 302, 302], sameAnswer: true });
    // Redis being away is not logged once per command.
    for (const s of [a, b]) expect(lines(s, /redis command failed/)).toEqual([]);
    expect(a.alive() && b.alive()).toBe(true);
  }, 30_000);

  it("shares one count through Redis again once it is back", async () => {
    await redis.restart();
    await Promise.all([readyzBecomes(a.url, "ready"), readyzBecomes(b.url, "ready")]);
    expect((await readyz(a.url)).body.checks).toEqual({ api: "ok", redis: "ok" });
    expect(await redisUp(metricsPort)).toBe("1");
    for (const s of [a, b]) expect(await loggedLines(s, /redis available again/)).toHaveLength(1);

    const email = "morgan@energyops.test";
    expect((await signIn(a.url, email, "wrong-1")).status).toBe(401);
    expect((await signIn(b.url, email, "wrong-2")).status).toBe(401);
    expect((await signIn(a.url, email, "wrong-3")).status).toBe(401);
    expect((await signIn(b.url, email, "wrong-4")).status).toBe(429);
    expect((await signIn(a.url, email, "wrong-5")).status).toBe(429);
    expect(a.alive() && b.alive()).toBe(true);
  }, 30_000);
});

describe.skipIf(!hasRedis)("a server started while Redis is unreachable", () => {
  let redis: Awaited<ReturnType<typeof controllableRedis>>;
  let s: Stack;
  let metricsPort: number;

  beforeAll(async () => {
    redis = await controllableRedis({ started: false });
    metricsPort = await freePort();
    s = await startStack({ REDIS_URL: redis.url, METRICS_PORT: String(metricsPort) });
  }, 60_000);

  afterAll(async () => {
    redis?.stop();
    await s?.stop();
  });

  it("answers sign-in and the login-options lookup within a second, then uses Redis once it appears", async () => {
    let slowest = 0;
    for (let i = 0; i < 5; i++) slowest = Math.max(slowest, await servesEverything(s.url));
    expect(slowest).toBeLessThan(SECOND);
    const ready = await readyz(s.url);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: "degraded", checks: { redis: "failing" } });
    expect(await redisUp(metricsPort)).toBe("0");

    expect(await loggedLines(s, /redis unavailable/)).toHaveLength(1);

    await redis.restart();
    await readyzBecomes(s.url, "ready");
    expect(await redisUp(metricsPort)).toBe("1");
    // A failed sign-in is counted in Redis now.
    const email = "alex@mapledental.test";
    expect((await signIn(s.url, email, "wrong")).status).toBe(401);
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      expect(await client.get(`rl:signin-account:${email}`)).toBe("1");
    } finally {
      client.destroy();
    }
    expect(s.alive()).toBe(true);
  }, 30_000);
});

describe.skipIf(!hasRedis)("Redis frozen (SIGSTOP) while a server runs", () => {
  let redis: Awaited<ReturnType<typeof controllableRedis>>;
  let s: Stack;

  beforeAll(async () => {
    redis = await controllableRedis();
    s = await startStack({ REDIS_URL: redis.url });
    await readyzBecomes(s.url, "ready");
  }, 60_000);

  afterAll(async () => {
    redis?.stop();
    await s?.stop();
  });

  it("answers within a second while nothing comes back from Redis, and recovers on SIGCONT", async () => {
    redis.freeze();
    let slowest = 0;
    const until = Date.now() + 3 * SECOND;
    while (Date.now() < until) slowest = Math.max(slowest, await servesEverything(s.url));
    expect(slowest).toBeLessThan(SECOND);
    const ready = await readyz(s.url);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: "degraded", checks: { api: "ok", redis: "failing" } });
    expect(ready.body.reasons?.[0]).toMatch(/^redis did not answer within \d+ ms$/);

    redis.thaw();
    await readyzBecomes(s.url, "ready");
    // One outage, one warning and one recovery line, whichever way it was noticed (time-out, then socket closed).
    expect(await loggedLines(s, /redis unavailable/)).toHaveLength(1);
    expect(await loggedLines(s, /redis available again/)).toHaveLength(1);
    const email = "alex@mapledental.test";
    expect((await signIn(s.url, email, "wrong")).status).toBe(401);
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      expect(await client.get(`rl:signin-account:${email}`)).toBe("1");
    } finally {
      client.destroy();
    }
    expect(s.alive()).toBe(true);
  }, 30_000);
});
