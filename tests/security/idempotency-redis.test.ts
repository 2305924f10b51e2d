import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DANA } from "../support/pages";
import { redisAvailable, startRedis } from "../support/redis";
import { freePort, getPage, startStack, webLogin, type Stack } from "../support/stack";
import { WEB_SERVER } from "../../shared/build-output.mjs";

/**
 * REDIS_URL: a double submit spread over two web instances (behind one load balancer, in front of one api)
 * still reaches the api once (ADR 0010). Two production servers share one real redis-server.
 */
const hasRedis = redisAvailable("the shared idempotency store test");

async function waitFor(url: string) {
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not start`);
}

describe.skipIf(!hasRedis)("idempotent submissions shared through Redis (REDIS_URL)", () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let a: Stack;
  let b: ChildProcess;
  let bUrl: string;

  beforeAll(async () => {
    redis = await startRedis();
    const REDIS_URL = redis.url;
    a = await startStack({ REDIS_URL });
    // A second web instance in front of the same api (through the same counting proxy).
    const webPort = await freePort();
    bUrl = `http://127.0.0.1:${webPort}`;
    b = spawn(process.execPath, [path.resolve(WEB_SERVER)], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(webPort),
        HOST: "127.0.0.1",
        API_URL: a.proxy.url,
        SESSION_SECRET: "stack-test-secret-0123456789abcdef0123456789",
        LOG_LEVEL: "warn",
        QUIET_BANNER: "true",
        LOGIN_RATE_LIMIT_PER_ACCOUNT: "1000",
        LOGIN_RATE_LIMIT_PER_IP: "100000",
        REDIS_URL,
      },
      stdio: "ignore",
    });
    await waitFor(`${bUrl}/healthz`);
  }, 60_000);

  afterAll(async () => {
    if (b && b.exitCode === null) {
      b.kill("SIGTERM");
      await new Promise((r) => b.once("exit", r));
    }
    await a?.stop();
    redis?.stop();
  });

  it("the same thermostat setting posted to both instances at once sends one vendor command", async () => {
    const cookie = await webLogin(a.url, DANA);
    const page = await getPage(a.url, "/locations/104/control", cookie);
    const form = page.body.split("<form").find((f) => f.includes('name="thermostatId" value="1011"'))!;
    const field = (name: string) => new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(form)?.[1] ?? "";
    const id = field("submissionId");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const cool = Number(field("coolSetpointF"));
    const body = new URLSearchParams({
      thermostatId: "1011",
      tab: field("tab"),
      submissionId: id,
      mode: "cool",
      coolSetpointF: String(cool >= 85 ? cool - 1 : cool + 1),
      heatSetpointF: field("heatSetpointF"),
      intent: "save",
    });
    const send = (base: string) =>
      fetch(`${base}/locations/104/control`, {
        method: "POST",
        headers: { cookie },
        body,
        redirect: "manual",
      });
    const before = a.proxy.calls.filter(
      (c) => c.method === "POST" && c.path === "/thermostats/1011/settings",
    ).length;
    const answers = await Promise.all([send(a.url), send(bUrl), send(a.url), send(bUrl)]);
    const after = a.proxy.calls.filter(
      (c) => c.method === "POST" && c.path === "/thermostats/1011/settings",
    ).length;
    expect(after - before).toBe(1);
    const locations = answers.map((r) => r.headers.get("location"));
    for (const r of answers) expect(r.status).toBe(302);
    expect(new Set(locations).size).toBe(1);
    expect(locations[0]).toMatch(/watch=1011%3A\d+/);
  });
});
