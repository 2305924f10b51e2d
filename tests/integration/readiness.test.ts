import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import express from "express";
import { createReadiness, drainGuard } from "~/server/ops/readiness.server";

/** A real upstream whose answer the tests choose: a status, or never answering. */
let answer: number | "hang" = 401;
let calls = 0;
let apiUrl = "";
const server = http.createServer((req, res) => {
  calls++;
  if (answer === "hang") return;
  res.writeHead(answer, { "content-type": "application/json" }).end("{}");
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("readiness (/readyz)", () => {
  it("is ready when the upstream answers below 500 (an unauthenticated GET /user: 401)", async () => {
    answer = 401;
    const r = createReadiness({ apiUrl: () => apiUrl, cacheMs: 0 });
    expect(await r.check()).toEqual({
      status: "ready",
      shuttingDown: false,
      checks: { api: "ok", redis: "skipped" },
    });
  });

  it("is not ready when the upstream answers 5xx, is unreachable, or is too slow", async () => {
    answer = 502;
    const r = createReadiness({ apiUrl: () => apiUrl, cacheMs: 0, timeoutMs: 300 });
    expect(await r.check()).toMatchObject({
      status: "not ready",
      checks: { api: "failing" },
      reasons: ["api answered 502"],
    });
    answer = "hang";
    expect((await r.check()).reasons).toEqual(["api did not answer within 300 ms"]);
    const gone = createReadiness({ apiUrl: () => "http://127.0.0.1:1/api", cacheMs: 0 });
    expect((await gone.check()).reasons).toEqual(["api unreachable"]);
    answer = 401;
  });

  it("checks Redis when configured: degraded (answered 200) with the reason while it fails, ready again after", async () => {
    let redis: string | null = null;
    const r = createReadiness({
      apiUrl: () => apiUrl,
      cacheMs: 0,
      checkRedis: () => Promise.resolve(redis),
    });
    expect(await r.check()).toEqual({
      status: "ready",
      shuttingDown: false,
      checks: { api: "ok", redis: "ok" },
    });
    redis = "redis unreachable";
    expect(await r.check()).toEqual({
      status: "degraded",
      shuttingDown: false,
      checks: { api: "ok", redis: "failing" },
      reasons: ["redis unreachable"],
    });
    const app = express().get("/readyz", r.handler);
    const s = http.createServer(app);
    await new Promise<void>((done) => s.listen(0, "127.0.0.1", () => done()));
    const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}/readyz`;
    try {
      const degraded = await fetch(url);
      expect(degraded.status).toBe(200);
      expect(await degraded.json()).toMatchObject({ status: "degraded" });
      // The api failing as well: not ready, 503, both reasons.
      answer = 502;
      const down = await fetch(url);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({
        status: "not ready",
        checks: { api: "failing", redis: "failing" },
        reasons: ["api answered 502", "redis unreachable"],
      });
    } finally {
      answer = 401;
      await new Promise((done) => s.close(done));
    }
    redis = null;
    expect((await r.check()).status).toBe("ready");
  });

  it("says a Redis check that hangs did not answer, within the check's time-out", async () => {
    const r = createReadiness({
      apiUrl: () => apiUrl,
      cacheMs: 0,
      timeoutMs: 200,
      checkRedis: () => new Promise<string | null>(() => undefined),
    });
    const started = Date.now();
    expect(await r.check()).toMatchObject({
      status: "degraded",
      reasons: ["redis did not answer within 200 ms"],
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("shares one check among the probes of the cache window", async () => {
    let t = 0;
    const r = createReadiness({ apiUrl: () => apiUrl, cacheMs: 1000, now: () => t });
    const before = calls;
    await Promise.all([r.check(), r.check(), r.check()]);
    t = 999;
    await r.check();
    expect(calls - before).toBe(1);
    t = 1000;
    await r.check();
    expect(calls - before).toBe(2);
  });

  it("answers not ready from the moment shutdown begins, without calling the upstream", async () => {
    const r = createReadiness({ apiUrl: () => apiUrl, cacheMs: 0 });
    expect((await r.check()).status).toBe("ready");
    r.beginShutdown();
    const before = calls;
    expect(await r.check()).toMatchObject({
      status: "not ready",
      shuttingDown: true,
      reasons: ["shutting down"],
    });
    expect(calls).toBe(before);
  });
});

describe("the drain after SIGTERM (drainGuard)", () => {
  it("answers page views 503 at once while draining, and passes every other request on", async () => {
    let draining = false;
    let handled = 0;
    const app = express();
    app.use(drainGuard(() => draining));
    app.all("*", (_req, res) => {
      handled++;
      res.status(200).send("served");
    });
    const s = http.createServer(app);
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}/locations`;
    try {
      expect((await fetch(url)).status).toBe(200);
      draining = true;
      const view = await fetch(url);
      expect(view.status).toBe(503);
      expect(view.headers.get("retry-after")).toBe("1");
      expect(view.headers.get("connection")).toBe("close");
      expect((await fetch(url, { method: "HEAD" })).status).toBe(503);
      // A POST is served: a balancer never resends one, so refusing it would lose it.
      const post = await fetch(url, { method: "POST", body: "a=1" });
      expect(post.status).toBe(200);
      expect(await post.text()).toBe("served");
      expect(handled).toBe(2);
    } finally {
      await new Promise((r) => s.close(r));
    }
  });
});
