import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerChild } from "./server-child";

/**
 * A 200,000-field, 2.8 MB form POST (and a 64 KiB one packed with fields) used to freeze the server for seconds
 * while Remix parsed it; now it is refused before parsing and the health check stays fast meanwhile.
 */
let server: Awaited<ReturnType<typeof startServerChild>>;

beforeAll(async () => {
  server = await startServerChild();
});
afterAll(async () => {
  await server?.stop();
});

const huge = Array.from({ length: 200_000 }, (_, i) => `f${i}=${i}`).join("&");
const packed = "a&".repeat(32 * 1024 - 1);

async function flood(body: string, chunked: boolean) {
  const res = await fetch(`${server.url}/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    // A stream has no Content-Length: it goes chunked.
    body: chunked ? new Blob([body]).stream() : body,
    duplex: "half",
    redirect: "manual",
  } as RequestInit);
  await res.arrayBuffer();
  return res.status;
}

describe("form field flood", () => {
  it("four 200,000-field posts and four packed 64 KiB ones at once: 413 each, health check fast throughout", async () => {
    expect(huge.length).toBeGreaterThan(2_500_000);
    expect(packed.length).toBeLessThanOrEqual(64 * 1024);
    const health: number[] = [];
    let flooding = true;
    const probe = (async () => {
      while (flooding) {
        const started = performance.now();
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        health.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      statuses.push(
        ...(await Promise.all([
          flood(huge, false),
          flood(huge, true),
          flood(huge, false),
          flood(huge, true),
          ...[0, 1, 2, 3].map((i) => flood(packed, i % 2 === 1)),
        ])),
      );
    }
    flooding = false;
    await probe;
    console.log(
      `form flood: ${health.length} health checks during, slowest ${Math.round(Math.max(...health))} ms`,
    );
    expect(health.length).toBeGreaterThan(0);
    // Before: 2.3–7 s. A generous bound for a shared machine.
    expect(Math.max(...health)).toBeLessThan(2000);
    expect(statuses.every((s) => s === 413)).toBe(true);
  });
});
