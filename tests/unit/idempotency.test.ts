import { afterAll, describe, expect, it, vi } from "vitest";
import {
  idempotentAction,
  MemoryIdempotencyStore,
  once,
  ownerOf,
  submissionKey,
  SubmissionInProgressError,
  type ActionOutcome,
} from "~/server/idempotency.server";
import { ApiError } from "~/server/upstream/api-error";
import { changedSettings } from "~/features/thermostats/thermostats";
import { submissionIdField } from "~/lib/submission-id";

/**
 * The test owns its upstream: a server on a free port that records each call and refuses it (503), set as API_URL
 * before the web tier first reads its configuration (hoisted above the imports). Whatever answers on the default
 * api port (`npm start`'s embedded api on 127.0.0.1:3001) is never asked.
 */
const upstream = await vi.hoisted(async () => {
  const { createServer } = await import("node:http");
  const calls: string[] = [];
  const server = createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    res.writeHead(503, { "Content-Type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as import("node:net").AddressInfo;
  vi.stubEnv("API_URL", `http://127.0.0.1:${port}/api`);
  return { server, calls };
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((resolve) => upstream.server.close(resolve));
});

const ID = "0b6e4a3c-1f2d-4e5f-8a9b-0c1d2e3f4a5b";

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("the in-memory idempotency store", () => {
  it("claims a key once, keeps the outcome for its TTL, then forgets it", async () => {
    const c = clock();
    const store = new MemoryIdempotencyStore(100, c.now);
    expect(await store.claim("k", 1_000)).toBe(true);
    expect(await store.claim("k", 1_000)).toBe(false);
    expect(await store.read("k")).toEqual({ state: "pending" });
    await store.finish("k", { kind: "redirect", to: "/x" }, 10_000);
    c.advance(9_999);
    expect(await store.read("k")).toEqual({ state: "done", outcome: { kind: "redirect", to: "/x" } });
    expect(await store.claim("k", 1_000)).toBe(false);
    c.advance(1);
    expect(await store.read("k")).toBeNull();
    expect(await store.claim("k", 1_000)).toBe(true);
  });

  it("a pending mark expires on its own (a crashed processing does not block the id forever)", async () => {
    const c = clock();
    const store = new MemoryIdempotencyStore(100, c.now);
    await store.claim("k", 500);
    c.advance(500);
    expect(await store.claim("k", 500)).toBe(true);
  });

  it("is bounded: beyond `max` entries the oldest go first, expired ones before them", async () => {
    const c = clock();
    const store = new MemoryIdempotencyStore(3, c.now);
    await store.finish("a", 1, 60_000);
    await store.finish("short", 0, 10);
    await store.finish("b", 2, 60_000);
    c.advance(20);
    await store.finish("c", 3, 60_000);
    expect(store.size).toBe(3);
    expect(await store.read("short")).toBeNull();
    expect(await store.read("a")).not.toBeNull();
    await store.finish("d", 4, 60_000);
    expect(store.size).toBe(3);
    expect(await store.read("a")).toBeNull();
    for (const k of ["b", "c", "d"]) expect(await store.read(k)).not.toBeNull();
    for (let i = 0; i < 1_000; i++) await store.finish(`x${i}`, i, 60_000);
    expect(store.size).toBe(3);
  });

  it("release frees the key", async () => {
    const store = new MemoryIdempotencyStore();
    await store.claim("k", 1_000);
    await store.release("k");
    expect(await store.read("k")).toBeNull();
    expect(await store.claim("k", 1_000)).toBe(true);
  });
});

describe("submission keys", () => {
  const form = (entries: [string, string][]) => new URLSearchParams(entries);
  const dana = ownerOf({ id: 1, clientId: 10, isImpersonating: false });
  const sam = ownerOf({ id: 2, clientId: 10, isImpersonating: false });

  it("are per user: one user cannot replay another's submission id", () => {
    const f = form([
      ["submissionId", ID],
      ["thermostatId", "1012"],
      ["coolSetpointF", "74"],
    ]);
    expect(submissionKey(dana, "thermostat-settings", ID, f)).not.toBe(
      submissionKey(sam, "thermostat-settings", ID, f),
    );
    expect(ownerOf({ id: 9, clientId: 10, isImpersonating: true })).not.toBe(
      ownerOf({ id: 9, clientId: 11, isImpersonating: true }),
    );
  });

  it("are the same for a repeat (field order aside) and differ for another form, id or change", () => {
    const a = form([
      ["submissionId", ID],
      ["thermostatId", "1012"],
      ["coolSetpointF", "74"],
    ]);
    const reordered = form([
      ["coolSetpointF", "74"],
      ["thermostatId", "1012"],
      ["submissionId", ID],
    ]);
    const key = submissionKey(dana, "thermostat-settings", ID, a);
    expect(submissionKey(dana, "thermostat-settings", ID, reordered)).toBe(key);
    expect(submissionKey(dana, "bill-flag", ID, a)).not.toBe(key);
    expect(submissionKey(dana, "thermostat-settings", ID.replace("0b6e", "1b6e"), a)).not.toBe(key);
    expect(
      submissionKey(
        dana,
        "thermostat-settings",
        ID,
        form([
          ["submissionId", ID],
          ["thermostatId", "1012"],
          ["coolSetpointF", "75"],
        ]),
      ),
    ).not.toBe(key);
    expect(key).not.toContain("1012");
  });

  it("the submission id is never a thermostat setting (auto mode sends all three settings, only those)", () => {
    const current = { mode: "cool", coolSetpointF: 74, heatSetpointF: 68 };
    const next = { mode: "auto", coolSetpointF: 75, heatSetpointF: 68, submissionId: ID };
    expect(changedSettings(current as never, next)).toEqual({
      mode: "auto",
      coolSetpointF: 75,
      heatSetpointF: 68,
    });
  });

  it("the form field accepts a UUID and treats anything else as absent", () => {
    expect(submissionIdField.parse(ID)).toBe(ID);
    expect(submissionIdField.parse("not-an-id")).toBeUndefined();
    expect(submissionIdField.parse(undefined)).toBeUndefined();
  });
});

describe("once", () => {
  const remember = (o: { ok: boolean }) => o.ok;

  it("runs a submission once; repeats get the first outcome", async () => {
    const store = new MemoryIdempotencyStore();
    let calls = 0;
    const run = async () => ({ ok: true, n: ++calls });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await once("k", run, remember, { store }));
    expect(calls).toBe(1);
    expect(answers).toEqual([
      { ok: true, n: 1 },
      { ok: true, n: 1 },
      { ok: true, n: 1 },
    ]);
  });

  it("concurrent repeats wait for the first and run nothing", async () => {
    const store = new MemoryIdempotencyStore();
    let calls = 0;
    let finish!: () => void;
    const gate = new Promise<void>((r) => (finish = r));
    const run = async () => {
      calls++;
      await gate;
      return { ok: true, n: calls };
    };
    const all = Promise.all([1, 2, 3].map(() => once("k", run, remember, { store, pollMs: 5 })));
    await new Promise((r) => setTimeout(r, 30));
    finish();
    expect(await all).toEqual([
      { ok: true, n: 1 },
      { ok: true, n: 1 },
      { ok: true, n: 1 },
    ]);
    expect(calls).toBe(1);
  });

  it("an outcome that is not final (an error reply) or a thrown error leaves the id free for a retry", async () => {
    const store = new MemoryIdempotencyStore();
    let calls = 0;
    await once("k", async () => ({ ok: false, n: ++calls }), remember, { store });
    await expect(
      once(
        "k",
        async () => {
          calls++;
          throw new Error("boom");
        },
        remember,
        { store },
      ),
    ).rejects.toThrow("boom");
    expect(await once("k", async () => ({ ok: true, n: ++calls }), remember, { store })).toEqual({
      ok: true,
      n: 3,
    });
  });

  it("without a key (no submission id) it simply runs", async () => {
    let calls = 0;
    await once(null, async () => ({ ok: true, n: ++calls }), remember);
    await once(null, async () => ({ ok: true, n: ++calls }), remember);
    expect(calls).toBe(2);
  });

  it("gives up waiting on a submission that stays in progress", async () => {
    const store = new MemoryIdempotencyStore();
    await store.claim("k", 60_000);
    await expect(
      once("k", async () => ({ ok: true }), remember, { store, waitMs: 30, pollMs: 5 }),
    ).rejects.toBeInstanceOf(SubmissionInProgressError);
  });
});

describe("idempotentAction", () => {
  const dana = { id: 1, clientId: 7, isImpersonating: false };
  const form = () => {
    const f = new FormData();
    f.set("submissionId", ID);
    f.set("mode", "cool");
    return f;
  };
  const post = () => new Request("http://web/x", { method: "POST" });
  type Body = { message: string };
  const accepted = async (): Promise<ActionOutcome<Body>> => ({
    kind: "redirect",
    to: "/done",
    toast: { kind: "success", message: "Saved" },
  });
  const refused = async (): Promise<ActionOutcome<Body>> => ({
    kind: "reply",
    status: 422,
    body: { message: "No" },
  });

  it("runs an accepted change once; a repeat gets the same redirect and toast", async () => {
    const store = new MemoryIdempotencyStore();
    const change = vi.fn(accepted);
    const submission = { user: dana, scope: "s", form: form(), submissionId: ID };
    const first = await idempotentAction({ request: post() }, submission, change, { store });
    const repeat = await idempotentAction({ request: post() }, { ...submission, form: form() }, change, {
      store,
    });
    expect(change).toHaveBeenCalledTimes(1);
    for (const r of [first, repeat]) {
      expect(r).toBeInstanceOf(Response);
      const res = r as Response;
      expect([res.status, res.headers.get("Location")]).toEqual([302, "/done"]);
      expect(res.headers.get("Set-Cookie")).toMatch(/session=v1\./);
    }
  });

  it("a refused change (a reply) or a thrown error leaves the id free: the retry runs", async () => {
    const store = new MemoryIdempotencyStore();
    const submission = { user: dana, scope: "s", form: form(), submissionId: ID };
    const reply = await idempotentAction({ request: post() }, submission, refused, { store });
    expect(reply).toMatchObject({ init: { status: 422 }, data: { message: "No" } });
    const boom = vi.fn(async (): Promise<ActionOutcome<Body>> => {
      throw new Error("boom");
    });
    await expect(idempotentAction({ request: post() }, submission, boom, { store })).rejects.toThrow("boom");
    const change = vi.fn(accepted);
    await idempotentAction({ request: post() }, submission, change, { store });
    expect(change).toHaveBeenCalledTimes(1);
  });

  it("keys by user, form and id: another user's or another form's same id runs; no id runs every time", async () => {
    const store = new MemoryIdempotencyStore();
    const change = vi.fn(accepted);
    const run = (s: Partial<Parameters<typeof idempotentAction>[1]>) =>
      idempotentAction(
        { request: post() },
        { user: dana, scope: "s", form: form(), submissionId: ID, ...s },
        change,
        {
          store,
        },
      );
    await run({});
    await run({ user: { ...dana, id: 2 } });
    await run({ scope: "other" });
    await run({ submissionId: undefined });
    await run({ submissionId: undefined });
    expect(change).toHaveBeenCalledTimes(5);
  });

  it("gives the change an api client that the browser's abort does not cancel", async () => {
    const store = new MemoryIdempotencyStore();
    const browser = new AbortController();
    const request = new Request("http://web/x", { method: "POST", signal: browser.signal });
    browser.abort();
    let sent: unknown;
    const answer = await idempotentAction(
      { request },
      { user: dana, scope: "s", form: form(), submissionId: ID },
      async (api) => {
        // The browser has gone: the detached call still reaches the upstream, and fails as the upstream
        // answered (503), never as "aborted".
        sent = await api.get("/user").catch((e: unknown) => e);
        return accepted();
      },
      { store },
    );
    expect((answer as Response).status).toBe(302);
    expect(upstream.calls).toEqual(["GET /api/user"]);
    expect(sent).toBeInstanceOf(ApiError);
    expect((sent as ApiError).kind).not.toBe("aborted");
  });
});
