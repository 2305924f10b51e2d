import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, webLogin, type Stack } from "../support/stack";

/** Server-Timing reveals how long the server worked (e.g. a password hash): production sends none unless asked. */
let prod: Stack;
let bench: Stack;
const DANA = "dana@harborcoffee.test";

beforeAll(async () => {
  [prod, bench] = await Promise.all([
    startStack({ SERVER_TIMING: "" }),
    startStack({ SERVER_TIMING: "true" }),
  ]);
});
afterAll(async () => {
  await Promise.all([prod?.stop(), bench?.stop()]);
});

const wrongPassword = (s: Stack) =>
  fetch(`${s.url}/login?email=${encodeURIComponent(DANA)}`, {
    method: "POST",
    body: new URLSearchParams({ intent: "password", email: DANA, password: "wrong", next: "/" }),
    redirect: "manual",
  });

describe("Server-Timing", () => {
  it("a production server sends none by default (pages, sign-in answers, health check)", async () => {
    const cookie = await webLogin(prod.url, DANA);
    for (const res of [
      await wrongPassword(prod),
      await fetch(`${prod.url}/login`),
      await fetch(`${prod.url}/locations`, { headers: { cookie } }),
      await fetch(`${prod.url}/locations.data`, { headers: { cookie } }),
      await fetch(`${prod.url}/healthz`),
    ]) {
      await res.arrayBuffer();
      expect(res.headers.get("server-timing")).toBeNull();
    }
  });

  it("SERVER_TIMING=true (the benchmark) turns it on", async () => {
    const res = await fetch(`${bench.url}/login`);
    await res.arrayBuffer();
    expect(res.headers.get("server-timing")).toMatch(/total;dur=\d/);
  });
});
