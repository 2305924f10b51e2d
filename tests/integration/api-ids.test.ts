import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type RunningApi } from "../../api/server";

/** The reference api over real HTTP: its paths read building ids with pathId (tests/unit/api-ids.test.ts). */
describe("the api's paths read ids with it", () => {
  let api: RunningApi;
  let cookie = "";
  beforeAll(async () => {
    api = await startApi({ port: 0, dbFile: ":memory:", quiet: true });
    const res = await fetch(`${api.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "dana@harborcoffee.test", password: "demo-pass-2024" }),
    });
    cookie = res.headers.getSetCookie()[0].split(";")[0];
  }, 60_000);
  afterAll(() => api?.close());

  const get = async (path: string) => (await fetch(`${api.url}${path}`, { headers: { cookie } })).status;

  it("a building id written another way than digits names no building", async () => {
    expect(await get("/building/101/bill-statements")).toBe(200);
    for (const id of ["101.0", "%20101", "1.01e2", "0x65"])
      expect(await get(`/building/${id}/bill-statements`), id).toBe(404);
  });
});
