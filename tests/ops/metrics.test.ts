import os from "node:os";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USER } from "../../api/db/seed/ids";
import { freePort, getPage, startStack, webLogin, type Stack } from "../support/stack";

/**
 * Metrics, request ids and the request log of the built server (`dist/server.js`), with METRICS_PORT set, in front
 * of the fault proxy (tests/support/stack.ts) and a real api.
 */
let stack: Stack;
let metricsPort: number;
let dana: string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function scrape() {
  const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one series of the scrape (`name{labels} value`), or null when absent. */
function sample(text: string, series: string): number | null {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

/** The request-log lines the server has written so far (pino JSON on stdout). */
function requestLines(): Record<string, unknown>[] {
  return stack.logs
    .join("")
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === "request");
}

async function logLineFor(requestId: string) {
  for (let i = 0; i < 100; i++) {
    const line = requestLines().find((l) => l.requestId === requestId);
    if (line) return line;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no request log line for ${requestId}`);
}

async function signIn(email: string, password: string) {
  const res = await fetch(`${stack.url}/login?email=${encodeURIComponent(email)}`, {
    method: "POST",
    body: new URLSearchParams({ intent: "password", email, password, next: "/" }),
    redirect: "manual",
  });
  await res.text();
  return res.status;
}

beforeAll(async () => {
  metricsPort = await freePort();
  stack = await startStack({
    METRICS_PORT: String(metricsPort),
    LOG_LEVEL: "info",
    // Small sign-in limits, so this suite can reach them: 2 wrong passwords per account and address, 4 sign-in
    // posts per address.
    LOGIN_RATE_LIMIT_PER_ACCOUNT_IP: "2",
    LOGIN_RATE_LIMIT_PER_IP: "4",
  });
  dana = await webLogin(stack.url, "dana@harborcoffee.test");
});

afterAll(async () => {
  await stack?.stop();
});

describe("request id", () => {
  it("a safe incoming X-Request-Id comes back in the answer and reaches the upstream api", async () => {
    stack.proxy.clear();
    const before = stack.proxy.calls.length;
    const res = await fetch(`${stack.url}/locations`, {
      headers: { cookie: dana, "x-request-id": "ops-test.0001_A" },
    });
    await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("ops-test.0001_A");
    const upstream = stack.proxy.calls.slice(before);
    expect(upstream.length).toBeGreaterThan(0);
    for (const call of upstream) expect(call.requestId, call.path).toBe("ops-test.0001_A");
  });

  it("an unsafe or missing one is replaced by a new UUID, the same in the answer and upstream", async () => {
    for (const incoming of ["bad id with spaces", undefined]) {
      const before = stack.proxy.calls.length;
      const res = await fetch(`${stack.url}/locations`, {
        headers: { cookie: dana, ...(incoming ? { "x-request-id": incoming } : {}) },
      });
      await res.text();
      const id = res.headers.get("x-request-id")!;
      expect(id).toMatch(UUID);
      const upstream = stack.proxy.calls.slice(before);
      expect(upstream.length).toBeGreaterThan(0);
      for (const call of upstream) expect(call.requestId).toBe(id);
    }
  });
});

describe("request log", () => {
  it("one line per request: request id, method, path without query, route id, status, ms, user id; no cookie", async () => {
    const res = await fetch(`${stack.url}/locations?token=query-secret-123`, {
      headers: { cookie: dana, "x-request-id": "ops-log-line-1" },
    });
    await res.text();
    const line = await logLineFor("ops-log-line-1");
    expect(line).toMatchObject({
      requestId: "ops-log-line-1",
      method: "GET",
      path: "/locations",
      route: "routes/_app.locations._index",
      status: 200,
      userId: USER.dana,
    });
    expect(typeof line.ms).toBe("number");
    expect(requestLines().filter((l) => l.requestId === "ops-log-line-1")).toHaveLength(1);
    const all = stack.logs.join("");
    expect(all).not.toContain("query-secret-123");
    expect(all).not.toContain(dana.split("=")[1]);
  });

  it("a request without a user has no user id", async () => {
    await (await fetch(`${stack.url}/login`, { headers: { "x-request-id": "ops-log-anon-1" } })).text();
    const line = await logLineFor("ops-log-anon-1");
    expect(line).toMatchObject({ route: "routes/login", status: 200 });
    expect(line).not.toHaveProperty("userId");
  });
});

describe("metrics", () => {
  it("are not served on the main port", async () => {
    const res = await fetch(`${stack.url}/metrics`, { headers: { cookie: dana }, redirect: "manual" });
    const body = await res.text();
    expect(res.status).not.toBe(200);
    expect(body).not.toContain("http_request_duration_seconds");
  });

  it("listen on loopback only by default (METRICS_HOST=127.0.0.1)", async () => {
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
    if (!external) {
      console.log(
        "metrics: no non-loopback IPv4 address on this machine; the bind check covers loopback only",
      );
      expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(200);
      return;
    }
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(metricsPort, external);
      socket.once("connect", () => (socket.destroy(), resolve(false)));
      socket.once("error", () => resolve(true));
    });
    expect(refused, `metrics port reachable on ${external}`).toBe(true);
  });

  it("other paths of the metrics port are 404", async () => {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/`);
    await res.text();
    expect(res.status).toBe(404);
  });

  it("request durations by route id and status: a page, a 404, a static file, /healthz", async () => {
    expect((await getPage(stack.url, "/locations/105/control", dana)).status).toBe(200);
    // A page whose data the upstream does not find: the upstream's 404 is the page's status (ADR 0009).
    stack.proxy.clear();
    stack.proxy.fail(/^\/buildings$/, "404");
    const missing = await getPage(stack.url, "/locations", dana);
    stack.proxy.clear();
    expect(missing.status).toBe(404);
    // An unknown path: the splat route redirects it to the index.
    expect((await getPage(stack.url, "/no/such/page/12345", dana)).status).toBe(302);
    expect((await getPage(stack.url, "/favicon.svg")).status).toBe(200);
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    const text = await scrape();
    for (const series of [
      'http_request_duration_seconds_count{route="routes/_app.locations._index",method="GET",status="200"}',
      'http_request_duration_seconds_count{route="routes/_app.locations.$locationId.control",method="GET",status="200"}',
      'http_request_duration_seconds_count{route="routes/_app.locations._index",method="GET",status="404"}',
      'http_request_duration_seconds_count{route="routes/$",method="GET",status="302"}',
      'http_request_duration_seconds_count{route="static",method="GET",status="200"}',
      'http_request_duration_seconds_count{route="healthz",method="GET",status="200"}',
      'http_request_duration_seconds_bucket{le="+Inf",route="routes/login",method="POST",status="302"}',
    ])
      expect(sample(text, series), series).toBeGreaterThanOrEqual(1);
    // Route labels are route ids or fixed labels, never a raw path (no ids, no query).
    const routes = new Set([...text.matchAll(/route="([^"]*)"/g)].map((m) => m[1]));
    for (const r of routes)
      expect(r).toMatch(/^(root|routes\/[^"/]*|static|healthz|readyz|api-download|unmatched)$/);
  });

  it("upstream calls by endpoint template, and failures by reason (5xx, network, timeout)", async () => {
    const failures = (reason: string) =>
      `upstream_request_failures_total{endpoint="/buildings",method="GET",reason="${reason}"}`;
    const before = await scrape();
    for (const fault of ["500", "reset", "hang"] as const) {
      stack.proxy.clear();
      stack.proxy.fail(/^\/buildings$/, fault);
      const res = await getPage(stack.url, "/locations", dana);
      stack.proxy.clear();
      expect(res.status).toBe(502);
    }
    const text = await scrape();
    for (const reason of ["5xx", "network", "timeout"])
      expect(sample(text, failures(reason)), reason).toBe((sample(before, failures(reason)) ?? 0) + 1);
    expect(
      sample(
        text,
        'upstream_request_duration_seconds_count{endpoint="/buildings",method="GET",status="500"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        text,
        'upstream_request_duration_seconds_count{endpoint="/buildings",method="GET",status="200"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    // A page of one location called its endpoints with the id templated.
    expect(text).toMatch(
      /upstream_request_duration_seconds_count\{endpoint="\/insights\/:id\/available-usage"/,
    );
    const endpoints = [...text.matchAll(/endpoint="([^"]*)"/g)].map((m) => m[1]);
    expect(endpoints.length).toBeGreaterThan(0);
    for (const e of endpoints) expect(e).not.toMatch(/\d|@|%40|\?/);
  });

  it("rate-limit refusals by limiter: per account and address, then per address", async () => {
    // Sign-in posts from this address so far: Dana's (1). Two wrong passwords for Sam count; the third is refused.
    expect(await signIn("sam@harborcoffee.test", "wrong-password-1")).toBe(401);
    expect(await signIn("sam@harborcoffee.test", "wrong-password-2")).toBe(401);
    expect(await signIn("sam@harborcoffee.test", "wrong-password-3")).toBe(429);
    // The address's fifth sign-in post is over LOGIN_RATE_LIMIT_PER_IP (4).
    expect(await signIn("alex@mapledental.test", "demo-pass-2024")).toBe(429);
    const text = await scrape();
    expect(sample(text, 'rate_limit_refusals_total{limiter="signin-account-ip"}')).toBe(1);
    expect(sample(text, 'rate_limit_refusals_total{limiter="signin-ip"}')).toBe(1);
  });

  it("load sheds by reason, requests in flight, event-loop delay and memory", async () => {
    const text = await scrape();
    expect(sample(text, 'load_shed_total{reason="in_flight"}')).toBe(0);
    expect(sample(text, 'load_shed_total{reason="event_loop"}')).toBe(0);
    expect(sample(text, "http_requests_in_flight")).toBe(0);
    expect(sample(text, "nodejs_eventloop_lag_p99_seconds")).toBeGreaterThan(0);
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(10 * 1024 * 1024);
    expect(sample(text, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
  });
});
