/**
 * The dismissal link page names its thermostat in one upstream round trip: GET /thermostats/{id},
 * our extension of the contract. Against the real api behind a recording proxy, the page's loader makes exactly
 * that one call; an upstream without the route (404 "Not Found") gets the contract's listing instead, with the
 * same answer.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startApi, type RunningApi } from "../../api/server";
import { TEST_CLOCK_START } from "../support/clock";
import { startFaultProxy } from "../support/stack";
import { DANA_SESSION_USER, apiSessionOf, webSessionCookie } from "../support/session-users";

let api: RunningApi;
let proxy: Awaited<ReturnType<typeof startFaultProxy>>;
let cookie: string;
let loader: typeof import("~/routes/dismiss-thermostat-issue").loader;
const ctx = { cspNonce: "" };

beforeAll(async () => {
  api = await startApi({ port: 0, dbFile: ":memory:", clockStart: TEST_CLOCK_START, quiet: true });
  proxy = await startFaultProxy(api.url);
  process.env.API_URL = proxy.url;
  process.env.SESSION_SECRET = "integration-secret-0123456789abcdef0123456789";
  // The web tier's clock (app/server/clock.server.ts) starts where the api's does.
  process.env.CLOCK_START = TEST_CLOCK_START;
  cookie = await webSessionCookie(DANA_SESSION_USER, await apiSessionOf(api.url, DANA_SESSION_USER.email));
  ({ loader } = await import("~/routes/dismiss-thermostat-issue"));
});

afterAll(async () => {
  await proxy?.close();
  await api?.close();
});

beforeEach(() => {
  proxy.clear();
  proxy.calls.length = 0;
});

async function open(thermostatId: number, issueSlug: string) {
  const request = new Request(
    `http://localhost/dismiss-thermostat-issue?thermostatId=${thermostatId}&issueSlug=${issueSlug}`,
    { headers: { cookie } },
  );
  const answer = (await loader({ request, params: {}, context: ctx })) as unknown as {
    data: { target: unknown };
    init: ResponseInit | null;
  };
  return { target: answer.data.target, status: answer.init?.status ?? 200, calls: [...proxy.calls] };
}

const WINDOW_BAR = {
  thermostatName: "Window Bar",
  issueLabel: "Inactive schedule",
  // Window Bar's hold auto-resolves: the control room hides DISMISS, and so does the link (rule dismissal-offer).
  refusal: "autoresolves",
};

describe("the dismissal page's lookup", () => {
  it("names the thermostat, its location and the issue in one upstream call", async () => {
    const { target, status, calls } = await open(1024, "permanent_hold");
    expect(status).toBe(200);
    expect(target).toMatchObject(WINDOW_BAR);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["GET /thermostats/1024"]);
  });

  it("says why an issue may not be dismissed: Airzone, already dismissed, resolved; a dismissible one has no refusal", async () => {
    expect((await open(1019, "permanent_hold")).target).toMatchObject({
      thermostatName: "Downstairs",
      refusal: "airzone",
    });
    expect((await open(1022, "unchanging_schedule")).target).toMatchObject({ refusal: "dismissed" });
    expect((await open(1003, "permanent_hold")).target).toMatchObject({ refusal: "resolved" });
    expect((await open(1021, "permanent_hold")).target).toMatchObject({ refusal: "resolving" });
    expect((await open(1013, "permanent_hold")).target).toMatchObject({
      thermostatName: "Front of House",
      refusal: null,
    });
  });

  it("another client's thermostat: nothing to name (404), still one call", async () => {
    const { target, status, calls } = await open(2001, "permanent_hold");
    expect(target).toBeNull();
    expect(status).toBe(404);
    expect(calls).toHaveLength(1);
  });

  it("an upstream without GET /thermostats/{id} gets the listing, with the same answer", async () => {
    const one = await open(1024, "permanent_hold");
    proxy.calls.length = 0;
    proxy.fail(/^\/thermostats\/\d+$/, "404-route", "GET");
    const listed = await open(1024, "permanent_hold");
    expect(listed.target).toEqual(one.target);
    const paths = listed.calls.map((c) => c.path);
    expect(paths[0]).toBe("/thermostats/1024");
    expect(paths[1]).toMatch(/^\/buildings\?/);
    expect(paths.slice(2).every((p) => /^\/building\/\d+\/thermostats$/.test(p))).toBe(true);
    expect(paths.length).toBeGreaterThan(2);
    // Another client's thermostat through the listing: not found either.
    expect(await open(2001, "permanent_hold")).toMatchObject({ target: null, status: 404 });
  });

  it("an upstream failure of the one call is not taken for a missing route", async () => {
    proxy.fail(/^\/thermostats\/\d+$/, "500", "GET");
    const { target, status, calls } = await open(1024, "permanent_hold");
    expect(target).toBeNull();
    expect(status).toBe(502);
    expect(calls).toHaveLength(1);
  });
});
