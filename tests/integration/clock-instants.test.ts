import { afterEach, describe, expect, it } from "vitest";
import type { CardStatus } from "../../shared/status-labels";
import { startApi, type RunningApi } from "../../api/server";
import { cardStatus } from "../../app/features/thermostats/thermostats";
import { listThermostats } from "../../app/features/thermostats/thermostats.server";
import { createApiClient } from "../../app/server/upstream/api-client.server";

/**
 * The demo is the same at any hour: the api seeded with its clock at four instants of one day,
 * read through the web's own upstream call and card-status rule, gives every control-room card the same
 * status, and grid-services events have statuses coherent with the clock.
 */
const INSTANTS = ["03:00", "12:00", "19:30", "23:30"].map((t) => `2026-11-18T${t}:00.000Z`);

/** Every card of Harbor Coffee Co.'s control rooms that the e2e suite checks, with the status it must show. */
const EXPECTED: [number, string, CardStatus][] = [
  [101, "Front Counter", "event"],
  [101, "Storage Room", "unlinked"],
  [109, "Main Room", "schedule-unavailable"],
  [108, "Cafe Floor", "resolving"],
  [108, "Pastry Kitchen", "dismissed"],
  [106, "Downstairs", "inactive-schedule"],
  [110, "Counter", "inefficient-schedule"],
  [113, "Lobby", "system-performance"],
  [110, "Reading Nook", "following-schedule"],
  [103, "Espresso Bar", "unreachable"],
];
const HARBOR_BUILDINGS = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114];

let api: RunningApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function signIn(url: string) {
  const res = await fetch(`${url}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "dana@harborcoffee.test", password: "demo-pass-2024" }),
  });
  expect(res.status).toBe(200);
  return /api_session=([^;]+)/.exec(res.headers.getSetCookie().join(";"))![1];
}

describe.each(INSTANTS)("the demo with the api clock at %s", (instant) => {
  it("shows every control-room card status, and only the one event under way is running", async () => {
    api = await startApi({
      port: 0,
      dbFile: ":memory:",
      quiet: true,
      staffEmailDomain: "energyops.test",
      clockStart: instant,
    });
    const client = createApiClient({ baseUrl: api.url, apiSession: await signIn(api.url), timeoutMs: 5000 });

    const byBuilding = new Map<number, Awaited<ReturnType<typeof listThermostats>>>();
    for (const b of HARBOR_BUILDINGS) byBuilding.set(b, await listThermostats(client, b));
    for (const [building, name, status] of EXPECTED) {
      const item = byBuilding.get(building)!.find((i) => i.thermostat.deviceName === name);
      expect(item, `${name} at ${building}`).toBeDefined();
      expect(cardStatus(item!), `${name} at ${instant}`).toBe(status);
    }
    // Only building 101's event is in progress: no other card anywhere shows one.
    const inProgress = [...byBuilding.values()].flat().filter((i) => cardStatus(i) === "event");
    expect(inProgress.map((i) => i.thermostat.buildingId).every((b) => b === 101)).toBe(true);

    // Grid events: past ones ended before now with a final status; upcoming ones are pending; one is running.
    const now = Date.parse(instant);
    const rows = api.db
      .prepare("SELECT id, status, start_time, end_time, precool_start_time FROM dispatches")
      .all() as {
      id: number;
      status: string;
      start_time: string;
      end_time: string;
      precool_start_time: string | null;
    }[];
    const running = rows.filter(
      (r) => Date.parse(r.precool_start_time ?? r.start_time) <= now && Date.parse(r.end_time) > now,
    );
    expect(running.map((r) => r.id)).toEqual([1]);
    for (const r of rows) {
      if (Date.parse(r.end_time) <= now) expect(r.status, `dispatch ${r.id}`).not.toBe("PENDING");
      if (Date.parse(r.precool_start_time ?? r.start_time) > now)
        expect(r.status, `dispatch ${r.id}`).toBe("PENDING");
    }
    expect(rows.filter((r) => Date.parse(r.end_time) <= now).length).toBeGreaterThan(20);
  }, 60_000);
});
