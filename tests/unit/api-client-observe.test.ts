import { describe, expect, it } from "vitest";
import { createApiClient, type UpstreamCallReport } from "~/server/upstream/api-client.server";

/** The api client's request id and call reports (metrics), against a fake fetch. */
function client(
  respond: (url: string, init: RequestInit) => Response | Promise<Response>,
  requestId?: string,
) {
  const reports: UpstreamCallReport[] = [];
  const seen: Headers[] = [];
  const api = createApiClient({
    baseUrl: "http://up/api",
    timeoutMs: 300,
    requestId,
    onCall: (c) => reports.push(c),
    fetchImpl: (async (url: string, init: RequestInit) => {
      seen.push(new Headers(init.headers));
      return respond(String(url), init);
    }) as unknown as typeof fetch,
  });
  return { api, reports, seen };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("api client: X-Request-Id and call reports", () => {
  it("sends the request id on every kind of call", async () => {
    const { api, seen } = client(
      () => new Response('{"ok":true}', { headers: { "set-cookie": "api_session=s; Path=/" } }),
      "req-abcdefgh",
    );
    await api.get("/buildings");
    await api.post("/demo-mode", { body: { on: true } });
    await api.raw("/bill-statement/1/download");
    await api.withSessionCookie("POST", "/auth/login", { body: {} });
    expect(seen.map((h) => h.get("x-request-id"))).toEqual(Array(4).fill("req-abcdefgh"));
  });

  it("sends no X-Request-Id when it has none", async () => {
    const { api, seen } = client(() => json({}));
    await api.get("/buildings");
    expect(seen[0].has("x-request-id")).toBe(false);
  });

  it("reports each call once: its path, method and status, or how it failed", async () => {
    const { api, reports } = client((full, init) => {
      const url = full.split("?")[0];
      if (url.endsWith("/ok")) return json({ a: 1 });
      if (url.endsWith("/missing")) return json({ message: "Object Not Found Matching Id" }, 404);
      if (url.endsWith("/broken")) return json({ message: "boom" }, 500);
      if (url.endsWith("/garbled"))
        return new Response("{not json", { headers: { "content-type": "application/json" } });
      if (url.endsWith("/errmsg")) return json({ errMsg: "nope" });
      if (url.endsWith("/down")) throw new TypeError("fetch failed");
      // /hang: never answers; gives up when the client's time-out aborts it, as fetch does
      return new Promise<Response>((_resolve, reject) =>
        init.signal!.addEventListener("abort", () => reject(init.signal!.reason)),
      );
    });
    const calls = ["/ok", "/missing", "/broken", "/garbled", "/errmsg", "/down", "/hang"];
    for (const p of calls) await api.get(p, { query: { page: 1 } }).catch(() => undefined);
    await api.put("/ok", { body: {} });
    expect(reports.map((r) => [r.method, r.path, r.outcome])).toEqual([
      ["GET", "/ok", 200],
      ["GET", "/missing", 404],
      ["GET", "/broken", 500],
      ["GET", "/garbled", "invalid"],
      ["GET", "/errmsg", "invalid"],
      ["GET", "/down", "network"],
      ["GET", "/hang", "timeout"],
      ["PUT", "/ok", 200],
    ]);
    const hang = reports.find((r) => r.path === "/hang")!;
    expect(hang.seconds).toBeGreaterThanOrEqual(0.25);
    for (const r of reports) expect(r.seconds).toBeGreaterThanOrEqual(0);
  });

  it("reports a GET shared by two loaders once", async () => {
    const reports: UpstreamCallReport[] = [];
    const api = createApiClient({
      baseUrl: "http://up/api",
      timeoutMs: 300,
      shared: new Map(),
      onCall: (c) => reports.push(c),
      fetchImpl: (async () => json([])) as unknown as typeof fetch,
    });
    await Promise.all([api.get("/buildings"), api.get("/buildings")]);
    expect(reports).toHaveLength(1);
  });
});
