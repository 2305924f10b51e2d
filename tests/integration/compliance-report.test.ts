import type { AddressInfo } from "node:net";
import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "../../api/app";
import { openDb, type DB } from "../../api/db";
import { seedCore } from "../../api/db/seed/core";
import { seedDevices } from "../../api/db/seed/devices";
import { createDeps } from "../../api/server";
import { prng } from "../../api/lib/prng";
import { onScheduleSql, refreshHistoryDaily } from "../../api/domain/schedule-compliance";

/**
 * The override report against a small hand-made history whose numbers were worked out by hand
 * (docs/api/compliance.md): compliance = on-schedule seconds / reachable seconds.
 */
let db: DB;
let server: http.Server;
let base: string;
let cookie: string;

type Row = [
  id: number,
  date: string,
  at: string,
  dur: number,
  mode: string,
  sched: number | null,
  cool: number | null,
  heat: number | null,
  event: string | null,
];
const ROWS: Row[] = [
  // 1001, 2020-03-02: on, on (within 0.5 °F), off (hold starts), off  → 2 of 4 samples
  [1001, "2020-03-02", "2020-03-02T16:00:00.000Z", 1800, "cool", 74, 74, 68, null],
  [1001, "2020-03-02", "2020-03-02T16:30:00.000Z", 1800, "cool", 74, 74.4, 68, null],
  [1001, "2020-03-02", "2020-03-02T17:00:00.000Z", 1800, "cool", 74, 71, 68, "permanent_hold"],
  [1001, "2020-03-02", "2020-03-02T17:30:00.000Z", 1800, "cool", 74, 71, 68, null],
  // 1001, 2020-03-03: on (auto reset), off (mode off), on (heat) → 2 of 3
  [1001, "2020-03-03", "2020-03-03T16:00:00.000Z", 1800, "cool", 80, 80, 62, "auto_reset"],
  [1001, "2020-03-03", "2020-03-03T16:30:00.000Z", 1800, "off", 80, 80, 62, null],
  [1001, "2020-03-03", "2020-03-03T17:00:00.000Z", 1800, "heat", 68, 76, 68, null],
  // outside [2020-03-01, 2020-04-01): ignored
  [1001, "2020-04-01", "2020-04-01T16:00:00.000Z", 1800, "cool", 74, 70, 68, "permanent_hold"],
  [1010, "2020-02-29", "2020-02-29T16:00:00.000Z", 1800, "cool", 74, 74, 68, null],
  // 1002: one hour on (auto, heat matches), half an hour with no schedule → 3600 of 5400
  [1002, "2020-03-10", "2020-03-10T16:00:00.000Z", 3600, "auto", 74, 76, 74, null],
  [1002, "2020-03-10", "2020-03-10T17:00:00.000Z", 1800, "auto", null, 76, 70, "auto_reset"],
];

async function login(email: string) {
  const res = await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "demo-pass-2024" }),
  });
  expect(res.status).toBe(200);
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}
const get = (path: string, c = cookie) => fetch(`${base}${path}`, { headers: { cookie: c } });

beforeAll(async () => {
  db = openDb(":memory:");
  const ctx = {
    db,
    now: new Date(Date.UTC(2020, 5, 15, 12)),
    today: new Date(Date.UTC(2020, 5, 15)),
    rand: prng(1),
    staffEmailDomain: "energyops.test",
  };
  seedCore(ctx);
  seedDevices(ctx);
  const insert = db.prepare(
    "INSERT INTO thermostat_history (thermostat_id, local_date, recorded_at, duration_s, mode, schedule_setpoint_f, cool_setpoint_f, heat_setpoint_f, indoor_temperature_f, event) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 70, ?)",
  );
  for (const r of ROWS) insert.run(...r);
  refreshHistoryDaily(db);
  const app = createApiApp(createDeps(db, { quiet: true, demoData: false }));
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  cookie = await login("dana@harborcoffee.test");
});
afterAll(() => {
  server?.close();
  db?.close();
});

describe("GET /override-report/{clientId}/{startDate}/{endDate}", () => {
  it("computes client, building and thermostat compliance from the history", async () => {
    const res = await get("/override-report/1/2020-03-01/2020-04-01");
    expect(res.status).toBe(200);
    const body = await res.json();
    // client: (4 + 2) half hours on of (7 + 3) half hours reachable = 10800 / 18000 s = 60 %
    expect(body.client).toEqual([
      {
        client_id: 1,
        name: expect.any(String),
        schedule_compliance_percentage: 60,
        auto_reset_count: 2,
        permanent_hold_count: 1,
        reachable_duration: 18000,
      },
    ]);
    const t1001 = body.thermostats.find((t: { thermostat_id: number }) => t.thermostat_id === 1001);
    // 4 of 7 samples: 57.142857 → 57.14
    expect(t1001).toMatchObject({
      building_id: 101,
      schedule_compliance_percentage: 57.14,
      permanent_hold_count: 1,
      auto_reset_count: 1,
      reachable_duration: 12600,
    });
    const t1002 = body.thermostats.find((t: { thermostat_id: number }) => t.thermostat_id === 1002);
    expect(t1002).toMatchObject({
      schedule_compliance_percentage: 66.67,
      auto_reset_count: 1,
      reachable_duration: 5400,
    });
    const t1010 = body.thermostats.find((t: { thermostat_id: number }) => t.thermostat_id === 1010);
    expect(t1010).toMatchObject({ schedule_compliance_percentage: null, reachable_duration: 0 });
    const b101 = body.buildings.find((b: { building_id: number }) => b.building_id === 101);
    expect(b101).toMatchObject({
      address_line1: "1912 Pike Pl",
      schedule_compliance_percentage: 60,
      reachable_duration: 18000,
    });
    // a building with no thermostats (107) and one with no history in range (104): no reachable duration
    const b107 = body.buildings.find((b: { building_id: number }) => b.building_id === 107);
    expect(b107).toMatchObject({ reachable_duration: 0, schedule_compliance_percentage: null });
    expect(body.buildings.find((b: { building_id: number }) => b.building_id === 104)).toMatchObject({
      reachable_duration: 0,
    });
    expect(body.buildings).toHaveLength(14);
  });

  it("answers the worst-performing days, worst first", async () => {
    const res = await get("/override-report/worst-performing-days/1/1001/2020-03-01/2020-04-01");
    expect(res.status).toBe(200);
    expect((await res.json()).items).toEqual([
      { date: "2020-03-02", schedule_compliance_percentage: 50, permanent_hold_count: 1 },
      { date: "2020-03-03", schedule_compliance_percentage: 66.67, permanent_hold_count: 0 },
    ]);
  });

  it("answers the history with the building timezone, end date excluded", async () => {
    const res = await get("/thermostat/1001/history/2020-03-01/2020-04-01");
    const body = await res.json();
    expect(body.building_timezone).toBe("America/Los_Angeles");
    expect(body.items).toHaveLength(7);
    expect(body.items[0]).toEqual({
      recorded_at: "2020-03-02T16:00:00.000Z",
      schedule_setpoint_f: 74,
      cool_setpoint_f: 74,
      heat_setpoint_f: 68,
      indoor_temperature_f: 70,
      mode: "cool",
      event: null,
    });
  });

  it("limits a partial-access user to their buildings", async () => {
    const sam = await (async () => {
      db.prepare(
        "UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE id = 1) WHERE id = 2",
      ).run();
      return login("sam@harborcoffee.test");
    })();
    const body = await (await get("/override-report/1/2020-03-01/2020-04-01", sam)).json();
    expect(body.buildings.map((b: { building_id: number }) => b.building_id).sort()).toEqual([
      101, 102, 104, 106, 109,
    ]);
    expect((await get("/thermostat/1013/history/2020-03-01/2020-04-01", sam)).status).toBe(404);
  });

  it("answers 404 for another client's ids and a validation body for bad dates", async () => {
    expect((await get("/override-report/2/2020-03-01/2020-04-01")).status).toBe(404);
    expect((await get("/override-report/worst-performing-days/2/1001/2020-03-01/2020-04-01")).status).toBe(
      404,
    );
    const alex = await login("alex@mapledental.test");
    expect((await get("/thermostat/1001/history/2020-03-01/2020-04-01", alex)).status).toBe(404);
    const bad = await get("/override-report/1/2020-02-30/2020-04-01");
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({
      message: "Validation error",
      path_params: [{ location: "startDate", message: "must be a valid date" }],
    });
    const reversed = await (await get("/override-report/1/2020-04-01/2020-03-01")).json();
    expect(reversed.path_params).toEqual([{ location: "endDate", message: "must be after startDate" }]);
  });
});

describe("GET /insights/{clientId}/dispatches", () => {
  it("validates sort fields, directions and dates", async () => {
    const badField = await get("/insights/1/dispatches?sort_by=nope:ASC");
    expect(badField.status).toBe(422);
    expect((await badField.json()).query_params[0]).toMatchObject({ location: "sort_by" });
    const badDir = await (await get("/insights/1/dispatches?sort_by=end_time:UP")).json();
    expect(badDir.query_params[0].message).toBe("direction must be ASC or DESC");
    const badDate = await (await get("/insights/1/dispatches?start_date=2020-13-01")).json();
    expect(badDate.query_params[0]).toEqual({ location: "start_date", message: "must be a valid date" });
    expect((await get("/insights/2/dispatches")).status).toBe(404);
  });

  it("pages, sorts and filters the seeded dispatch", async () => {
    const body = await (
      await get(
        "/insights/1/dispatches?page=1&size=15&location_search=pike&sort_by=end_time:DESC&sort_by=building_address:DESC",
      )
    ).json();
    expect(body).toMatchObject({ total: 1, page: 1, size: 15 });
    expect(body.items[0]).toMatchObject({
      id: 1,
      building_id: 101,
      // Seeded PENDING; it ended before the api's clock, so the read gives it its final status (dispatch-final-status).
      status: "SUCCESS",
      were_overridden_thermostats: false,
    });
    expect(body.items[0].thermostat_actions_insights).toHaveLength(2);
    const none = await (await get("/insights/1/dispatches?location_search=zzz")).json();
    expect(none).toMatchObject({ items: [], total: 0 });
  });
});

describe("daily aggregates of the history (what the report reads)", () => {
  it("equal the samples' own sums for every thermostat and day", () => {
    const fromSamples = db
      .prepare(
        `SELECT thermostat_id, local_date, sum(duration_s) AS reach_s, sum(duration_s * ${onScheduleSql("h")}) AS on_s,
           sum(coalesce(event, '') = 'permanent_hold') AS holds, sum(coalesce(event, '') = 'auto_reset') AS resets,
           count(*) AS samples
         FROM thermostat_history h GROUP BY thermostat_id, local_date ORDER BY thermostat_id, local_date`,
      )
      .all();
    const daily = db
      .prepare(
        "SELECT thermostat_id, local_date, reach_s, on_s, holds, resets, samples FROM thermostat_history_daily ORDER BY thermostat_id, local_date",
      )
      .all();
    expect(daily).toHaveLength(5);
    expect(daily).toEqual(fromSamples);
    expect(daily[0]).toEqual({
      thermostat_id: 1001,
      local_date: "2020-03-02",
      reach_s: 7200,
      on_s: 3600,
      holds: 1,
      resets: 0,
      samples: 4,
    });
  });
});
