import { describe, expect, it } from "vitest";
import { parseConfig } from "~/server/config.server";
import { bodyDeadline, serverOptions } from "~/server/http/slow-clients.server";

describe("the body-rate rule", () => {
  const deadline = (received: number) => bodyDeadline(0, received, 10_000, 500);

  it("a body dribbled at a byte every 2 s is cut off 10–15 s after it began", () => {
    // The first moment t (checked every 500 ms) past the deadline for what has arrived by t.
    let t = 0;
    while (t <= deadline(Math.floor(t / 2000))) t += 500;
    expect(t).toBeGreaterThanOrEqual(10_000);
    expect(t).toBeLessThanOrEqual(15_000);
  });

  it("a 64 KiB form at 500 bytes a second or more is never cut off", () => {
    for (let t = 0; t <= 131_072; t += 100) expect(t).toBeLessThanOrEqual(deadline((t / 1000) * 500));
    expect(deadline(64 * 1024)).toBeGreaterThan(131_000);
  });
});

describe("configuration", () => {
  it("defaults: headers 10 s, whole request 30 s, body 10 s + 500 B/s, keep-alive 65 s, 1024 connections", () => {
    const cfg = parseConfig({});
    expect(cfg).toMatchObject({
      HEADERS_TIMEOUT_MS: 10_000,
      REQUEST_TIMEOUT_MS: 30_000,
      BODY_TIMEOUT_MS: 10_000,
      BODY_MIN_RATE: 500,
      KEEP_ALIVE_TIMEOUT_MS: 65_000,
      MAX_CONNECTIONS: 1024,
    });
    // Node's default checks its timeouts every 30 s; ours every second at most.
    expect(serverOptions(cfg).connectionsCheckingInterval).toBe(1000);
  });

  it("refuses a request timeout shorter than the headers timeout", () => {
    expect(() => parseConfig({ HEADERS_TIMEOUT_MS: "20000", REQUEST_TIMEOUT_MS: "10000" })).toThrow(
      /REQUEST_TIMEOUT_MS/,
    );
  });
});
