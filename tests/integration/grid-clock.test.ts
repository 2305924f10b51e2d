import { afterEach, describe, expect, it } from "vitest";
import { setClockStart } from "../../api/lib/clock";
import { startApi, type RunningApi } from "../../api/server";
import { call, loginCookie } from "./api-harness";

/**
 * Rule `dispatch-final-status`: with the demo running for days (the api clock moved forward after the seed),
 * every grid event that has ended reads with a final status, the one under way and the upcoming ones stay
 * PENDING, and the event that ran at seed time is final once it has ended.
 */
const SEEDED_AT = "2026-11-18T19:30:00.000Z";
let api: RunningApi | undefined;
afterEach(async () => {
  setClockStart(undefined);
  await api?.close();
  api = undefined;
});

type Item = {
  id: number;
  status: string;
  start_time: string;
  end_time: string;
  thermostat_actions_insights: { participating_minutes: number | null; pre_event_observed: number | null }[];
};

async function allDispatches(cookie: string) {
  const items: Item[] = [];
  for (let page = 1; ; page++) {
    const r = await call(api!, "GET", `/insights/1/dispatches?size=100&page=${page}`, { cookie });
    expect(r.status).toBe(200);
    items.push(...(r.json.items as Item[]));
    if (items.length >= (r.json.total as number)) return items;
  }
}

describe("grid events and the api clock (rule dispatch-final-status)", () => {
  async function finalAfter(days: number) {
    api = await startApi({ port: 0, dbFile: ":memory:", quiet: true, clockStart: SEEDED_AT });
    const cookie = await loginCookie(api, "dana@harborcoffee.test");
    const before = await allDispatches(cookie);
    const seededAt = Date.parse(SEEDED_AT);
    const later = seededAt + days * 86_400_000;
    // Some events were upcoming (PENDING) at seed time and have ended by `later`: the case this rule is for.
    const overtaken = before.filter(
      (d) => d.status === "PENDING" && Date.parse(d.start_time) > seededAt && Date.parse(d.end_time) <= later,
    );
    expect(overtaken.length).toBeGreaterThan(0);

    setClockStart(new Date(later).toISOString());
    // A session may not outlive the jump: sign in again at the later instant.
    const after = await allDispatches(await loginCookie(api, "dana@harborcoffee.test"));
    expect(after.length).toBe(before.length);
    for (const d of after) {
      if (Date.parse(d.end_time) <= later) {
        expect(d.status, `dispatch ${d.id} ended ${d.end_time}`).not.toBe("PENDING");
        if (d.status === "SUCCESS")
          for (const t of d.thermostat_actions_insights) expect(t.participating_minutes).not.toBeNull();
      } else
        expect(d.status, `dispatch ${d.id} not ended by ${new Date(later).toISOString()}`).toBe("PENDING");
    }
    // Dispatch 1 (under way at seed time, 36 hours more) has ended by then too.
    expect(after.find((d) => d.id === 1)?.status).toBe("SUCCESS");
    // Past events keep the final status they were seeded with.
    for (const d of before.filter((x) => x.status !== "PENDING"))
      expect(after.find((x) => x.id === d.id)?.status).toBe(d.status);
  }
  it("3 days after the seed, every event that has ended has a final status", () => finalAfter(3), 60_000);
  it("3 weeks after the seed, every event that has ended has a final status", () => finalAfter(21), 60_000);
});

describe("the grid event under way and its devices", () => {
  it("each device in the running event reports the event's setpoint, cooling to its target", async () => {
    api = await startApi({ port: 0, dbFile: ":memory:", quiet: true, clockStart: SEEDED_AT });
    const rows = api.db
      .prepare(
        `SELECT t.id, t.device_name, t.mode, t.cool_setpoint_f, x.target_setpoint FROM dispatch_thermostats x
         JOIN dispatches d ON d.id = x.dispatch_id JOIN thermostats t ON t.id = x.thermostat_id
         WHERE coalesce(d.precool_start_time, d.start_time) <= ? AND d.end_time > ?`,
      )
      .all(SEEDED_AT, SEEDED_AT) as {
      id: number;
      device_name: string;
      mode: string;
      cool_setpoint_f: number;
      target_setpoint: number;
    }[];
    expect(rows.map((r) => r.device_name)).toContain("Front Counter");
    for (const r of rows) {
      expect(r.mode, r.device_name).toBe("cool");
      expect(r.cool_setpoint_f, r.device_name).toBe(r.target_setpoint);
    }
  }, 60_000);
});
