/**
 * API_EXTRA_LOCATIONS (api/config.ts, api/db/seed/extra-locations.ts): a 300-location Harbor Coffee Co. for the
 * benchmark, without changing the demo's sign-ins or the default demo.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiConfigFromEnv } from "../../api/config";
import { resetDemoData } from "../../api/db/seed";
import { EXTRA_BUILDING_ID } from "../../api/db/seed/extra-locations";
import { startApi, type RunningApi } from "../../api/server";
import { call, loginCookie } from "./api-harness";

describe("API_EXTRA_LOCATIONS", () => {
  it("is parsed from the environment: 0 by default, 0 to 2,000", () => {
    expect(apiConfigFromEnv({}).extraLocations).toBe(0);
    expect(apiConfigFromEnv({ API_EXTRA_LOCATIONS: "286" }).extraLocations).toBe(286);
    expect(() => apiConfigFromEnv({ API_EXTRA_LOCATIONS: "2001" })).toThrow(/API_EXTRA_LOCATIONS/);
    expect(() => apiConfigFromEnv({ API_EXTRA_LOCATIONS: "many" })).toThrow(/API_EXTRA_LOCATIONS/);
  });

  describe("with 286 extra locations", () => {
    let api: RunningApi;
    beforeAll(async () => {
      api = await startApi({ port: 0, dbFile: ":memory:", quiet: true, extraLocations: 286 });
    });
    afterAll(() => api?.close());

    it("gives Dana 300 locations, paged by 75, each on the energy-advisor list", async () => {
      const dana = await loginCookie(api, "dana@harborcoffee.test");
      const page4 = await call(api, "GET", "/buildings?size=75&page=4", { cookie: dana });
      expect(page4.json.total).toBe(300);
      expect(page4.json.items).toHaveLength(75);
      const advisor = await call(api, "GET", "/client/1/energy-advisor-buildings", { cookie: dana });
      const items = advisor.json.items as {
        building: { id: number; code: string };
        accounts: unknown[];
        device_summary: { device_status: string };
        last_bill_date: string | null;
      }[];
      expect(items).toHaveLength(300);
      const extra = items.filter((i) => i.building.id >= EXTRA_BUILDING_ID);
      expect(extra).toHaveLength(286);
      expect(new Set(extra.map((i) => i.building.code)).size).toBe(286);
      // Realistic rows: every one has an account and a recent bill; devices in every state.
      expect(extra.every((i) => i.accounts.length > 0 && i.last_bill_date)).toBe(true);
      const statuses = new Set(extra.map((i) => i.device_summary.device_status));
      expect([...statuses].sort()).toEqual(["DEVICE_ISSUES", "NO_DEVICES", "OPERATING"]);
    });

    it("leaves the demo's other sign-ins as they were: Sam still sees his 5", async () => {
      const sam = api.db.prepare(
        "SELECT count(*) AS n FROM user_building_access WHERE user_id = 2 AND has_access = 1",
      );
      expect((sam.get() as { n: number }).n).toBe(5);
      const alex = await loginCookie(api, "alex@mapledental.test");
      expect((await call(api, "GET", "/buildings?size=75", { cookie: alex })).json.total).toBe(1);
    });

    it("seeds the same rows again on a reset (deterministic); without the option, Harbor has its 14", () => {
      // Columns that do not depend on the clock's time of day (a reset on the same day).
      const dump = () =>
        [
          "SELECT * FROM buildings ORDER BY id",
          "SELECT id, building_id, device_name, is_reachable FROM thermostats ORDER BY id",
          "SELECT id, thermostat_id, current_status FROM thermostat_issues ORDER BY id",
          "SELECT * FROM utility_accounts ORDER BY id",
          "SELECT * FROM bill_statements ORDER BY id",
        ].map((sql) => api.db.prepare(sql).all());
      const before = JSON.stringify(dump());
      resetDemoData(api.db, { staffEmailDomain: "energyops.test", extraLocations: 286 });
      expect(JSON.stringify(dump())).toBe(before);
      resetDemoData(api.db, { staffEmailDomain: "energyops.test" });
      const harbor = api.db.prepare("SELECT count(*) AS n FROM buildings WHERE client_id = 1").get();
      expect(harbor).toEqual({ n: 14 });
    });
  });
});
