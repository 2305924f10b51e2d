import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { z as z4 } from "zod/v4";
import { createAnswerMemo, deepFreeze, sameBytes } from "~/server/upstream/answer-memo.server";
import { createApiClient } from "~/server/upstream/api-client.server";

const b = (s: string) => Buffer.from(s);
/** The same bytes as they might arrive: in pieces of `size`. */
const pieces = (s: string, size: number) =>
  Array.from({ length: Math.ceil(s.length / size) }, (_, i) => b(s.slice(i * size, (i + 1) * size)));

describe("the memo of parsed answers", () => {
  it("gives back a value only for exactly the bytes it was made from, however they arrive", () => {
    const memo = createAnswerMemo(1000);
    const value = { items: [1, 2] };
    memo.set("k", b('{"items":[1,2]}'), value);
    expect(memo.get("k", [b('{"items":[1,2]}')])).toBe(value);
    expect(memo.get("k", pieces('{"items":[1,2]}', 4))).toBe(value);
    expect(memo.get("k", [b('{"items":[1,3]}')])).toBeUndefined();
    expect(memo.get("other", [b('{"items":[1,2]}')])).toBeUndefined();
  });

  it("compares bytes exactly: a prefix, a longer body or one changed byte is not a match", () => {
    const kept = b("abcdefgh");
    expect(sameBytes([b("abcd"), b("efgh")], kept)).toBe(true);
    expect(sameBytes([b("abcd")], kept)).toBe(false);
    expect(sameBytes([b("abcdefgh"), b("i")], kept)).toBe(false);
    expect(sameBytes([b("abcd"), b("efgX")], kept)).toBe(false);
    expect(sameBytes([], b(""))).toBe(true);
  });

  it("freezes what it keeps, all the way down", () => {
    const memo = createAnswerMemo(1000);
    const value = { items: [{ id: 1, address: { city: "x" } }] };
    memo.set("k", b("t"), value);
    expect(Object.isFrozen(value.items[0].address)).toBe(true);
    expect(() => {
      (value.items as unknown[]).push(2);
    }).toThrow(TypeError);
  });

  it("holds at most its budget of bytes, dropping the least recently used first", () => {
    const memo = createAnswerMemo(100);
    memo.set("a", b("x".repeat(10)), 1);
    memo.set("b", b("y".repeat(10)), 2);
    memo.get("a", [b("x".repeat(10))]); // a is now the most recently used
    for (let i = 0; i < 9; i++) memo.set(`c${i}`, b(String(i).repeat(10)), i);
    expect(memo.bytes).toBeLessThanOrEqual(100);
    expect(memo.get("b", [b("y".repeat(10))])).toBeUndefined();
    expect(memo.get("a", [b("x".repeat(10))])).toBe(1);
  });

  it("keeps no answer larger than an eighth of its budget, and forgets the key's older bytes", () => {
    const memo = createAnswerMemo(800);
    memo.set("k", b("small"), 1);
    memo.set("k", b("z".repeat(101)), 2);
    expect(memo.get("k", [b("small")])).toBeUndefined();
    expect(memo.get("k", [b("z".repeat(101))])).toBeUndefined();
    expect(memo.size).toBe(0);
    expect(memo.bytes).toBe(0);
  });

  it("deepFreeze leaves primitives alone and returns what it was given", () => {
    expect(deepFreeze(3)).toBe(3);
    expect(deepFreeze(null)).toBe(null);
    const o = { a: [1] };
    expect(deepFreeze(o)).toBe(o);
  });
});

describe("the api client with a memo", () => {
  const BODY = { items: [{ building_id: 1, name: "A" }], total: 1 };
  function setup(answer: () => unknown = () => BODY, session = "tok", memo = createAnswerMemo(100_000)) {
    const transform = vi.fn((x: unknown) => x);
    const calls: string[] = [];
    const fetchImpl = (async (url: string) => {
      calls.push(String(url));
      return new Response(JSON.stringify(answer()), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    }) as unknown as typeof fetch;
    // A new client per page view, as getApi makes one per request, all with the process's one memo.
    const api = () =>
      createApiClient({
        baseUrl: "http://up/api",
        apiSession: session,
        timeoutMs: 500,
        fetchImpl,
        memo,
        transform,
        shared: new Map(),
      });
    return { api, calls, transform, memo };
  }
  const schema = z.object({ items: z.array(z.object({ buildingId: z.number(), name: z.string() })) });

  it("an answer with the text of the last one is neither converted nor validated again: the same value", async () => {
    const { api, calls, transform } = setup();
    const parse = vi.spyOn(schema, "safeParse");
    const first = await api().get("/buildings", { schema });
    const second = await api().get("/buildings", { schema });
    expect(calls).toHaveLength(2); // every page view still asks the api
    expect(second).toBe(first);
    expect(transform).toHaveBeenCalledTimes(1);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(first).toEqual({ items: [{ buildingId: 1, name: "A" }] });
  });

  it("zod 4 schemas too", async () => {
    const { api } = setup();
    const s4 = z4.object({ items: z4.array(z4.object({ buildingId: z4.number() })) });
    const parse = vi.spyOn(s4, "safeParse");
    expect(await api().get("/buildings", { schema: s4 })).toBe(await api().get("/buildings", { schema: s4 }));
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it("a changed answer is parsed afresh: never a stale value", async () => {
    let name = "A";
    const { api, transform } = setup(() => ({ items: [{ building_id: 1, name }] }));
    expect((await api().get("/buildings", { schema })).items[0].name).toBe("A");
    name = "B";
    expect((await api().get("/buildings", { schema })).items[0].name).toBe("B");
    expect(transform).toHaveBeenCalledTimes(2);
  });

  it("another upstream session never gets this one's value", async () => {
    const memo = createAnswerMemo(100_000);
    const a = setup(undefined, "alice", memo);
    const b = setup(undefined, "bob", memo);
    const x = await a.api().get("/buildings", { schema });
    const y = await b.api().get("/buildings", { schema });
    expect(y).toEqual(x);
    expect(y).not.toBe(x);
    expect(b.transform).toHaveBeenCalledTimes(1);
  });

  it("a shared value cannot be changed by the code that got it", async () => {
    const { api } = setup();
    const value = await api().get("/buildings", { schema });
    expect(() => {
      (value.items as unknown[]).push({});
    }).toThrow(TypeError);
    expect(() => {
      (value.items[0] as { name: string }).name = "changed";
    }).toThrow(TypeError);
  });

  it("a GET without a schema hands out a copy the caller may change", async () => {
    const { api } = setup();
    const x = (await api().get("/buildings")) as { items: { name: string }[] };
    x.items[0].name = "mine";
    const y = (await api().get("/buildings")) as { items: { name: string }[] };
    expect(y.items[0].name).toBe("A");
  });

  it("an answer that breaks the schema fails every time, memoised or not", async () => {
    const { api } = setup(() => ({ items: [{ building_id: "not a number" }] }));
    for (let i = 0; i < 2; i++)
      await expect(api().get("/buildings", { schema })).rejects.toMatchObject({ kind: "contract" });
  });

  it("without a memo every answer is parsed and nothing is frozen", async () => {
    const transform = vi.fn((x: unknown) => x);
    const fetchImpl = (async () =>
      new Response(JSON.stringify(BODY), {
        headers: { "content-type": "application/json" },
      })) as unknown as typeof fetch;
    const api = createApiClient({ baseUrl: "http://up/api", timeoutMs: 500, fetchImpl, transform });
    const x = await api.get("/buildings", { schema });
    await api.get("/buildings", { schema });
    expect(transform).toHaveBeenCalledTimes(2);
    expect(Object.isFrozen(x)).toBe(false);
  });
});
