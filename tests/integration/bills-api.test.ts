import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type RunningApi } from "../../api/server";
import * as clock from "../../api/lib/clock";
import { TEST_CLOCK_START } from "../support/clock";

let api: RunningApi;
const cookies: Record<string, string> = {};

async function login(email: string) {
  const res = await fetch(`${api.url}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "demo-pass-2024" }),
  });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie()[0].split(";")[0];
}
const get = (path: string, who = "dana") => fetch(`${api.url}${path}`, { headers: { cookie: cookies[who] } });
const patch = (path: string, body: unknown, who = "dana") =>
  fetch(`${api.url}${path}`, {
    method: "PATCH",
    headers: { cookie: cookies[who], "content-type": "application/json" },
    body: JSON.stringify(body),
  });

type Bill = {
  id: number;
  statement_date: string;
  demand: number;
  account_id: number;
  building_address: string;
  building_id: number;
  flags: { id: number; type: string; status: string; details: { previous_supplier: string | null } }[];
};
type Usage = Record<string, { values: { start_ts: string; value: number | null }[]; units: string }>;

beforeAll(async () => {
  api = await startApi({
    port: 0,
    dbFile: ":memory:",
    clockStart: TEST_CLOCK_START,
    quiet: true,
    staffEmailDomain: "energyops.test",
  });
  cookies.dana = await login("dana@harborcoffee.test");
  cookies.alex = await login("alex@mapledental.test");
}, 30000);
afterAll(() => api.close());

describe("bill statements", () => {
  it("lists 13 months of bills with flags, building id and address", async () => {
    const res = await get("/building/101/bill-statements?account_id=1001");
    const { items } = (await res.json()) as { items: Bill[] };
    expect(items).toHaveLength(13);
    expect(items[0].building_id).toBe(101);
    expect(items[0].building_address).toContain("1912 Pike Pl");
    expect(items[0].flags.map((f) => f.type).sort()).toEqual(["rate_class_change", "supplier_change"]);
    expect(items[0].flags.every((f) => f.status === "unacknowledged")).toBe(true);
  });

  it("filters by date and refuses an account of another building", async () => {
    const all = ((await (await get("/building/101/bill-statements")).json()) as { items: Bill[] }).items;
    expect(all).toHaveLength(26);
    const some = (
      (await (await get(`/building/101/bill-statements?min_date=${all[3].statement_date}`)).json()) as {
        items: Bill[];
      }
    ).items;
    expect(some.every((b) => b.statement_date >= all[3].statement_date)).toBe(true);
    const bad = await get("/building/101/bill-statements?account_id=1003");
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { query_params: unknown[] }).query_params).toHaveLength(1);
  });

  it("seeds the missing bill, the demand spikes and every flag type and status", async () => {
    const stale = (
      (await (await get("/building/113/bill-statements?account_id=1017")).json()) as { items: Bill[] }
    ).items;
    const age = (clock.nowMs() - Date.parse(stale[0].statement_date)) / 86400000;
    expect(age).toBeGreaterThan(45);
    for (const b of [104, 112]) {
      const bills = (
        (await (
          await get(`/building/${b}/bill-statements?account_id=${b === 104 ? 1005 : 1015}`)
        ).json()) as { items: Bill[] }
      ).items;
      const mean = bills.slice(1, 13).reduce((s, x) => s + x.demand, 0) / 12;
      expect(bills[0].demand).toBeGreaterThanOrEqual(1.5 * mean);
    }
    const types = new Set<string>();
    const statuses = new Set<string>();
    for (let b = 101; b <= 114; b++) {
      const bills = ((await (await get(`/building/${b}/bill-statements`)).json()) as { items: Bill[] }).items;
      for (const f of bills.flatMap((x) => x.flags)) {
        types.add(f.type);
        statuses.add(f.status);
      }
    }
    expect(types.size).toBe(8);
    expect(statuses.size).toBe(4);
  });

  it("answers 404 for another client's building, bill and flag", async () => {
    expect((await get("/building/101/bill-statements", "alex")).status).toBe(404);
    const maple = await get("/building/201/bill-statements", "alex");
    expect(((await maple.json()) as { items: Bill[] }).items).toEqual([]);
    const bill = ((await (await get("/building/102/bill-statements")).json()) as { items: Bill[] }).items[0];
    expect((await get(`/bill-statement/${bill.id}/download`, "alex")).status).toBe(404);
    expect(
      (
        await patch(
          `/bill-statement/${bill.id}/bill-flag/${bill.flags[0].id}`,
          { status: "dismissed" },
          "alex",
        )
      ).status,
    ).toBe(404);
  });

  it("records each answer with who, when and from where; a second opinion is never lost", async () => {
    // Sam signs in with a password here (his demo account has none: he uses links and codes).
    api.db
      .prepare(
        "UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE id = 1) WHERE email = ?",
      )
      .run("sam@harborcoffee.test");
    cookies.sam = await login("sam@harborcoffee.test");
    const bill = (
      (await (await get("/building/109/bill-statements?account_id=1011")).json()) as { items: Bill[] }
    ).items[0];
    const flag = bill.flags[0];
    const path = `/bill-statement/${bill.id}/bill-flag/${flag.id}`;
    type Answered = {
      status: string;
      answer_on_record: { answer: string; by: { name: string; you: boolean }; source: string } | null;
      answers: { answer: string; by: { name: string } }[];
      message?: string;
    };
    const answer = async (status: string, who: string) => {
      const res = await patch(path, { status }, who);
      return { status: res.status, body: (await res.json()) as Answered };
    };
    expect((await patch(path, { status: "completed" })).status).toBe(422);
    const dana = await answer("action_requested", "dana");
    expect(dana.status).toBe(200);
    expect(dana.body.status).toBe("action_requested");
    expect(dana.body.answer_on_record).toMatchObject({
      answer: "action_requested",
      by: { name: "Dana Reyes", you: true },
      source: "app",
    });
    // Her own wrong tap: she may switch it.
    expect((await answer("dismissed", "dana")).body.status).toBe("dismissed");
    // Sam disagrees: after "Yes, this is expected" anyone who may see the bill still asks for an investigation.
    const sam = await answer("action_requested", "sam");
    expect(sam.status).toBe(200);
    expect(sam.body.answer_on_record).toMatchObject({ by: { name: "Sam Okafor", you: true } });
    // Dana cannot withdraw Sam's request; Sam's repeat records nothing new.
    const refused = await answer("dismissed", "dana");
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("This bill issue has already been answered.");
    expect((await answer("action_requested", "sam")).status).toBe(200);
    const listed = (
      (await (await get("/building/109/bill-statements?account_id=1011")).json()) as {
        items: (Bill & { flags: Answered[] })[];
      }
    ).items[0].flags[0];
    expect(listed.status).toBe("action_requested");
    expect(listed.answer_on_record).toMatchObject({ by: { name: "Sam Okafor", you: false } });
    expect(listed.answers.map((a) => `${a.by.name}: ${a.answer}`)).toEqual([
      "Dana Reyes: action_requested",
      "Dana Reyes: dismissed",
      "Sam Okafor: action_requested",
    ]);
  });

  it("downloads a real PDF", async () => {
    const bill = ((await (await get("/building/101/bill-statements")).json()) as { items: Bill[] }).items[0];
    const res = await get(`/bill-statement/${bill.id}/download`);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename=".+\.pdf"$/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  });
});

describe("usage insights", () => {
  const day = (offset: number) => new Date(clock.nowMs() + offset * 86400000).toISOString().slice(0, 10);

  it("aggregates consumption by day with temperatures, units and offsets", async () => {
    const res = await get(
      `/insights/101/energy-consumption?start_date=${day(-10)}&end_date=${day(-4)}&period=day`,
    );
    const body = (await res.json()) as Usage;
    expect(body.energy_consumption.units).toBe("kWh");
    expect(body.energy_consumption.values).toHaveLength(7);
    expect(body.energy_consumption.values[0].start_ts).toMatch(/T00:00:00-0[78]:00$/);
    expect(body.outdoor_temperatures.units).toBe("°F");
    expect(body.indoor_temperatures.values).toHaveLength(7);
    expect(body.energy_consumption.values.every((v) => v.value === null || v.value > 100)).toBe(true);
  });

  it("answers demand at quarter-hour resolution and shows gaps as null", async () => {
    const seen: number[] = [];
    for (let d = -30; d < -1; d++) {
      const body = (await (
        await get(`/insights/102/energy-demand?start_date=${day(d)}&end_date=${day(d)}&period=quarter_hour`)
      ).json()) as Usage;
      expect(body.energy_demand.units).toBe("kW");
      expect(body.energy_demand.values.length).toBeGreaterThanOrEqual(92);
      seen.push(body.energy_demand.values.filter((v) => v.value === null).length);
    }
    expect(seen.some((n) => n > 0)).toBe(true);
  });

  it("aggregates by month, week and year; refuses bad ranges", async () => {
    const month = (await (
      await get(`/insights/104/energy-consumption?start_date=${day(-370)}&end_date=${day(-1)}&period=month`)
    ).json()) as Usage;
    expect(month.energy_consumption.values.length).toBeGreaterThanOrEqual(12);
    expect(month.energy_consumption.values.length).toBeLessThanOrEqual(14);
    const week = (await (
      await get(`/insights/104/energy-demand?start_date=${day(-60)}&end_date=${day(-1)}&period=week`)
    ).json()) as Usage;
    expect(week.energy_demand.values.length).toBeGreaterThanOrEqual(8);
    expect(
      (await get(`/insights/104/energy-demand?start_date=2019-01-01&end_date=2019-01-02&period=day`)).status,
    ).toBe(422);
    expect(
      (
        await get(
          `/insights/104/energy-demand?start_date=${day(-60)}&end_date=${day(-1)}&period=quarter_hour`,
        )
      ).status,
    ).toBe(422);
    expect(
      (await get(`/insights/104/energy-demand?start_date=${day(-6)}&end_date=${day(-1)}&period=minute`))
        .status,
    ).toBe(422);
  });

  it("says which locations have usage, and hides other clients' buildings", async () => {
    expect(await (await get("/insights/101/available-usage")).json()).toEqual({ available_usage: true });
    expect(await (await get("/insights/107/available-usage")).json()).toEqual({ available_usage: false });
    expect((await get("/insights/101/available-usage", "alex")).status).toBe(404);
    expect(
      (await get(`/insights/101/energy-demand?start_date=${day(-2)}&end_date=${day(-1)}&period=hour`, "alex"))
        .status,
    ).toBe(404);
  });
});
