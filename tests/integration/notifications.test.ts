import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type RunningApi } from "../../api/server";
import { TEST_CLOCK_START } from "../support/clock";
import { call, startTestApi } from "./api-harness";

const DANA = "dana@harborcoffee.test";
const SAM = "sam@harborcoffee.test";

type OutboxRow = {
  id: number;
  to_email: string;
  subject: string;
  text: string;
  html: string | null;
  headers_json: string;
  kind: string;
  links_json: string;
};

const mails = (api: RunningApi, to: string, kind: string) =>
  api.db
    .prepare("SELECT * FROM outbox WHERE to_email = ? AND kind = ? ORDER BY id")
    .all(to, kind) as OutboxRow[];

const run = async (api: RunningApi, kind: string) => {
  const r = await call(api, "POST", "/dev/notifications/run", { body: { kind } });
  expect(r.status).toBe(200);
  return r.json.sent as number;
};

describe("notification jobs and the test hook", () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startTestApi({ clockStart: TEST_CLOCK_START, ...({ testHooks: true } as object) });
  });
  afterAll(() => api.close());

  it("bill_flag: dana gets Bill Audit Alerts with both answers and one-click unsubscribe; a second run sends nothing", async () => {
    const sent = await run(api, "bill_flag");
    expect(sent).toBeGreaterThan(0);
    const alerts = mails(api, DANA, "bill_flag");
    expect(alerts.length).toBeGreaterThanOrEqual(1);
    const a = alerts[0];
    expect(a.subject).toMatch(
      /^(Please verify energy supplier change|Your utility delivery rate increased): /,
    );
    const links = JSON.parse(a.links_json) as string[];
    expect(links[0]).toMatch(/^http:\/\/web\.test\/fix-my-bill\/dismissed\?token=/);
    expect(links[1]).toMatch(/^http:\/\/web\.test\/fix-my-bill\/action_requested\?token=/);
    expect(a.text).toContain("Yes, this is expected:");
    expect(a.text).toContain("No, please investigate:");
    expect(a.html).toContain('lang="en"');
    const headers = JSON.parse(a.headers_json) as Record<string, string>;
    expect(headers["List-Unsubscribe"]).toMatch(/^<http:\/\/web\.test\/unsubscribe\?token=[\w-]+>$/);
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(await run(api, "bill_flag")).toBe(0);
    expect(mails(api, DANA, "bill_flag").length).toBe(alerts.length);
  });

  it("at most 5 alerts of a kind per person a day: the rest wait, none is dropped", () => {
    expect(mails(api, DANA, "bill_flag").length).toBe(5);
    const keys = api.db
      .prepare("SELECT count(*) AS n FROM notifications_sent WHERE user_id = 1 AND kind = 'bill_flag'")
      .get() as { n: number };
    expect(keys.n).toBe(5);
  });

  it("sam hears only of flags at the locations he may see", () => {
    const samAlerts = mails(api, SAM, "bill_flag");
    const visible = (
      api.db
        .prepare(
          "SELECT b.name, b.nickname FROM buildings b JOIN user_building_access a ON a.building_id = b.id WHERE a.user_id = 2 AND a.has_access = 1",
        )
        .all() as { name: string; nickname: string | null }[]
    ).map((b) => b.nickname || b.name);
    for (const m of samAlerts) expect(visible.some((name) => m.subject.endsWith(`: ${name}`))).toBe(true);
  });

  it("weekly_rundown: dana gets one rundown, once", async () => {
    expect(await run(api, "weekly_rundown")).toBeGreaterThan(0);
    const rundowns = mails(api, DANA, "weekly_rundown");
    expect(rundowns.length).toBe(1);
    expect(rundowns[0].subject).toMatch(/^Your Weekly Rundown: /);
    expect(rundowns[0].text).toContain("Consumption: ");
    expect(await run(api, "weekly_rundown")).toBe(0);
  });

  it("monthly_recap: nobody with the preference off gets it (dana's is off)", async () => {
    await run(api, "monthly_recap");
    expect(mails(api, DANA, "monthly_recap")).toEqual([]);
  });

  it("device and comfort alerts name the issue and carry the dismissal link", async () => {
    await run(api, "device_issue");
    await run(api, "customer_comfort");
    const all = api.db
      .prepare("SELECT * FROM outbox WHERE kind IN ('device_issue', 'customer_comfort')")
      .all() as OutboxRow[];
    expect(all.length).toBeGreaterThan(0);
    for (const m of all) {
      const links = JSON.parse(m.links_json) as string[];
      expect(
        links.some((l) =>
          /^http:\/\/web\.test\/dismiss-thermostat-issue\?thermostatId=\d+&issueSlug=\w+$/.test(l),
        ),
      ).toBe(true);
      expect(links.some((l) => /^http:\/\/web\.test\/locations\/\d+\/control$/.test(l))).toBe(true);
    }
  });

  it("the hook refuses an unknown kind", async () => {
    const r = await call(api, "POST", "/dev/notifications/run", { body: { kind: "spam" } });
    expect(r.status).toBe(422);
  });
});

describe("exactly once across a restart", () => {
  it("a second process on the same database sends nothing already sent", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notify-"));
    const dbFile = path.join(dir, "api.sqlite");
    const start = () =>
      startApi({
        port: 0,
        dbFile,
        quiet: true,
        webBaseUrl: "http://web.test",
        notificationIntervalMs: 0,
        testHooks: true,
        clockStart: TEST_CLOCK_START,
      });
    let api = await start();
    expect(await run(api, "weekly_rundown")).toBeGreaterThan(0);
    await api.close();
    api = await start();
    try {
      expect(await run(api, "weekly_rundown")).toBe(0);
    } finally {
      await api.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe("without test hooks", () => {
  it("the hook does not exist", async () => {
    const api = await startApi({ port: 0, dbFile: ":memory:", quiet: true, seed: false, testHooks: false });
    try {
      const r = await call(api, "POST", "/dev/notifications/run", { body: { kind: "bill_flag" } });
      expect(r.status).toBe(404);
    } finally {
      await api.close();
    }
  });
});
