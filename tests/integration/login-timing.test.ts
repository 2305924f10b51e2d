import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { call, startTestApi } from "./api-harness";

/** "Enumeration by timing": a wrong password costs the api the same work for every address. */
let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
}, 60_000);
afterAll(async () => {
  await api.close();
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(path: string, body: Record<string, string>) {
  const started = performance.now();
  const r = await call(api, "POST", path, { body });
  expect(r.status).toBe(401);
  return performance.now() - started;
}

describe("sign-in timing does not tell whether an account exists", () => {
  it("a wrong password for an unknown address or an account without a password takes as long as for a real one", async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    const noPassword: number[] = [];
    // Interleaved, so a slow moment of a shared machine hits all three alike.
    for (let i = 0; i < 15; i++) {
      known.push(await timed("/auth/login", { email: "dana@harborcoffee.test", password: `wrong-${i}` }));
      unknown.push(await timed("/auth/login", { email: `nobody-${i}@example.test`, password: `wrong-${i}` }));
      noPassword.push(await timed("/auth/login", { email: "sam@harborcoffee.test", password: `wrong-${i}` }));
    }
    // Generous bounds: before the fix the unknown address answered about 20 times faster.
    expect(median(unknown)).toBeGreaterThanOrEqual(0.5 * median(known));
    expect(median(noPassword)).toBeGreaterThanOrEqual(0.5 * median(known));
  }, 60_000);

  it("a wrong login code goes through the same path for an unknown address", async () => {
    await call(api, "POST", "/auth/login-code/request", { body: { email: "sam@harborcoffee.test" } });
    expect(
      (
        await call(api, "POST", "/auth/login-code", {
          body: { email: "sam@harborcoffee.test", code: "000000" },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await call(api, "POST", "/auth/login-code", {
          body: { email: "nobody@example.test", code: "000000" },
        })
      ).status,
    ).toBe(401);
  });
});
