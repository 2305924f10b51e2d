import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { call, loginCookie, startTestApi } from "./api-harness";
import { DEMO_PROGRAM, TOMORROW_EVENT_BUILDING } from "../../api/db/seed/grid";
import { testToday } from "../support/clock";

/**
 * Grid events measured and earned (rules grid-cbl, grid-event-reduction, grid-event-earnings,
 * grid-season-total): the api's answers on the demo data, the head's total the sum of the events' figures,
 * and only for the locations a person may see.
 */
let api: RunningApi;
let dana: string;
beforeAll(async () => {
  api = await startTestApi();
  dana = await loginCookie(api, "dana@harborcoffee.test");
});
afterAll(() => api.close());

type Item = {
  id: number;
  building_id: number;
  status: string;
  is_internal_test: boolean;
  start_time: string;
  thermostat_actions_insights: {
    was_overridden: boolean;
    overridden_at: string | null;
    override_setpoint: number | null;
    max_indoor_f: number | null;
    target_setpoint: number | null;
  }[];
  performance: {
    measurement: string;
    baseline_kw: number | null;
    actual_kw: number | null;
    kw_reduced: number | null;
    kwh_reduced: number | null;
    cbl_days: { date: string; average_kw: number; used: boolean }[];
    earnings: { total_cents: number } | null;
    program: { name: string; reservation_cents_per_kw_month: number; estimated: boolean } | null;
  };
};

async function all(cookie: string, query = "") {
  const items: Item[] = [];
  for (let page = 1; ; page++) {
    const r = await call(api, "GET", `/insights/1/dispatches?size=100&page=${page}${query}`, { cookie });
    expect(r.status).toBe(200);
    items.push(...(r.json.items as Item[]));
    if (items.length >= (r.json.total as number)) return items;
  }
}

describe("grid events measured (the demo season)", () => {
  it("measures each event that took part, from June to now, with a few kW reduced per site", async () => {
    const items = await all(dana);
    const paid = items.filter((d) => d.status === "SUCCESS" && !d.is_internal_test);
    expect(paid.length).toBeGreaterThan(10);
    const measured = paid.filter((d) => d.performance.measurement === "measured");
    expect(measured.length).toBeGreaterThan(10);
    for (const d of measured) {
      const p = d.performance;
      expect(p.kw_reduced!, `event ${d.id}`).toBeGreaterThan(0);
      expect(p.kw_reduced!, `event ${d.id}`).toBeLessThan(12);
      expect(p.cbl_days.filter((day) => day.used).length).toBeGreaterThanOrEqual(2);
      expect(p.earnings!.total_cents).toBeGreaterThan(0);
      expect(p.program).toMatchObject({
        name: DEMO_PROGRAM.name,
        reservation_cents_per_kw_month: 1800,
        estimated: true,
      });
    }
    // One location has no data for its event: no figure, no earnings.
    const missing = paid.filter((d) => d.performance.measurement === "no_data");
    expect(missing.length).toBeGreaterThanOrEqual(1);
    for (const d of missing)
      expect([d.performance.baseline_kw, d.performance.earnings]).toEqual([null, null]);
    // One location overrode mid-event: when and to what, and it got warmer than the setpoint.
    const overrode = measured.flatMap((d) => d.thermostat_actions_insights).filter((t) => t.overridden_at);
    expect(overrode.length).toBeGreaterThan(0);
    for (const t of overrode) {
      expect(t.override_setpoint).toBeLessThan(t.target_setpoint!);
      expect(t.max_indoor_f).toBeGreaterThan(t.target_setpoint!);
    }
    // An event that did not take part is not measured.
    for (const d of items.filter((x) => x.status === "OPT_OUT"))
      expect(d.performance.measurement).toBe("not_measured");
  });

  it("has a pending event tomorrow for the notice before", async () => {
    const tomorrow = new Date(testToday().getTime() + 86_400_000).toISOString().slice(0, 10);
    const items = await all(dana, `&start_date=${tomorrow}&end_date=${tomorrow}`);
    expect(items.map((d) => [d.building_id, d.status])).toContainEqual([TOMORROW_EVENT_BUILDING, "PENDING"]);
  });

  it("totals the period's paid events: their earnings and kWh reduced (rule grid-season-total)", async () => {
    const range = "&start_date=2026-06-01&end_date=2026-11-30";
    const items = await all(dana, range);
    const paid = items.filter((d) => d.status === "SUCCESS" && !d.is_internal_test);
    const r = await call(api, "GET", `/insights/1/dispatches-summary?${range.slice(1)}`, { cookie: dana });
    expect(r.status).toBe(200);
    expect(r.json.events).toBe(paid.length);
    expect(r.json.earnings_cents).toBe(
      paid.reduce((s, d) => s + (d.performance.earnings?.total_cents ?? 0), 0),
    );
    const kwh = paid.reduce((s, d) => s + Math.max(0, d.performance.kwh_reduced ?? 0), 0);
    expect(Math.abs((r.json.kwh_reduced as number) - kwh)).toBeLessThan(0.05);
    expect(r.res.headers.get("cache-control")).toMatch(/no-store/);
  });
});

describe("who may read the figures", () => {
  it("another client's summary is 404; signed out is 401", async () => {
    const alex = await loginCookie(api, "alex@mapledental.test");
    expect((await call(api, "GET", "/insights/1/dispatches-summary", { cookie: alex })).status).toBe(404);
    expect((await call(api, "GET", "/insights/1/dispatches-summary")).status).toBe(401);
    expect(
      (await call(api, "GET", "/insights/1/dispatches-summary?start_date=x", { cookie: dana })).status,
    ).toBe(422);
  });

  it("a person with some locations gets the total of those only", async () => {
    // Sam sees 101, 102, 104, 106 and 109 (docs/demo-data.md); give Sam Dana's password for the test.
    api.db
      .prepare("UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE id = 1) WHERE id = 2")
      .run();
    const sam = await loginCookie(api, "sam@harborcoffee.test");
    const visible = new Set([101, 102, 104, 106, 109]);
    const paid = (await all(dana)).filter((d) => d.status === "SUCCESS" && !d.is_internal_test);
    const r = await call(api, "GET", "/insights/1/dispatches-summary", { cookie: sam });
    expect(r.status).toBe(200);
    const mine = paid.filter((d) => visible.has(d.building_id));
    expect(mine.length).toBeLessThan(paid.length);
    expect(r.json.events).toBe(mine.length);
    expect(r.json.earnings_cents).toBe(
      mine.reduce((s, d) => s + (d.performance.earnings?.total_cents ?? 0), 0),
    );
  });
});
