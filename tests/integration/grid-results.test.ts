import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { OutboxRow } from "../../api/mail/outbox-row";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startApi, type RunningApi } from "../../api/server";
import { USER } from "../../api/db/seed/ids";
import { NO_DATA_NOTE } from "../../shared/grid-figures";
import { call, startTestApi } from "./api-harness";

/**
 * Grid event results, the day after (rule grid-results-day). The data is seeded at 11:00 AM on Tuesday
 * 17 November 2026 in Denver (18:00 UTC): the event of Monday 16 November at Harbor Coffee's Denver location
 * (building 108, 1:00 to 2:30 PM MST) took part and has its demand data. The job mails each person who wants
 * Grid Event Notices and may see that location one email with its figures, on the local day after only, once;
 * Sam (5 locations, not Denver's) and another client's person get none.
 */
const SEEDED_AT = "2026-11-17T18:00:00.000Z";
const DENVER = 108;
const DANA = "dana@harborcoffee.test";
const SAM = "sam@harborcoffee.test";
const ALEX = "alex@mapledental.test";
let api: RunningApi;
let eventId: number;
let name: string;

const results = (to: string) =>
  (
    api.db
      .prepare("SELECT * FROM outbox WHERE to_email = ? AND kind = 'grid_event' ORDER BY id")
      .all(to) as OutboxRow[]
  ).filter((m) => m.subject.startsWith("Grid event results"));
const run = async () => {
  const r = await call(api, "POST", "/dev/notifications/run", { body: { kind: "grid_event" } });
  expect(r.status).toBe(200);
  return r.json.sent as number;
};
const clockAt = async (at: string | null) =>
  expect((await call(api, "POST", "/dev/clock", { body: { at } })).status).toBe(200);

beforeAll(async () => {
  api = await startTestApi({ clockStart: SEEDED_AT, testHooks: true });
  eventId = (
    api.db
      .prepare(
        "SELECT id FROM dispatches WHERE building_id = ? AND status = 'SUCCESS' AND is_internal_test = 0 AND substr(end_time, 1, 10) = '2026-11-16'",
      )
      .get(DENVER) as { id: number }
  ).id;
  name = (
    api.db
      .prepare("SELECT coalesce(nullif(nickname, ''), name) AS name FROM buildings WHERE id = ?")
      .get(DENVER) as { name: string }
  ).name;
});
afterAll(() => api.close());
beforeEach(async () => {
  api.db.prepare("DELETE FROM notifications_sent WHERE kind = 'grid_event'").run();
  api.db.prepare("DELETE FROM outbox WHERE kind = 'grid_event'").run();
  await clockAt(null);
});

describe("the results the day after a grid event", () => {
  it("is not sent on the event's own local day, though it is the day after in UTC", async () => {
    // 06:30 UTC on 17 November is 11:30 PM on Monday 16 November in Denver.
    await clockAt("2026-11-17T06:30:00.000Z");
    await run();
    expect(results(DANA)).toHaveLength(0);
  });

  it("mails the figures to each person who sees the location, once, with a link to the event expanded", async () => {
    expect(await run()).toBeGreaterThan(0);
    const [mail, ...more] = results(DANA);
    expect(more).toHaveLength(0);
    expect(mail.subject).toBe(`Grid event results at ${name}`);
    // The page's words: each figure named, in kW, kWh and dollars, the rates named as estimates.
    expect(mail.text).toMatch(/Baseline: \d+\.\d{2} kW/);
    expect(mail.text).toMatch(/Actual average: \d+\.\d{2} kW/);
    expect(mail.text).toMatch(/Reduced: \d+\.\d{2} kW · \d+\.\d{2} kWh/);
    expect(mail.text).toMatch(/Estimated earnings: \$\d+\.\d{2}/);
    expect(mail.text).toMatch(/Reservation \$\d+\.\d{2} \(\$18\.00 per kW-month/);
    expect(mail.text).toContain("These are our estimates, not a statement from the utility.");
    expect(mail.text).toMatch(
      /Earned an estimated \$\d+\.\d{2} yesterday from 1 event; [\d,]+(\.\d{2})? kWh reduced/,
    );
    // Each thermostat's part and its highest indoor temperature.
    const thermostats = api.db
      .prepare(
        "SELECT t.device_name AS name FROM dispatch_thermostats x JOIN thermostats t ON t.id = x.thermostat_id WHERE x.dispatch_id = ?",
      )
      .all(eventId) as { name: string }[];
    expect(thermostats.length).toBeGreaterThan(0);
    for (const t of thermostats)
      expect(mail.text).toMatch(
        new RegExp(`${t.name}: (Took part|Opted out|Overrode at [^;]+); highest indoor`),
      );
    // The link opens that event on the Grid Services page, expanded, at its row.
    const link = new URL(
      (JSON.parse(mail.links_json) as string[]).find((l) => l.includes("/grid-services?"))!,
    );
    expect(link.searchParams.get("open")).toBe(String(eventId));
    expect(link.searchParams.get("q")).toBe(name);
    expect(link.hash).toBe(`#event-${eventId}`);
    // Only the locations a person may see; never another client's person.
    expect(results(SAM)).toHaveLength(0);
    expect(results(ALEX)).toHaveLength(0);
    // A second run writes nothing.
    expect(await run()).toBe(0);
    expect(results(DANA)).toHaveLength(1);
  });

  it("is not sent late, on the second day after", async () => {
    // 07:30 UTC on 18 November is 12:30 AM on Wednesday in Denver.
    await clockAt("2026-11-18T07:30:00.000Z");
    await run();
    expect(results(DANA)).toHaveLength(0);
  });

  it("says so for a location without data for the event hours", async () => {
    const { start_time, end_time } = api.db
      .prepare("SELECT start_time, end_time FROM dispatches WHERE id = ?")
      .get(eventId) as { start_time: string; end_time: string };
    // usage_intervals keeps Denver's wall-clock time as if UTC: MST is UTC−7.
    const wall = (iso: string) => Date.parse(iso) / 1000 - 7 * 3600;
    const gone = api.db
      .prepare("DELETE FROM usage_intervals WHERE building_id = ? AND ts >= ? AND ts < ?")
      .run(DENVER, wall(start_time), wall(end_time));
    expect(gone.changes).toBeGreaterThan(0);
    await run();
    const [mail] = results(DANA);
    expect(mail.text).toContain(NO_DATA_NOTE);
    expect(mail.text).not.toMatch(/Baseline: \d/);
  });

  it("is not sent to a person who turned Grid Event Notices off", async () => {
    api.db
      .prepare(
        "UPDATE communication_preferences SET enabled = 0 WHERE user_id = ? AND communication_preference_type = 'grid_event'",
      )
      .run(USER.dana);
    await run();
    expect(results(DANA)).toHaveLength(0);
  });
});

describe("the results across a restart", () => {
  it("are sent once: the ledger in the database remembers them", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "grid-results-"));
    const start = () =>
      startApi({
        port: 0,
        dbFile: path.join(dir, "api.db"),
        quiet: true,
        webBaseUrl: "http://web.test",
        notificationIntervalMs: 0,
        testHooks: true,
        clockStart: SEEDED_AT,
      });
    const sentTo = (db: RunningApi["db"]) =>
      (
        db.prepare("SELECT subject FROM outbox WHERE to_email = ? AND kind = 'grid_event'").all(DANA) as {
          subject: string;
        }[]
      ).filter((m) => m.subject.startsWith("Grid event results"));
    try {
      let running = await start();
      expect(
        (await call(running, "POST", "/dev/notifications/run", { body: { kind: "grid_event" } })).status,
      ).toBe(200);
      expect(sentTo(running.db)).toHaveLength(1);
      await running.close();
      running = await start();
      try {
        const r = await call(running, "POST", "/dev/notifications/run", { body: { kind: "grid_event" } });
        expect(r.json.sent).toBe(0);
        expect(sentTo(running.db)).toHaveLength(1);
      } finally {
        await running.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
