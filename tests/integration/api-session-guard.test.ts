import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { call, startTestApi } from "./api-harness";

/**
 * Which requests the api answers 401 without a session (api/lib/auth.ts, sessionRouter). Areas that guard
 * path prefixes check every request under them, even one no route answers; areas that guard route by route
 * leave their public routes, and other areas' routes on the same prefix, open.
 */
let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const status = async (method: string, path: string) => (await call(api, method, path)).status;

describe("signed out", () => {
  it("every signed-in route of every area answers 401", async () => {
    const signedIn: [string, string][] = [
      ["GET", "/buildings"],
      ["GET", "/building/101/accounts"],
      ["GET", "/client/1/energy-advisor-buildings"],
      ["GET", "/building/101/thermostats"],
      ["GET", "/building/101/bill-statements"],
      ["GET", "/insights/101/available-usage"],
      ["GET", "/insights/1/dispatches"],
      ["GET", "/insights/1/dispatches-summary"],
      ["POST", "/building/101/dispatches/1/opt-out"],
      ["GET", "/thermostat/1001/history/2024-01-01/2024-01-02"],
      ["GET", "/onboarding-steps/1"],
      ["PUT", "/update_arcadia_vitally_task"],
      ["GET", "/users/1"],
      ["GET", "/communication-preferences"],
      ["GET", "/accounts"],
      ["GET", "/bill-monitoring-providers/1"],
      ["GET", "/1/credentials_requiring_action"],
      ["GET", "/user"],
    ];
    for (const [method, path] of signedIn)
      expect([method, path, await status(method, path)]).toEqual([method, path, 401]);
  });

  it("a path no route answers, under a guarded prefix, is 401 too", async () => {
    expect(await status("GET", "/buildings/none/such")).toBe(401);
    expect(await status("DELETE", "/thermostats/1001")).toBe(401);
  });

  it("areas guarded route by route leave the rest open", async () => {
    // Public routes of an area with signed-in ones.
    expect(await status("GET", "/arcadia-utilities")).toBe(200);
    // Another area's public route on the prefix of a signed-in one (/users/:clientId).
    expect(await status("GET", "/users/dana@harborcoffee.test/login-options")).toBe(200);
    // A method or path no route answers: not found, as for anyone.
    expect(await status("DELETE", "/users/1")).toBe(404);
    expect(await status("GET", "/onboarding-steps/1/2/3")).toBe(404);
  });
});
