import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { call, loginCookie, startTestApi } from "./api-harness";

/**
 * The reference api parsed the Cookie header by hand and decoded `api_session` with
 * `decodeURIComponent`, so a malformed value answered 500. Now it is parsed with the `cookie` package and a
 * malformed or unknown session is simply not a session: 401 on every authenticated endpoint.
 */
let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const MALFORMED = [
  "api_session=%",
  "api_session=%E0%A4%A",
  "api_session=%zz",
  "api_session=%ff%fe",
  'api_session="%"',
  "api_session",
  "api_session=",
  "=; api_session=%",
  "other=%; api_session=%C0",
];

describe("api_session cookie", () => {
  it.each(MALFORMED)("a malformed cookie %j is 401, not 500", async (cookie) => {
    for (const path of ["/user", "/buildings"]) {
      const r = await call(api, "GET", path, { cookie });
      expect(r.status, path).toBe(401);
      expect(r.json).toEqual({ message: "Not authenticated" });
    }
  });

  it("a long malformed cookie is 401", async () => {
    const r = await call(api, "GET", "/user", { cookie: `api_session=${"%".repeat(4000)}` });
    expect(r.status).toBe(401);
  });

  it("an unknown session is 401", async () => {
    const r = await call(api, "GET", "/user", { cookie: "api_session=not-a-session" });
    expect(r.status).toBe(401);
  });

  it("logout with a malformed cookie still clears the cookie (204)", async () => {
    const r = await call(api, "POST", "/auth/logout", { cookie: "api_session=%E0%A4%A" });
    expect(r.status).toBe(204);
  });

  it("a real session still works among other, malformed cookies", async () => {
    const pair = await loginCookie(api, "dana@harborcoffee.test");
    for (const cookie of [pair, `a=1; ${pair}; b=%`, `x=%zz;${pair}`]) {
      const r = await call(api, "GET", "/user", { cookie });
      expect(r.status, cookie).toBe(200);
      expect(r.json.email).toBe("dana@harborcoffee.test");
    }
  });
});
