import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { call, loginCookie, startTestApi } from "./api-harness";
import { USER } from "../../api/db/seed/ids";
import { TOMORROW_EVENT_BUILDING } from "../../api/db/seed/grid";
import { OPT_OUT_STARTED_MESSAGE } from "../../shared/grid-opt-out";
import { TEST_CLOCK_START } from "../support/clock";
import { finaliseEndedDispatches } from "../../api/domain/grid-dispatches";

/**
 * Opting a location out of a grid event (rule grid-opt-out): POST once and idempotent, refused once the event has
 * started, 404 for a location the person may not see; reading the events changes nothing.
 */
let api: RunningApi;
let dana: string;
let sam: string;
const HOUR = 3_600_000;
const at = (ms: number) => new Date(Date.parse(TEST_CLOCK_START) + ms).toISOString();

/** The test's own event at a location, with each of its thermostats taking part. */
function event(buildingId: number, startInMs: number, status = "PENDING") {
  const db = api.db;
  const id = Number(
    db
      .prepare(
        "INSERT INTO dispatches (client_id, building_id, status, event_type, precool_start_time, start_time, end_time) SELECT client_id, id, ?, 'demand_response', ?, ?, ? FROM buildings WHERE id = ?",
      )
      .run(status, at(startInMs - HOUR), at(startInMs), at(startInMs + 3 * HOUR), buildingId).lastInsertRowid,
  );
  db.prepare(
    "INSERT INTO dispatch_thermostats (dispatch_id, thermostat_id, precool_setpoint, target_setpoint) SELECT ?, id, 70, 78 FROM thermostats WHERE building_id = ?",
  ).run(id, buildingId);
  return id;
}
const row = (id: number) =>
  api.db.prepare("SELECT status FROM dispatches WHERE id = ?").get(id) as { status: string };
const thermostats = (id: number) =>
  api.db
    .prepare("SELECT participating_minutes AS m FROM dispatch_thermostats WHERE dispatch_id = ?")
    .all(id) as { m: number | null }[];
const changes = () => (api.db.prepare("SELECT total_changes() AS n").get() as { n: number }).n;
const optOut = (cookie: string, buildingId: number, id: number) =>
  call(api, "POST", `/building/${buildingId}/dispatches/${id}/opt-out`, { cookie });

beforeAll(async () => {
  api = await startTestApi();
  const hash = (
    api.db.prepare("SELECT password_hash AS h FROM users WHERE id = ?").get(USER.dana) as { h: string }
  ).h;
  api.db.prepare("UPDATE users SET password_hash = ? WHERE id = ?").run(hash, USER.sam);
  dana = await loginCookie(api, "dana@harborcoffee.test");
  sam = await loginCookie(api, "sam@harborcoffee.test");
});
afterAll(() => api.close());

describe("opting a location out of an event", () => {
  it("opts out once: the event and its thermostats are out, asking again changes nothing", async () => {
    const id = event(TOMORROW_EVENT_BUILDING, 20 * HOUR);
    expect(thermostats(id).length).toBeGreaterThan(0);
    const first = await optOut(dana, TOMORROW_EVENT_BUILDING, id);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ id, status: "OPT_OUT", opted_out_now: true });
    expect(row(id).status).toBe("OPT_OUT");
    expect(thermostats(id).every((t) => t.m === 0)).toBe(true);

    const before = changes();
    const again = await optOut(dana, TOMORROW_EVENT_BUILDING, id);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ id, status: "OPT_OUT", opted_out_now: false });
    expect(changes() - before).toBe(0);
  });

  it("stays out when the event's time comes: the read does not finalise it as taken part", async () => {
    const id = event(TOMORROW_EVENT_BUILDING, 30 * HOUR);
    expect((await optOut(dana, TOMORROW_EVENT_BUILDING, id)).status).toBe(200);
    // The grid operator's side, once the event has ended: an opted-out event is not counted as taken part.
    finaliseEndedDispatches(api.db, new Date(at(40 * HOUR)));
    expect(row(id).status).toBe("OPT_OUT");
    expect(thermostats(id).every((t) => t.m === 0)).toBe(true);
  });

  it("is refused once the event has started, with a clear message, and changes nothing", async () => {
    const started = event(TOMORROW_EVENT_BUILDING, -10 * 60_000);
    const before = changes();
    const r = await optOut(dana, TOMORROW_EVENT_BUILDING, started);
    expect(r.status).toBe(409);
    expect(r.json).toMatchObject({ message: OPT_OUT_STARTED_MESSAGE });
    expect(changes() - before).toBe(0);
    expect(row(started).status).toBe("PENDING");
  });

  it("is 404 for a location the person may not see, and for an event not at that location", async () => {
    // Back Bay (112) is not one of Sam's locations.
    const hidden = event(112, 20 * HOUR);
    const before = changes();
    expect((await optOut(sam, 112, hidden)).status).toBe(404);
    // Asked through one of Sam's locations, the event is not there.
    expect((await optOut(sam, 101, hidden)).status).toBe(404);
    expect(changes() - before).toBe(0);
    expect(row(hidden).status).toBe("PENDING");
    // Sam's own location: allowed.
    const own = event(101, 20 * HOUR);
    expect((await optOut(sam, 101, own)).status).toBe(200);
  });

  it("a GET of the opt-out path changes nothing", async () => {
    const id = event(TOMORROW_EVENT_BUILDING, 20 * HOUR);
    const before = changes();
    const r = await call(api, "GET", `/building/${TOMORROW_EVENT_BUILDING}/dispatches/${id}/opt-out`, {
      cookie: dana,
    });
    expect(r.status).toBe(404);
    expect(changes() - before).toBe(0);
    expect(row(id).status).toBe("PENDING");
  });
});
