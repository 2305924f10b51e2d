import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, call, loginCookie } from "./api-harness";
import type { RunningApi } from "../../api/server";
import { MAPLE_BUILDING, USER } from "../../api/db/seed/ids";

/**
 * "Choose location" for an account not yet assigned to one (rule account-choose-location), at the api:
 * `PUT /accounts/{id}/building`. Such an account is the admins' and staff's alone; the location one they see;
 * an account already at a location stays there.
 */
let api: RunningApi;
let dana: string;
let sam: string;

beforeAll(async () => {
  api = await startTestApi({ clockStart: "2026-11-18T19:30:00.000Z" });
  api.db
    .prepare("UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE id = ?) WHERE id = ?")
    .run(USER.dana, USER.sam);
  [dana, sam] = await Promise.all([
    loginCookie(api, "dana@harborcoffee.test"),
    loginCookie(api, "sam@harborcoffee.test"),
  ]);
});
afterAll(() => api.close());

/** A new Harbor account with no location, as a Connect without a chosen location leaves it. */
function unassignedAccount(number: string) {
  return Number(
    api.db
      .prepare(
        "INSERT INTO utility_accounts (client_id, building_id, utility_id, number, arcadia_account_status, created_at) SELECT client_id, NULL, 14, ?, 'CONNECTION_SUCCESS', '2026-11-18T19:00:00Z' FROM users WHERE id = ?",
      )
      .run(number, USER.dana).lastInsertRowid,
  );
}
const buildingOf = (id: number) =>
  (
    api.db.prepare("SELECT building_id AS b FROM utility_accounts WHERE id = ?").get(id) as {
      b: number | null;
    }
  ).b;

describe("PUT /accounts/{id}/building", () => {
  it("an admin puts an unassigned account at one of her locations; it then stays there", async () => {
    const id = unassignedAccount("DUKE-UNASSIGNED-1");
    const res = await call(api, "PUT", `/accounts/${id}/building`, {
      cookie: dana,
      body: { building_id: 105 },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id, building_id: 105, number: "DUKE-UNASSIGNED-1" });
    expect(buildingOf(id)).toBe(105);
    const again = await call(api, "PUT", `/accounts/${id}/building`, {
      cookie: dana,
      body: { building_id: 101 },
    });
    expect(again.status).toBe(409);
    expect(buildingOf(id)).toBe(105);
  });

  it("refuses a person limited to some locations, and another client's location, changing nothing", async () => {
    const id = unassignedAccount("DUKE-UNASSIGNED-2");
    // Sam sees location 101, not unassigned accounts.
    expect(
      (await call(api, "PUT", `/accounts/${id}/building`, { cookie: sam, body: { building_id: 101 } }))
        .status,
    ).toBe(404);
    expect(
      (
        await call(api, "PUT", `/accounts/${id}/building`, {
          cookie: dana,
          body: { building_id: MAPLE_BUILDING },
        })
      ).status,
    ).toBe(404);
    expect(buildingOf(id)).toBeNull();
  });
});
