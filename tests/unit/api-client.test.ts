import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { getEventListeners } from "node:events";
import { callSignal, createApiClient } from "~/server/upstream/api-client.server";
import { ApiError, errorFromResponse, settle } from "~/server/upstream/api-error";
import { toCamel } from "~/server/upstream/casing";

type Call = { url: string; init: RequestInit };

function fakeFetch(respond: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const impl = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const call = { url: String(url), init: init ?? {} };
    calls.push(call);
    return respond(call);
  });
  return { impl: impl as unknown as typeof fetch, calls };
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    status: 200,
    headers: { "content-type": "application/json" },
    ...init,
  });

function client(
  respond: (call: Call) => Response | Promise<Response>,
  extra: Partial<Parameters<typeof createApiClient>[0]> = {},
) {
  const f = fakeFetch(respond);
  return {
    api: createApiClient({
      baseUrl: "http://up/api",
      apiSession: "tok",
      timeoutMs: 500,
      fetchImpl: f.impl,
      ...extra,
    }),
    calls: f.calls,
  };
}

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return e as ApiError;
  }
  throw new Error("expected a failure");
}

describe("api client conventions", () => {
  it("GET: base path, session cookie, non-empty snake_case query, camelCase answer", async () => {
    const { api, calls } = client(() =>
      json({ items: [{ building_id: 1, address: { address_line1: "x" } }] }),
    );
    const res = await api.get("/buildings", { query: { pageSize: 75, locationSearch: "", page: undefined } });
    expect(calls[0].url).toBe("http://up/api/buildings?page_size=75");
    expect((calls[0].init.headers as Record<string, string>).cookie).toBe("api_session=tok");
    expect(calls[0].init.method).toBe("GET");
    expect(res).toEqual({ items: [{ buildingId: 1, address: { addressLine1: "x" } }] });
  });

  it("non-GET sends JSON in snake_case", async () => {
    const { api, calls } = client(() => json({ ok_value: 1 }));
    await api.post("/thermostats/1/settings", { body: { coolSetpointF: 74, mode: "cool" } });
    expect(calls[0].init.body).toBe(JSON.stringify({ cool_setpoint_f: 74, mode: "cool" }));
    expect((calls[0].init.headers as Record<string, string>)["content-type"]).toBe("application/json");
  });

  it("204 gives null", async () => {
    const { api } = client(() => new Response(null, { status: 204 }));
    expect(await api.put("/user_building_access", { body: {} })).toBeNull();
  });

  it("x-no-convert keeps the answer as is (CSV text, or JSON keys untouched)", async () => {
    const csv = client(
      () => new Response("a_b,c\n1,2\n", { headers: { "x-no-convert": "true", "content-type": "text/csv" } }),
    );
    expect(await csv.api.get("/client/1/bill-statements/export-csv")).toBe("a_b,c\n1,2\n");
    const raw = client(() =>
      json({ snake_key: 1 }, { headers: { "x-no-convert": "true", "content-type": "application/json" } }),
    );
    expect(await raw.api.get("/x")).toEqual({ snake_key: 1 });
  });

  it("a call that passes the browser's address sends it as X-Forwarded-For; other calls send none", async () => {
    const { api, calls } = client((call) =>
      call.url.endsWith("/auth/login")
        ? json({ id: 1 }, { headers: { "set-cookie": "api_session=new; Path=/" } })
        : new Response(null, { status: 204 }),
    );
    await api.post("/auth/login-code/request", { body: { email: "a@b.test" }, forwardedFor: "203.0.113.9" });
    await api.withSessionCookie("POST", "/auth/login", { body: {}, forwardedFor: "2001:db8::1" });
    await api.post("/auth/login-code/request", { body: { email: "a@b.test" } });
    // Only an address is passed on: the "unknown" of a request without a peer, or anything else, is not.
    await api.post("/auth/login-code/request", { body: { email: "a@b.test" }, forwardedFor: "unknown" });
    await api.post("/auth/login-code/request", { body: {}, forwardedFor: "1.2.3.4\r\nx-evil: 1" });
    const sent = calls.map((c) => (c.init.headers as Record<string, string>)["x-forwarded-for"]);
    expect(sent).toEqual(["203.0.113.9", "2001:db8::1", undefined, undefined, undefined]);
  });

  it("validates answers against a schema", async () => {
    const { z } = await import("zod");
    const { api } = client(() => json({ wrong: true }));
    const e = await failure(api.get("/x", { schema: z.object({ items: z.array(z.number()) }) }));
    expect(e.kind).toBe("contract");
  });

  it("restore rewrites every call's query and body before it is sent (demo mode's way back)", async () => {
    const swap = (v: unknown): unknown =>
      v === "stand-in"
        ? "real"
        : v && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]))
          : v;
    const { api, calls } = client(() => json({ ok: true }), {
      restore: async (call) => ({ query: swap(call.query) as typeof call.query, body: swap(call.body) }),
    });
    await api.get("/accounts", { query: { utility: "stand-in" } });
    await api.post("/utility-connections", { body: { arcadiaProviderId: "stand-in", username: "u" } });
    expect(calls[0].url).toBe("http://up/api/accounts?utility=real");
    expect(calls[1].init.body).toBe(JSON.stringify({ arcadia_provider_id: "real", username: "u" }));
  });
});

describe("error catalogue", () => {
  it("403 is Forbidden", async () => {
    const { api } = client(() => json({ message: "nope" }, { status: 403 }));
    const e = await failure(api.get("/x"));
    expect(e).toBeInstanceOf(ApiError);
    expect([e.message, e.status, e.kind]).toEqual(["Forbidden", 403, "forbidden"]);
  });

  it("JSON error body message", async () => {
    const { api } = client(() => json({ message: "Object Not Found Matching Id" }, { status: 404 }));
    const e = await failure(api.get("/x"));
    expect([e.message, e.status]).toEqual(["Object Not Found Matching Id", 404]);
  });

  it("empty error body is 'empty response' plus the status", async () => {
    const { api } = client(() => new Response("", { status: 500 }));
    expect((await failure(api.get("/x"))).message).toBe("empty response 500");
  });

  it("errMsg in a success body is an error", async () => {
    const { api } = client(() => json({ errMsg: "Vendor refused" }));
    const e = await failure(api.get("/x"));
    expect([e.message, e.kind]).toEqual(["Vendor refused", "errmsg"]);
  });

  it("an empty success body is 'Got empty body'", async () => {
    const { api } = client(() => new Response("", { status: 200 }));
    expect((await failure(api.get("/x"))).message).toBe("Got empty body");
  });

  it("validation bodies are joined as 'location: message' with field errors", () => {
    const e = errorFromResponse(
      422,
      JSON.stringify({
        message: "Validation error",
        body_params: [{ location: "cool_setpoint_f", message: "must be at most 90" }],
        path_params: [{ location: "thermostat_id", message: "not a number" }],
        query_params: [],
      }),
      toCamel,
    );
    expect(e.message).toBe("cool_setpoint_f: must be at most 90, thermostat_id: not a number");
    expect(e.fieldErrors).toEqual({ coolSetpointF: ["must be at most 90"], thermostatId: ["not a number"] });
    expect(e.kind).toBe("validation");
  });

  it("unparseable bodies", () => {
    expect(errorFromResponse(500, "<html>oops</html>").message).toBe("Could not parse API Error Message");
    expect(errorFromResponse(500, JSON.stringify({ nothing: 1 })).message).toBe(
      "Could not parse API Error Message",
    );
    expect(errorFromResponse(422, JSON.stringify({ body_params: "nope" })).message).toBe(
      "Could not read error body params",
    );
    expect(errorFromResponse(422, JSON.stringify({ body_params: [{ where: 1 }] })).message).toBe(
      "Could not read error body params",
    );
  });

  it("a hung upstream times out", async () => {
    const { api } = client(
      (call) =>
        new Promise<Response>((_, reject) => {
          call.init.signal?.addEventListener("abort", () =>
            reject(new DOMException("aborted", "AbortError")),
          );
        }),
      { timeoutMs: 50 },
    );
    const e = await failure(api.get("/slow"));
    expect([e.kind, e.status]).toEqual(["timeout", 504]);
  });

  it("an answer whose body stops coming fails at the timeout too", async () => {
    const { api } = client(
      (call) =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"ok":'));
              call.init.signal?.addEventListener("abort", () => controller.error(call.init.signal!.reason));
            },
          }),
          { headers: { "content-type": "application/json" } },
        ),
      { timeoutMs: 50 },
    );
    const e = await failure(api.get("/slow-body"));
    expect([e.kind, e.status]).toEqual(["network", 502]);
  });

  it("a finished call leaves no listener on the incoming request's signal", async () => {
    const controller = new AbortController();
    const { api } = client(() => json({ ok: true }), { timeoutMs: 5000, signal: controller.signal });
    await api.get("/a");
    await failure(api.get("/b", { schema: z.object({ missing: z.string() }) }));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("the incoming request's abort cancels the upstream call", async () => {
    const controller = new AbortController();
    const { api } = client(
      (call) =>
        new Promise<Response>((_, reject) => {
          call.init.signal?.addEventListener("abort", () =>
            reject(new DOMException("aborted", "AbortError")),
          );
        }),
      { timeoutMs: 5000, signal: controller.signal },
    );
    const p = failure(api.get("/slow"));
    controller.abort();
    expect((await p).kind).toBe("aborted");
  });

  it("a connection failure is a network error", async () => {
    const { api } = client(() => Promise.reject(new TypeError("fetch failed")));
    expect((await failure(api.get("/x"))).kind).toBe("network");
  });

  it("401 calls onUnauthorized, whose thrown redirect propagates", async () => {
    const redirect = new Response(null, { status: 302, headers: { location: "/login" } });
    const { api } = client(() => json({ message: "Not authenticated" }, { status: 401 }), {
      onUnauthorized: async () => {
        throw redirect;
      },
    });
    await expect(api.get("/x")).rejects.toBe(redirect);
  });

  it("settle keeps ApiErrors as values and rethrows anything else", async () => {
    const r = await settle(Promise.reject(new ApiError("x", "http", 500)));
    expect(r.ok).toBe(false);
    await expect(settle(Promise.reject(new Response(null, { status: 302 })))).rejects.toBeInstanceOf(
      Response,
    );
    expect(await settle(Promise.resolve(1))).toEqual({ ok: true, data: 1 });
  });
});

describe("GETs shared within one request (the load context)", () => {
  it("two loaders asking for the same GET cost one upstream call, each with its own copy", async () => {
    const shared = new Map<string, Promise<unknown>>();
    const f = fakeFetch(() => json({ items: [{ id: 1 }] }));
    const a = createApiClient({
      baseUrl: "http://up/api",
      apiSession: "tok",
      timeoutMs: 500,
      fetchImpl: f.impl,
      shared,
    });
    const b = createApiClient({
      baseUrl: "http://up/api",
      apiSession: "tok",
      timeoutMs: 500,
      fetchImpl: f.impl,
      shared,
    });
    const [x, y] = await Promise.all([
      a.get<undefined>("/buildings", { query: { page: 1 } }),
      b.get<undefined>("/buildings", { query: { page: 1 } }),
    ]);
    expect(f.calls).toHaveLength(1);
    expect(x).toEqual(y);
    expect(x).not.toBe(y);
    await a.get("/buildings", { query: { page: 2 } });
    expect(f.calls).toHaveLength(2);
  });

  it("a mutation clears what was shared, so a later loader reads fresh data", async () => {
    const shared = new Map<string, Promise<unknown>>();
    let n = 0;
    const { api, calls } = client(
      (call) => (call.init.method === "GET" ? json({ n: ++n }) : new Response(null, { status: 204 })),
      { shared },
    );
    expect(await api.get("/thing")).toEqual({ n: 1 });
    expect(await api.get("/thing")).toEqual({ n: 1 });
    await api.post("/thing", { body: { x: 1 } });
    expect(await api.get("/thing")).toEqual({ n: 2 });
    expect(calls.map((c) => c.init.method)).toEqual(["GET", "POST", "GET"]);
  });

  it("a failed GET is not shared with later loaders: they try again", async () => {
    const shared = new Map<string, Promise<unknown>>();
    let fail = true;
    const { api, calls } = client(() => (fail ? new Response("boom", { status: 500 }) : json({ ok: true })), {
      shared,
    });
    expect((await failure(api.get("/thing"))).status).toBe(500);
    fail = false;
    expect(await api.get("/thing")).toEqual({ ok: true });
    expect(calls).toHaveLength(2);
  });

  it("the same answer read through the same schema is validated once per request; another schema validates again", async () => {
    const shared = new Map<string, Promise<unknown>>();
    const { api, calls } = client(() => json({ items: [{ id: 1 }, { id: 2 }] }), { shared });
    const schema = z.object({ items: z.array(z.object({ id: z.number() })) });
    const parse = vi.spyOn(schema, "safeParse");
    const [x, y] = await Promise.all([api.get("/buildings", { schema }), api.get("/buildings", { schema })]);
    expect(calls).toHaveLength(1);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(x).toBe(y);
    const other = z.object({ items: z.array(z.object({ id: z.number() })) });
    expect(await api.get("/buildings", { schema: other })).toEqual(x);
    expect(calls).toHaveLength(1);
    // A mutation clears the parsed answers too.
    await api.post("/buildings", { body: {} }).catch(() => undefined);
    await api.get("/buildings", { schema });
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it("an answer that breaks one loader's schema fails that loader only; another schema still reads it", async () => {
    const shared = new Map<string, Promise<unknown>>();
    const { api, calls } = client(() => json({ n: "one" }), { shared });
    const strict = z.object({ n: z.number() });
    expect((await failure(api.get("/thing", { schema: strict }))).kind).toBe("contract");
    expect((await failure(api.get("/thing", { schema: strict }))).kind).toBe("contract");
    expect(await api.get("/thing", { schema: z.object({ n: z.string() }) })).toEqual({ n: "one" });
    expect(calls).toHaveLength(1);
  });

  it("without a load context nothing is shared", async () => {
    const { api, calls } = client(() => json({ ok: true }));
    await Promise.all([api.get("/thing"), api.get("/thing")]);
    expect(calls).toHaveLength(2);
  });
});

describe("callSignal (one upstream call's abort signal)", () => {
  it("aborts at the timeout, as a time-out", async () => {
    const call = callSignal(20);
    await new Promise((r) => setTimeout(r, 60));
    expect(call.signal.aborted).toBe(true);
    expect(call.timedOut()).toBe(true);
    expect((call.signal.reason as DOMException).name).toBe("TimeoutError");
  });

  it("follows the incoming request's abort, including one that came before", () => {
    const outer = new AbortController();
    const call = callSignal(5000, outer.signal);
    outer.abort(new Error("browser left"));
    expect(call.signal.aborted).toBe(true);
    expect(call.timedOut()).toBe(false);
    expect((call.signal.reason as Error).message).toBe("browser left");
    call.release();
    expect(callSignal(5000, outer.signal).signal.aborted).toBe(true);
  });

  it("once released, neither the timer nor the request's abort reaches it", async () => {
    const outer = new AbortController();
    const call = callSignal(20, outer.signal);
    expect(getEventListeners(outer.signal, "abort")).toHaveLength(1);
    call.release();
    expect(getEventListeners(outer.signal, "abort")).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 60));
    outer.abort();
    expect(call.signal.aborted).toBe(false);
  });
});

describe("Idempotency-Key and writes whose outcome is unknown (ADR 0010)", () => {
  const SUB = "0b6f3f4e-8a53-4c1f-9a8e-2f0f5d1c7e11";
  const keyOf = (call: Call) => (call.init.headers as Record<string, string>)["idempotency-key"];

  it("a client made for a submission sends a key on every write, none on a GET, and none without one", async () => {
    const { api, calls } = client(() => json({ ok: true }), { submissionId: SUB });
    await api.get("/a");
    await api.post("/thermostats/1/settings", { body: { coolSetpointF: 70 } });
    await api.post("/thermostats/1/settings", { body: { coolSetpointF: 70 } });
    await api.put("/user_building_access", { body: { buildingId: 1, hasAccess: true } });
    await api.put("/user_building_access", { body: { buildingId: 2, hasAccess: true } });
    await api.post("/thermostats/1/settings", { body: { coolSetpointF: 71 } });
    const keys = calls.map(keyOf);
    expect(keys[0]).toBeUndefined();
    // An sf-string: the submission id, then a digest of the call.
    for (const k of keys.slice(1)) expect(k).toMatch(new RegExp(`^"${SUB}\\.[A-Za-z0-9_-]{16}"$`));
    // The same call again: the same key; another write of the submission, or another body: another key.
    expect(keys[2]).toBe(keys[1]);
    expect(new Set([keys[1], keys[3], keys[4], keys[5]]).size).toBe(4);
    const plain = client(() => json({ ok: true }));
    await plain.api.post("/thermostats/1/settings", { body: { coolSetpointF: 70 } });
    expect(keyOf(plain.calls[0])).toBeUndefined();
  });

  it("a write that got no answer after it was sent may have been applied; one never sent, or a GET, was not", async () => {
    const reset = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
    const refused = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    });
    const post = (error: unknown) => client(() => Promise.reject(error)).api.post("/x", { body: {} });
    expect((await failure(post(reset))).maybeApplied).toBe(true);
    expect((await failure(post(refused))).maybeApplied).toBe(false);
    expect((await failure(client(() => Promise.reject(reset)).api.get("/x"))).maybeApplied).toBe(false);
    // The time-out: sent, unanswered.
    const hang = client(
      (call) =>
        new Promise<Response>((_, reject) =>
          call.init.signal?.addEventListener("abort", () => reject(call.init.signal!.reason)),
        ),
      { timeoutMs: 20 },
    );
    const timedOut = await failure(hang.api.post("/x", { body: {} }));
    expect([timedOut.kind, timedOut.maybeApplied]).toEqual(["timeout", true]);
    // An answer is an answer: a 502 the api sent says it did not apply it.
    const answered = await failure(
      client(() => json({ message: "Bad gateway" }, { status: 502 })).api.post("/x", { body: {} }),
    );
    expect(answered.maybeApplied).toBe(false);
  });
});
