import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { call, loginCookie, startTestApi } from "./api-harness";

/** The upstream session token changes at impersonation start and stop; the old one is refused. */
let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
}, 60_000);
afterAll(async () => {
  await api.close();
});

const newCookie = (res: Response) => {
  const c = res.headers.get("set-cookie");
  expect(c).toMatch(/^api_session=[\w-]{40,}; HttpOnly; Path=\//);
  return c!.split(";")[0];
};

describe("impersonation rotates the api session", () => {
  it("issues a new token at start and at stop and revokes the one before", async () => {
    const before = await loginCookie(api, "morgan@energyops.test");
    const start = await call(api, "POST", "/impersonation", {
      cookie: before,
      body: { client_id: 1, reason: "support ticket 42" },
    });
    expect(start.status).toBe(200);
    expect(start.json).toMatchObject({ is_impersonating: true, client: { id: 1 } });
    const during = newCookie(start.res);
    expect(during).not.toBe(before);
    expect((await call(api, "GET", "/user", { cookie: before })).status).toBe(401);
    expect((await call(api, "GET", "/user", { cookie: during })).json).toMatchObject({
      is_impersonating: true,
      client_id: 1,
    });

    const stop = await call(api, "DELETE", "/impersonation", { cookie: during });
    expect(stop.status).toBe(200);
    expect(stop.json).toMatchObject({ is_impersonating: false });
    const after = newCookie(stop.res);
    expect(new Set([before, during, after]).size).toBe(3);
    expect((await call(api, "GET", "/user", { cookie: during })).status).toBe(401);
    expect((await call(api, "GET", "/user", { cookie: after })).json).toMatchObject({
      is_impersonating: false,
      client_id: null,
    });
    // The audit log is kept as before.
    expect(
      api.db
        .prepare(
          "SELECT count(*) AS n FROM impersonation_audit WHERE ended_at IS NOT NULL AND reason = 'support ticket 42'",
        )
        .get(),
    ).toEqual({ n: 1 });
  });

  it("a refused start (not staff, bad reason) keeps the session as it was", async () => {
    const dana = await loginCookie(api, "dana@harborcoffee.test");
    expect(
      (await call(api, "POST", "/impersonation", { cookie: dana, body: { client_id: 2, reason: "curious" } }))
        .status,
    ).toBe(403);
    const morgan = await loginCookie(api, "morgan@energyops.test");
    const bad = await call(api, "POST", "/impersonation", {
      cookie: morgan,
      body: { client_id: 1, reason: "" },
    });
    expect(bad.status).toBe(422);
    expect(bad.res.headers.get("set-cookie")).toBeNull();
    expect((await call(api, "GET", "/user", { cookie: dana })).status).toBe(200);
    expect((await call(api, "GET", "/user", { cookie: morgan })).status).toBe(200);
  });
});
