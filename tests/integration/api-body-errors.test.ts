import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { startTestApi } from "./api-harness";

/**
 * A body the api cannot read is the client's fault, answered as such: 413 for one over
 * the limit, 415 for an encoding or charset it does not take, 400 for a malformed one; never 500.
 */
let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const post = (path: string, body: BodyInit, headers: Record<string, string>) =>
  fetch(`${api.url}${path}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });

describe("unreadable request bodies", () => {
  it("an oversized body answers 413, on the api and on the webhook", async () => {
    const big = JSON.stringify({ email: "x".repeat(1_100_000) });
    const res = await post("/auth/login", big, {});
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: "Request body too large" });
    const hook = await post("/webhooks/arcadia", "x".repeat(300_000), {});
    expect(hook.status).toBe(413);
  });

  it("an unsupported or broken encoding or charset answers 415 or 400, never 500", async () => {
    const br = await post("/auth/login", "{}", { "content-encoding": "br" });
    expect(br.status).toBe(415);
    expect(await br.json()).toEqual({ message: "Unsupported content encoding" });
    const charset = await post("/auth/login", "{}", { "content-type": "application/json; charset=klingon" });
    expect(charset.status).toBe(415);
    expect(await charset.json()).toEqual({ message: "Unsupported charset" });
    const badGzip = await post("/auth/login", "not gzip at all", { "content-encoding": "gzip" });
    expect(badGzip.status).toBe(400);
    // A well-formed gzip body is read as usual (the login is refused on its merits, not its encoding).
    const gz = await post(
      "/auth/login",
      gzipSync(JSON.stringify({ email: "nobody@example.test", password: "x" })),
      {
        "content-encoding": "gzip",
      },
    );
    expect(gz.status).not.toBe(500);
    expect(gz.status).not.toBe(415);
  });
});
