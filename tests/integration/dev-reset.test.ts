import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiConfigFromEnv } from "../../api/config";
import { startApi, type RunningApi } from "../../api/server";
import { TEST_CLOCK_START } from "../support/clock";
import { call, latestMail, loginCookie } from "./api-harness";

/** The test hook POST /dev/reset (api/routes/dev.ts): absent unless ENABLE_TEST_HOOKS, and what it puts back. */
describe("POST /dev/reset", () => {
  describe("test hooks off", () => {
    it("is off by default: no ENABLE_TEST_HOOKS in the environment (more in tests/unit/api-config.test.ts)", () => {
      expect(apiConfigFromEnv({}).testHooks).toBe(false);
    });

    it("answers 404 when hooks are off, and when the api runs without demo data", async () => {
      const off = await startApi({ port: 0, dbFile: ":memory:", quiet: true, seed: false, testHooks: false });
      const noDemo = await startApi({
        port: 0,
        dbFile: ":memory:",
        quiet: true,
        demoData: false,
        testHooks: true,
      });
      try {
        for (const api of [off, noDemo]) {
          const r = await call(api, "POST", "/dev/reset");
          expect(r.status).toBe(404);
          expect(r.json).toEqual({ message: "Not Found" });
        }
      } finally {
        await off.close();
        await noDemo.close();
      }
    });
  });

  describe("test hooks on", () => {
    let api: RunningApi;
    beforeAll(async () => {
      api = await startApi({
        port: 0,
        dbFile: ":memory:",
        quiet: true,
        webBaseUrl: "http://web.test",
        testHooks: true,
        clockStart: TEST_CLOCK_START,
      });
    });
    afterAll(() => api.close());

    type Flag = { id: number; status: string };
    type Bill = { id: number; flags: Flag[] };
    const bills = async (cookie: string) =>
      (await call(api, "GET", "/building/102/bill-statements", { cookie })).json.items as Bill[];

    it("puts changed data back as seeded, keeps sessions and the outbox, and keeps the history", async () => {
      const dana = await loginCookie(api, "dana@harborcoffee.test");
      const [bill] = await bills(dana);
      const flag = bill.flags.find((f) => f.status === "unacknowledged")!;
      const patched = await call(api, "PATCH", `/bill-statement/${bill.id}/bill-flag/${flag.id}`, {
        body: { status: "dismissed" },
        cookie: dana,
      });
      expect(patched.status).toBe(200);
      const prefs = await call(api, "GET", "/communication-preferences", { cookie: dana });
      await call(api, "POST", "/auth/login-code/request", { body: { email: "alex@mapledental.test" } });
      const mail = await latestMail(api, "alex@mapledental.test");
      expect(mail.code).toBeTruthy();
      const usageRows = () =>
        (api.db.prepare("SELECT count(*) AS n FROM usage_intervals").get() as { n: number }).n;
      const usageBefore = usageRows();
      const dailyRows = () =>
        (api.db.prepare("SELECT count(*) AS n FROM thermostat_history_daily").get() as { n: number }).n;
      const dailyBefore = dailyRows();
      expect(dailyBefore).toBeGreaterThan(0);

      const reset = await call(api, "POST", "/dev/reset");
      expect(reset.status).toBe(200);
      expect(reset.json.history).toBe(false);

      // Dana is still signed in, and the flag she answered is unacknowledged again.
      const after = (await bills(dana)).find((b) => b.id === bill.id)!;
      expect(after.flags.find((f) => f.id === flag.id)!.status).toBe("unacknowledged");
      expect((await call(api, "GET", "/communication-preferences", { cookie: dana })).json).toEqual(
        prefs.json,
      );
      // The mail log survives (tests mark it by id); the history tables were not written again.
      expect((await latestMail(api, "alex@mapledental.test")).code).toBe(mail.code);
      expect(usageRows()).toBe(usageBefore);
      // The report's daily aggregates are kept with the history they sum.
      expect(dailyRows()).toBe(dailyBefore);
    });

    it("ends the sessions of users the reset removed", async () => {
      const id = (api.db.prepare("SELECT max(id) + 1 AS id FROM users").get() as { id: number }).id;
      api.db
        .prepare("INSERT INTO users (id, email, first_name, last_name, client_id) VALUES (?, ?, 'T', 'T', 1)")
        .run(id, "temp@harborcoffee.test");
      api.db
        .prepare("INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES ('x', ?, '2020', '2999')")
        .run(id);
      expect((await call(api, "POST", "/dev/reset")).status).toBe(200);
      expect(api.db.prepare("SELECT id FROM sessions WHERE id = 'x'").get()).toBeUndefined();
      expect(api.db.prepare("SELECT id FROM users WHERE id = ?").get(id)).toBeUndefined();
    });

    it("POST /dev/clock moves the api's clock, a reset seeds at it, and null puts it back", async () => {
      const moved = await call(api, "POST", "/dev/clock", { body: { at: "2026-12-01T03:00:00.000Z" } });
      expect(moved.status).toBe(200);
      expect(Date.parse(moved.json.now as string) - Date.parse("2026-12-01T03:00:00.000Z")).toBeLessThan(
        60_000,
      );
      const reset = await call(api, "POST", "/dev/reset");
      expect(reset.json.now as string).toMatch(/^2026-12-01T03:0/);
      expect((await call(api, "POST", "/dev/clock", { body: { at: "Dec 1" } })).status).toBe(422);
      const back = await call(api, "POST", "/dev/clock", { body: { at: null } });
      expect(Math.abs(Date.parse(back.json.now as string) - Date.parse(TEST_CLOCK_START))).toBeLessThan(
        10 * 60_000,
      );
      // A reset on another day seeds the history again: seconds of CPU, more on a busy machine.
    }, 120_000);
  });
});
