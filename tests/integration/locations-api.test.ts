import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, isoDate } from "../../api/db/seed/context";
import { CLIENT, DEMO_PASSWORD, USER } from "../../api/db/seed/ids";
import { startApi, type RunningApi } from "../../api/server";
import * as clock from "../../api/lib/clock";
import { TEST_CLOCK_START, testToday } from "../support/clock";

let api: RunningApi;
const today = testToday();

async function login(email: string) {
  const res = await fetch(`${api.url}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("api_session="))!;
  return cookie.split(";")[0];
}

async function call(cookie: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: { cookie, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : null,
  };
}

type Item = {
  building: { id: number };
  device_summary: {
    device_status: string;
    num_thermostats: number;
    unreachable_thermostats_ids: number[];
    issue_thermostats_ids: number[];
  };
  peak_demand_ratio: { ratio: number | null; has_high_demand_ratio: boolean };
  last_bill_date: string | null;
  last_bill_total_cents: number | null;
  accounts: { number: string }[];
};

beforeAll(async () => {
  api = await startApi({
    port: 0,
    clockStart: TEST_CLOCK_START,
    dbFile: ":memory:",
    quiet: true,
    demoData: true,
    staffEmailDomain: "energyops.test",
  });
  const { db } = api;
  // Issues: what the thermostats area seeds, inserted here so this branch can test the rules on its own.
  // This test owns the rows it reasons about: start from no issues, actions, flags or bills.
  db.exec(
    "DELETE FROM thermostat_issues; DELETE FROM thermostat_actions; DELETE FROM bill_flag_outcomes; DELETE FROM bill_flag_answers; DELETE FROM bill_flags; DELETE FROM bill_statements;",
  );
  const issue = db.prepare(
    "INSERT INTO thermostat_issues (thermostat_id, building_id, issue_slug, issue_category, current_status, is_dismissed, created_at, updated_at) VALUES (?, ?, ?, 'schedule', ?, ?, ?, ?)",
  );
  const now = clock.nowIso();
  issue.run(1013, 105, "permanent_hold", "active", 0, now, now);
  issue.run(1014, 105, "unchanging_schedule", "processing", 0, now, now);
  issue.run(1015, 105, "system_performance", "failed", 0, now, now);
  issue.run(1017, 105, "permanent_hold", "dismissed", 1, now, now); // dismissed: not counted
  issue.run(1018, 106, "permanent_hold", "resolved", 0, now, now); // resolved: not counted
  issue.run(1007, 103, "permanent_hold", "active", 0, now, now); // unreachable AND an issue: counted once
  // Bills: 13 monthly bills at 104 (spike on the latest) and 110 (flat); 113's latest is 60 days old.
  const bill = db.prepare(
    `INSERT INTO bill_statements (building_id, account_id, statement_date, service_start_date, service_end_date, consumption_kwh,
      demand_kw, rate_cents, total_charges_cents, total_electric_charges_cents, supplier) VALUES (?, ?, ?, ?, ?, 1000, ?, 15, ?, ?, NULL)`,
  );
  for (let m = 0; m < 13; m++) {
    const date = isoDate(addDays(today, -5 - m * 30));
    const start = isoDate(addDays(today, -35 - m * 30));
    bill.run(104, 1005, date, start, date, m === 0 ? 80 : 50, 20000 + m, 18000);
    bill.run(110, 1013, date, start, date, 40 + (m % 2), 9000, 8000);
  }
  bill.run(
    113,
    1018,
    isoDate(addDays(today, -60)),
    isoDate(addDays(today, -90)),
    isoDate(addDays(today, -60)),
    30,
    4321,
    4000,
  );
});

afterAll(async () => {
  await api?.close();
});

describe("GET /client/{clientId}/energy-advisor-buildings", () => {
  it("computes device summaries, last bills and demand ratios from the stored rows", async () => {
    const cookie = await login("dana@harborcoffee.test");
    const res = await call(cookie, "GET", `/client/${CLIENT.harbor}/energy-advisor-buildings`);
    expect(res.status).toBe(200);
    const items = res.json.items as Item[];
    expect(items.map((i) => i.building.id)).toEqual(Array.from({ length: 14 }, (_, i) => 101 + i));
    const by = (id: number) => items.find((i) => i.building.id === id)!;

    expect(by(101).device_summary.device_status).toBe("IN_DISPATCH_EVENT");
    expect(by(102).device_summary).toMatchObject({
      device_status: "DEVICE_ISSUES",
      num_thermostats: 2,
      unreachable_thermostats_ids: [1005, 1006],
      issue_thermostats_ids: [],
    });
    expect(by(103).device_summary).toMatchObject({
      num_thermostats: 3,
      unreachable_thermostats_ids: [1007],
      issue_thermostats_ids: [1007],
    });
    expect(by(104).device_summary).toMatchObject({ device_status: "OPERATING", num_thermostats: 3 });
    expect(by(105).device_summary).toMatchObject({
      device_status: "DEVICE_ISSUES",
      num_thermostats: 5,
      unreachable_thermostats_ids: [1016],
      issue_thermostats_ids: [1013, 1014, 1015],
    });
    expect(by(106).device_summary.device_status).toBe("OPERATING");
    expect(by(107).device_summary).toMatchObject({ device_status: "NO_DEVICES", num_thermostats: 0 });

    expect(by(104).peak_demand_ratio).toEqual({ ratio: 1.6, has_high_demand_ratio: true });
    expect(by(110).peak_demand_ratio.has_high_demand_ratio).toBe(false);
    expect(by(107).peak_demand_ratio).toEqual({ ratio: null, has_high_demand_ratio: false });
    expect(by(104).last_bill_date).toBe(isoDate(addDays(today, -5)));
    expect(by(104).last_bill_total_cents).toBe(20000);
    expect(by(113).last_bill_date).toBe(isoDate(addDays(today, -60)));
    expect(by(107).last_bill_date).toBeNull();
    expect(by(106).accounts.map((a) => a.number)).toEqual(["0391-77120-3", "0391-77120-4"]);
  });

  it("shows a partial-access user only their locations, and another client's id is 404", async () => {
    const sam = await call(
      await login("dana@harborcoffee.test"),
      "GET",
      `/client/${CLIENT.maple}/energy-advisor-buildings`,
    );
    expect(sam.status).toBe(404);
    // sam has no password: sign in as alex instead for the other client.
    const alex = await login("alex@mapledental.test");
    const own = await call(alex, "GET", `/client/${CLIENT.maple}/energy-advisor-buildings`);
    expect(own.json.items.map((i: Item) => i.building.id)).toEqual([201]);
  });
});

describe("CSV export and vendor alert", () => {
  it("exports real bill rows as CSV without case conversion", async () => {
    const cookie = await login("dana@harborcoffee.test");
    const res = await call(cookie, "GET", `/client/${CLIENT.harbor}/bill-statements/export-csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("x-no-convert")).toBe("true");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename=/);
    const lines = res.text.trim().split("\r\n");
    expect(lines[0]).toBe(
      "Location,Address,Account #,Utility,Statement Date,Service Start,Service End,Consumption (kWh),Energy Charge Rate ($/kWh) used for At Stake,Demand (kW),Total Charges ($),Electric Charges ($),Supplier,Bill Issues,At Stake ($),At Stake",
    );
    expect(lines).toHaveLength(1 + 27);
    expect(lines[1]).toContain(
      `Harbor Coffee Mission,"2200 Mission St, San Francisco, CA 94110",7731905516-4,Pacific Gas and Electric (PG&E)`,
    );
    expect(lines[1]).toContain(",80,200.00,180.00,");
  });

  it("answers the header row alone when there are no bills", async () => {
    const res = await call(
      await login("alex@mapledental.test"),
      "GET",
      `/client/${CLIENT.maple}/bill-statements/export-csv`,
    );
    expect(res.text.trim().split("\r\n")).toHaveLength(1);
  });

  it("answers the seeded vendor alert", async () => {
    const res = await call(await login("alex@mapledental.test"), "GET", "/device-vendor-service-alert");
    expect(res.json.show_alert).toBe(true);
    expect(res.json.message).toMatch(/maintenance/);
  });
});

describe("staff: clients, impersonation and demo mode", () => {
  it("refuses the staff endpoints to a client user", async () => {
    const dana = await login("dana@harborcoffee.test");
    expect((await call(dana, "GET", "/clients")).status).toBe(403);
    expect(
      (await call(dana, "POST", "/impersonation", { client_id: CLIENT.maple, reason: "Support ticket" }))
        .status,
    ).toBe(403);
    expect((await call(dana, "PUT", "/demo-mode", { is_demo_mode: true })).status).toBe(403);
  });

  it("searches clients, impersonates with an audited reason, toggles demo mode and stops", async () => {
    let morgan = await login("morgan@energyops.test");
    const list = await call(morgan, "GET", "/clients?search=harbor&page=1&size=10");
    expect(list.json).toMatchObject({
      total: 1,
      page: 1,
      size: 10,
      items: [{ id: CLIENT.harbor, name: "Harbor Coffee Co.", client_type: "SMB" }],
    });

    const noReason = await call(morgan, "POST", "/impersonation", { client_id: CLIENT.harbor, reason: "" });
    expect(noReason.status).toBe(422);
    expect(noReason.json.body_params[0].location).toBe("reason");

    expect((await call(morgan, "PUT", "/demo-mode", { is_demo_mode: true })).status).toBe(403);

    const started = await call(morgan, "POST", "/impersonation", {
      client_id: CLIENT.harbor,
      reason: "Ticket 4411: bill question",
    });
    expect(started.status).toBe(200);
    expect(started.json).toMatchObject({
      is_impersonating: true,
      client_id: CLIENT.harbor,
      client: { name: "Harbor Coffee Co." },
    });
    // Impersonation rotates the session: the answer carries the new token.
    morgan = started.headers.get("set-cookie")!.split(";")[0];
    const audit = api.db
      .prepare("SELECT * FROM impersonation_audit WHERE staff_user_id = ? ORDER BY id DESC")
      .get(USER.morgan) as {
      client_id: number;
      reason: string;
      started_at: string;
      ended_at: string | null;
    };
    expect(audit).toMatchObject({
      client_id: CLIENT.harbor,
      reason: "Ticket 4411: bill question",
      ended_at: null,
    });
    expect(clock.nowMs() - Date.parse(audit.started_at)).toBeLessThan(60_000);

    const buildings = await call(morgan, "GET", `/client/${CLIENT.harbor}/energy-advisor-buildings`);
    expect(buildings.json.items).toHaveLength(14);

    expect((await call(morgan, "PUT", "/demo-mode", { is_demo_mode: true })).json).toEqual({
      is_demo_mode: true,
    });
    expect((await call(morgan, "GET", "/demo-mode")).json).toEqual({ is_demo_mode: true });
    expect((await call(morgan, "GET", "/user")).json.is_demo_mode).toBe(true);
    const csv = await call(morgan, "GET", `/client/${CLIENT.harbor}/bill-statements/export-csv`);
    expect(csv.text).not.toContain("Harbor");
    expect(csv.text).toContain("Demo Location 104");

    const stopped = await call(morgan, "DELETE", "/impersonation");
    expect(stopped.json).toMatchObject({ is_impersonating: false, client_id: null, is_demo_mode: false });
    morgan = stopped.headers.get("set-cookie")!.split(";")[0];
    const ended = api.db
      .prepare("SELECT ended_at FROM impersonation_audit WHERE staff_user_id = ? ORDER BY id DESC")
      .get(USER.morgan) as {
      ended_at: string | null;
    };
    expect(ended.ended_at).not.toBeNull();
    expect((await call(morgan, "GET", `/client/${CLIENT.harbor}/energy-advisor-buildings`)).status).toBe(404);
  });
});
