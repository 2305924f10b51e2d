import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { loginCookie, startTestApi } from "./api-harness";

/** The reference api over real HTTP: its paths read building ids with pathId (tests/unit/api-ids.test.ts). */
describe("the api's paths read ids with it", () => {
  let api: RunningApi;
  let cookie = "";
  beforeAll(async () => {
    api = await startTestApi();
    cookie = await loginCookie(api, "dana@harborcoffee.test");
  }, 60_000);
  afterAll(() => api?.close());

  const get = async (path: string) => (await fetch(`${api.url}${path}`, { headers: { cookie } })).status;

  it("a building id written another way than digits names no building", async () => {
    expect(await get("/building/101/bill-statements")).toBe(200);
    for (const id of ["101.0", "%20101", "1.01e2", "0x65"])
      expect(await get(`/building/${id}/bill-statements`), id).toBe(404);
  });
});
