import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { loginCookie, startTestApi } from "./api-harness";

/** Every api route that reads a date uses the one schema: the bills and usage queries refuse 30 February too. */
describe("isoDate in the api's routes", () => {
  let api: RunningApi;
  let cookie = "";
  beforeAll(async () => {
    api = await startTestApi();
    cookie = await loginCookie(api, "dana@harborcoffee.test");
  }, 60_000);
  afterAll(() => api?.close());

  const get = async (path: string) => {
    const res = await fetch(`${api.url}${path}`, { headers: { cookie } });
    return { status: res.status, body: (await res.json()) as { query_params?: unknown[] } };
  };

  it("bill statements: min_date and max_date", async () => {
    const bad = await get("/building/101/bill-statements?min_date=2026-02-30");
    expect(bad.status).toBe(422);
    expect(bad.body.query_params).toEqual([{ location: "min_date", message: "must be a valid date" }]);
    expect((await get("/building/101/bill-statements?max_date=2026-02-28")).status).toBe(200);
  });

  it("usage: start_date and end_date", async () => {
    const bad = await get("/insights/104/energy-demand?start_date=2026-02-30&end_date=2026-03-02&period=day");
    expect(bad.status).toBe(422);
    expect(bad.body.query_params).toEqual([{ location: "start_date", message: "must be a valid date" }]);
  });
});
