import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createApiClient } from "~/server/upstream/api-client.server";
import { upstreamFetch } from "~/server/upstream/upstream-transport.server";

/** The api client's HTTP transport (undici's `request`, not the global fetch) against a real HTTP server. */
let server: http.Server;
let base: string;
const connections = new Set<unknown>();
let connectionCount = 0;
const BIG = "x".repeat(100 * 1024);
/** 300 rows of JSON (~400 KB: several chunks on the wire), then its version. */
let listVersion = 1;
const list = () =>
  JSON.stringify({
    items: Array.from({ length: 300 }, (_, i) => ({ building_id: i, name: `Location ${i} `.repeat(100) })),
    version: listVersion,
  });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, "http://x");
    if (url.pathname === "/json") {
      res.setHeader("content-type", "application/json");
      res.setHeader("x-seen-method", req.method!);
      res.setHeader("x-seen-cookie", req.headers.cookie ?? "");
      res.setHeader("set-cookie", ["api_session=abc; HttpOnly; Path=/", "other=1; Path=/"]);
      res.setHeader("x-twice", ["a", "b"]);
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => res.end(JSON.stringify({ user_name: "Dana", echoed: body || null })));
      return;
    }
    if (url.pathname === "/redirect") {
      res.writeHead(302, { location: "/json" });
      res.end();
      return;
    }
    if (url.pathname === "/big") {
      res.end(BIG);
      return;
    }
    if (url.pathname === "/slow") return void setTimeout(() => res.end("late"), 2_000);
    if (url.pathname === "/list") {
      res.setHeader("content-type", "application/json");
      res.end(list());
      return;
    }
    if (url.pathname === "/bom") {
      res.setHeader("content-type", "application/json");
      res.end(
        Buffer.concat([
          Buffer.from([0xef, 0xbb, 0xbf]),
          Buffer.from('{"caf\u00e9_name":"Caf\u00e9 \u2014 1"}'),
        ]),
      );
      return;
    }
    if (url.pathname === "/cut") {
      res.setHeader("content-type", "application/json");
      res.setHeader("content-length", "1000");
      res.write('{"partial":');
      setTimeout(() => res.destroy(), 50);
      return;
    }
    res.writeHead(404).end();
  });
  server.on("connection", (socket) => {
    connectionCount++;
    connections.add(socket);
    socket.on("close", () => connections.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const signal = () => new AbortController().signal;

describe("upstreamFetch", () => {
  it("sends method, headers and body, and reads status, headers and text as fetch would", async () => {
    const res = await upstreamFetch(`${base}/json`, {
      method: "POST",
      headers: { cookie: "api_session=t1", "content-type": "application/json" },
      body: '{"a":1}',
      signal: signal(),
    });
    expect(res.status).toBe(200);
    expect(res.ok).toBe(true);
    expect(res.headers.get("Content-Type")).toBe("application/json");
    expect(res.headers.get("x-seen-method")).toBe("POST");
    expect(res.headers.get("x-seen-cookie")).toBe("api_session=t1");
    expect(res.headers.get("x-twice")).toBe("a, b");
    expect(res.headers.get("x-absent")).toBeNull();
    expect(res.headers.getSetCookie()).toEqual(["api_session=abc; HttpOnly; Path=/", "other=1; Path=/"]);
    expect(JSON.parse(await res.text())).toEqual({ user_name: "Dana", echoed: '{"a":1}' });
    await expect(res.text()).rejects.toThrow(/already been read/);
  });

  it("does not follow a redirect", async () => {
    const res = await upstreamFetch(`${base}/redirect`, { method: "GET", headers: {}, signal: signal() });
    expect(res.status).toBe(302);
    expect(res.ok).toBe(false);
    expect(res.headers.get("location")).toBe("/json");
    res.dispose?.();
  });

  it("stops when its signal aborts", async () => {
    const controller = new AbortController();
    const pending = upstreamFetch(`${base}/slow`, { method: "GET", headers: {}, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow();
  });

  it("gives the connection back when an answer is disposed of unread", async () => {
    // 100 KiB left unread hold their connection (the socket is paused): without dispose, each call opens one.
    const before = connectionCount;
    for (let i = 0; i < 4; i++) {
      const res = await upstreamFetch(`${base}/big`, { method: "GET", headers: {}, signal: signal() });
      expect(res.status).toBe(200);
      res.dispose?.();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(connectionCount - before).toBeLessThanOrEqual(1);
  });
});

describe("the api client's default transport", () => {
  it("reads a long answer of several chunks, and a changed one afresh", async () => {
    const schema = z.object({ version: z.number(), items: z.array(z.object({ buildingId: z.number() })) });
    const api = () => createApiClient({ baseUrl: base, timeoutMs: 5_000, apiSession: "t3" });
    expect((await api().get("/list", { schema })).items).toHaveLength(300);
    listVersion = 2;
    const changed = await api().get("/list", { schema });
    expect(changed.version).toBe(2);
    expect(changed.items[299].buildingId).toBe(299);
  });

  it("decodes UTF-8 and drops a byte order mark, as fetch does", async () => {
    const api = createApiClient({ baseUrl: base, timeoutMs: 5_000 });
    expect(await api.get("/bom")).toEqual({ caféName: "Café — 1" });
  });

  it("a body cut partway through is a network failure", async () => {
    const api = createApiClient({ baseUrl: base, timeoutMs: 5_000 });
    await expect(api.get("/cut")).rejects.toMatchObject({ kind: "network", status: 502 });
  });

  it("is upstreamFetch, not the global fetch", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    try {
      const api = createApiClient({ baseUrl: base, timeoutMs: 5_000, apiSession: "t2" });
      expect(await api.get("/json")).toEqual({ userName: "Dana", echoed: null });
      const { apiSession } = await api.withSessionCookie("POST", "/json", { body: { a: 1 } });
      expect(apiSession).toBe("abc");
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it("reports a missing server as a network error", async () => {
    const api = createApiClient({ baseUrl: "http://127.0.0.1:1", timeoutMs: 5_000 });
    await expect(api.get("/json")).rejects.toMatchObject({ kind: "network", status: 502 });
  });
});
