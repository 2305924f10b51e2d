import { describe, expect, it } from "vitest";
import { acceptRequestId, requestId } from "~/server/http/request-id.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("acceptRequestId", () => {
  it.each(["abcdefgh", "req-2024.11_23-AbC", "0123456789abcdef0123456789abcdef", "a".repeat(64)])(
    "keeps the safe token %s",
    (id) => expect(acceptRequestId(id)).toBe(id),
  );

  it.each([
    ["too short", "abc1234"],
    ["too long", "a".repeat(65)],
    ["a space", "abcd efgh"],
    ["a newline (log forging)", 'abcdefgh\n{"level":50}'],
    ["a quote", 'abcdefgh"x'],
    ["a slash", "abcd/efgh"],
    ["a colon", "abcd:efgh"],
    ["non-ASCII", "abcdéfghi"],
    ["empty", ""],
  ])("replaces an id with %s by a new UUID", (_what, id) => {
    const accepted = acceptRequestId(id);
    expect(accepted).not.toBe(id);
    expect(accepted).toMatch(UUID);
  });

  it("generates a UUID when there is none, a fresh one each time", () => {
    const a = acceptRequestId(undefined);
    expect(a).toMatch(UUID);
    expect(acceptRequestId(undefined)).not.toBe(a);
  });

  it("never trusts a repeated header", () => {
    expect(acceptRequestId(["abcdefgh", "ijklmnop"])).toMatch(UUID);
  });
});

describe("requestId middleware", () => {
  function run(incoming?: string) {
    const req = { headers: incoming === undefined ? {} : { "x-request-id": incoming } } as never as {
      headers: Record<string, string>;
    };
    const headers: Record<string, string> = {};
    const res = { setHeader: (k: string, v: string) => (headers[k.toLowerCase()] = v) };
    let called = false;
    requestId()(req as never, res as never, () => (called = true));
    return { req, headers, called };
  }

  it("writes the settled id into the request's headers and the answer", () => {
    const kept = run("abcdefgh-1234");
    expect(kept.called).toBe(true);
    expect(kept.req.headers["x-request-id"]).toBe("abcdefgh-1234");
    expect(kept.headers["x-request-id"]).toBe("abcdefgh-1234");

    const replaced = run("bad id");
    expect(replaced.req.headers["x-request-id"]).toMatch(UUID);
    expect(replaced.headers["x-request-id"]).toBe(replaced.req.headers["x-request-id"]);
  });
});
