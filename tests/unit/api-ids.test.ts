import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type RunningApi } from "../../api/server";
import { pathId } from "../../api/lib/ids";
import { HttpError } from "../../api/lib/http";

const status = (f: () => unknown) => {
  try {
    f();
    return "ok";
  } catch (e) {
    return e instanceof HttpError ? e.status : "other";
  }
};

describe("pathId (api/lib/ids.ts)", () => {
  it("reads 1 to 12 digits, or a number already read", () => {
    expect(pathId("101")).toBe(101);
    expect(pathId("999999999999")).toBe(999_999_999_999);
    expect(pathId(7)).toBe(7);
  });

  it("is a 404 for anything else, like an id that is not there", () => {
    for (const v of [
      undefined,
      "",
      " 101",
      "101.0",
      "1e3",
      "0x10",
      "+5",
      "-5",
      "0",
      "abc",
      "1".repeat(13),
      1.5,
      0,
      -1,
    ])
      expect(
        status(() => pathId(v)),
        String(v),
      ).toBe(404);
  });
});

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
