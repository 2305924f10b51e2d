import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutboxRow } from "../../api/mail/outbox-row";
import type { RunningApi } from "../../api/server";
import { TOMORROW_EVENT_BUILDING } from "../../api/db/seed/grid";
import { USER } from "../../api/db/seed/ids";
import { TEST_CLOCK_START } from "../support/clock";
import { call, startTestApi } from "./api-harness";

/**
 * Grid event notices, the day before (rule grid-notice-day): at the test clock (the afternoon before the seeded
 * event tomorrow at Harbor Coffee Mission, in San Francisco) the job mails each person who wants them and may see
 * the location, once; the email says when, which thermostats and what they will do, and its opt-out link opens
 * the event on the Grid Services page; the preference turns them off.
 */
const DANA = "dana@harborcoffee.test";
const ALEX = "alex@mapledental.test";
let api: RunningApi;
const mails = (to: string) =>
  api.db
    .prepare("SELECT * FROM outbox WHERE to_email = ? AND kind = 'grid_event' ORDER BY id")
    .all(to) as OutboxRow[];
const run = async () => {
  const r = await call(api, "POST", "/dev/notifications/run", { body: { kind: "grid_event" } });
  expect(r.status).toBe(200);
  return r.json.sent as number;
};
let eventId: number;

beforeAll(async () => {
  api = await startTestApi({ clockStart: TEST_CLOCK_START, ...({ testHooks: true } as object) });
  const day = new Date(Date.parse(TEST_CLOCK_START) + 86_400_000).toISOString().slice(0, 10);
  eventId = (
    api.db
      .prepare(
        "SELECT id FROM dispatches WHERE building_id = ? AND status = 'PENDING' AND substr(start_time, 1, 10) = ?",
      )
      .get(TOMORROW_EVENT_BUILDING, day) as { id: number }
  ).id;
});
afterAll(() => api.close());

describe("the notice the day before a grid event", () => {
  it("mails each person who wants it and sees the location, once, with the event's plan and opt-out link", async () => {
    const sent = await run();
    expect(sent).toBeGreaterThan(0);
    const [mail, ...more] = mails(DANA);
    expect(more).toHaveLength(0);
    const { name } = api.db
      .prepare("SELECT name FROM buildings WHERE id = ?")
      .get(TOMORROW_EVENT_BUILDING) as { name: string };
    expect(mail.subject).toBe(`Grid event tomorrow at ${name}`);
    // The thermostats and what they will do, at the building's local times.
    const thermostats = api.db
      .prepare(
        "SELECT t.device_name AS name, x.precool_setpoint AS pre, x.target_setpoint AS target FROM dispatch_thermostats x JOIN thermostats t ON t.id = x.thermostat_id WHERE x.dispatch_id = ?",
      )
      .all(eventId) as { name: string; pre: number; target: number }[];
    expect(thermostats.length).toBeGreaterThan(0);
    for (const t of thermostats)
      expect(mail.text).toMatch(
        new RegExp(
          `${t.name}: pre-cool to ${t.pre}°F from \\d{1,2}:\\d{2} (AM|PM) P[SD]T, then hold at ${t.target}°F`,
        ),
      );
    const links = JSON.parse(mail.links_json) as string[];
    const optOut = links.find((l) => l.includes("/grid-services?"))!;
    expect(new URL(optOut).searchParams.get("open")).toBe(String(eventId));
    expect(mail.html).toContain("Opt out of this event");
    // Another client's person does not see it.
    expect(mails(ALEX)).toHaveLength(0);
    // A second run writes nothing.
    expect(await run()).toBe(0);
    expect(mails(DANA)).toHaveLength(1);
  });

  it("is not sent to a person who turned Grid Event Notices off", async () => {
    api.db.prepare("DELETE FROM notifications_sent WHERE kind = 'grid_event'").run();
    api.db
      .prepare(
        "UPDATE communication_preferences SET enabled = 0 WHERE user_id = ? AND communication_preference_type = 'grid_event'",
      )
      .run(USER.dana);
    const before = mails(DANA).length;
    await run();
    expect(mails(DANA)).toHaveLength(before);
  });

  it("is not sent for an event opted out of", async () => {
    api.db.prepare("DELETE FROM notifications_sent WHERE kind = 'grid_event'").run();
    api.db.prepare("UPDATE dispatches SET status = 'OPT_OUT' WHERE id = ?").run(eventId);
    const sam = "sam@harborcoffee.test";
    const before = mails(sam).length;
    await run();
    expect(mails(sam)).toHaveLength(before);
  });
});
