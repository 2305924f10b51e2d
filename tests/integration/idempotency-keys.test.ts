import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type RunningApi } from "../../api/server";
import { KEY_REUSED, KEY_TTL_MS } from "../../api/lib/idempotency";
import { KEY_NOT_HONOURED } from "../../api/lib/http";
import { TEST_CLOCK_START } from "../support/clock";
import { call, loginCookie } from "./api-harness";

/**
 * Idempotency-Key on the reference api's writes (api/lib/idempotency.ts, docs/api-contract.md): a repeat is
 * answered with the first answer and acts no further, another request under the key is refused with 422, keys
 * are per user, kept across a restart and for a day; the test-hook fault point answers nothing after commit.
 */
const SETTINGS = "/thermostats/1011/settings";
const key = (k: string) => ({ "idempotency-key": `"${k}"` });

describe("Idempotency-Key (reference api)", () => {
  let dir: string;
  let dbFile: string;
  let api: RunningApi;
  let dana: string;
  const start = () =>
    startApi({
      port: 0,
      dbFile,
      quiet: true,
      webBaseUrl: "http://web.test",
      notificationIntervalMs: 0,
      thermostatActionDelayMs: 3_600_000,
      clockStart: TEST_CLOCK_START,
      testHooks: true,
    });
  const actions = (thermostatId = 1011) =>
    (
      api.db
        .prepare("SELECT id FROM thermostat_actions WHERE thermostat_id = ? ORDER BY id")
        .all(thermostatId) as { id: number }[]
    ).map((a) => a.id);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "idem-keys-"));
    dbFile = path.join(dir, "api.sqlite");
    api = await start();
    dana = await loginCookie(api, "dana@harborcoffee.test");
  });
  afterAll(async () => {
    await api?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a repeat gets the first answer and creates nothing; without a key every call acts", async () => {
    const before = actions();
    const body = { cool_setpoint_f: 71 };
    const first = await call(api, "POST", SETTINGS, { body, cookie: dana, headers: key("k-repeat") });
    expect(first.status).toBe(200);
    const again = await call(api, "POST", SETTINGS, { body, cookie: dana, headers: key("k-repeat") });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(again.res.headers.get("idempotent-replayed")).toBe("true");
    expect(actions()).toEqual([...before, first.json.id]);
    // The bare form of the header (Stripe's) is the same key.
    const bare = await call(api, "POST", SETTINGS, {
      body,
      cookie: dana,
      headers: { "idempotency-key": "k-repeat" },
    });
    expect(bare.json).toEqual(first.json);
    const unkeyed = await call(api, "POST", SETTINGS, { body, cookie: dana });
    expect(unkeyed.json.id).not.toBe(first.json.id);
  });

  it("the key with another body or path is refused with 422 and acts no further", async () => {
    const first = await call(api, "POST", SETTINGS, {
      body: { cool_setpoint_f: 72 },
      cookie: dana,
      headers: key("k-other"),
    });
    expect(first.status).toBe(200);
    const before = actions();
    const other = await call(api, "POST", SETTINGS, {
      body: { cool_setpoint_f: 73 },
      cookie: dana,
      headers: key("k-other"),
    });
    expect(other.status).toBe(422);
    expect(other.json).toEqual({ message: KEY_REUSED });
    const otherPath = await call(api, "POST", "/thermostats/1012/settings", {
      body: { cool_setpoint_f: 72 },
      cookie: dana,
      headers: key("k-other"),
    });
    expect(otherPath.status).toBe(422);
    expect(actions()).toEqual(before);
  });

  it("a refused write keeps no key: corrected, the same key acts", async () => {
    const refused = await call(api, "POST", SETTINGS, {
      body: { cool_setpoint_f: 120 },
      cookie: dana,
      headers: key("k-refused"),
    });
    expect(refused.status).toBe(422);
    const ok = await call(api, "POST", SETTINGS, {
      body: { cool_setpoint_f: 70 },
      cookie: dana,
      headers: key("k-refused"),
    });
    expect(ok.status).toBe(200);
  });

  it("keys are per user: another user's same key acts for them and never reads the first answer", async () => {
    // Morgan (staff) acting for Harbor Coffee sees the same thermostat: same key, same request, own answer.
    const morgan = await loginCookie(api, "morgan@energyops.test");
    const imp = await call(api, "POST", "/impersonation", {
      body: { client_id: 1, reason: "idempotency test" },
      cookie: morgan,
    });
    expect(imp.status).toBe(200);
    const staff = imp.res.headers.get("set-cookie")!.split(";")[0];
    const body = { cool_setpoint_f: 69 };
    const mine = await call(api, "POST", SETTINGS, { body, cookie: dana, headers: key("k-shared") });
    expect(mine.status).toBe(200);
    const before = actions();
    const theirs = await call(api, "POST", SETTINGS, { body, cookie: staff, headers: key("k-shared") });
    expect(theirs.status).toBe(200);
    expect(theirs.res.headers.get("idempotent-replayed")).toBeNull();
    expect(theirs.json.id).not.toBe(mine.json.id);
    expect(actions()).toEqual([...before, theirs.json.id]);
  });

  it("an invalid key is refused with 400", async () => {
    const r = await call(api, "POST", SETTINGS, {
      body: { cool_setpoint_f: 70 },
      cookie: dana,
      headers: { "idempotency-key": "x".repeat(256) },
    });
    expect(r.status).toBe(400);
  });

  it("204 answers are kept too (team access), and a key is kept across a restart and for a day", async () => {
    const access = { user_id: 0, building_id: 0, has_access: false };
    const team = await call(api, "GET", "/users/1", { cookie: dana });
    expect(team.status).toBe(200);
    const member = (
      team.json.items as { id: number; user_buildings_with_name: { building_id: number }[] }[]
    ).find((m) => m.user_buildings_with_name.length > 0 && !String(m.id).startsWith("0"))!;
    access.user_id = member.id;
    access.building_id = member.user_buildings_with_name[0].building_id;
    const put = await call(api, "PUT", "/user_building_access", {
      body: access,
      cookie: dana,
      headers: key("k-204"),
    });
    expect(put.status).toBe(204);

    const body = { heat_setpoint_f: 66 };
    const first = await call(api, "POST", SETTINGS, { body, cookie: dana, headers: key("k-restart") });
    await api.close();
    api = await start();
    const before = actions();
    const again = await call(api, "POST", SETTINGS, { body, cookie: dana, headers: key("k-restart") });
    expect(again.json).toEqual(first.json);
    expect(actions()).toEqual(before);
    const put2 = await call(api, "PUT", "/user_building_access", {
      body: access,
      cookie: dana,
      headers: key("k-204"),
    });
    expect(put2.status).toBe(204);
    expect(put2.res.headers.get("idempotent-replayed")).toBe("true");

    // A day later the key is forgotten: the same request acts again.
    api.db
      .prepare("UPDATE idempotency_keys SET created_at = ? WHERE key = 'k-restart'")
      .run(new Date(Date.parse(TEST_CLOCK_START) - KEY_TTL_MS).toISOString());
    const later = await call(api, "POST", SETTINGS, { body, cookie: dana, headers: key("k-restart") });
    expect(later.status).toBe(200);
    expect(later.json.id).not.toBe(first.json.id);
  });

  it("the fault point (test hooks): the write commits with its key, the connection drops, the repeat gets its answer", async () => {
    const armed = await call(api, "POST", "/dev/faults/after-commit", {
      body: { method: "POST", path: "^/thermostats/1011/settings$", mode: "drop" },
    });
    expect(armed.status).toBe(200);
    const before = actions();
    const body = { cool_setpoint_f: 68 };
    await expect(
      call(api, "POST", SETTINGS, { body, cookie: dana, headers: key("k-drop") }),
    ).rejects.toThrow();
    const made = actions().filter((id) => !before.includes(id));
    expect(made).toHaveLength(1);
    const again = await call(api, "POST", SETTINGS, { body, cookie: dana, headers: key("k-drop") });
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(made[0]);
    expect(actions().filter((id) => !before.includes(id))).toEqual(made);
  });

  it("an asynchronous write refuses a key with 422 before it runs: nothing closed, nothing emailed, no crash", async () => {
    // the staff close renders its email (asynchronous), so it cannot answer a key inside one
    // transaction. Before, runKeyed threw after the handler had started: the close rolled back, the email was
    // written all the same, and the handler's promise was left unobserved (an unhandled rejection).
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", onUnhandled);
    try {
      const flag = api.db
        .prepare(
          `SELECT f.id, f.bill_statement_id AS bill FROM bill_flags f JOIN bill_statements s ON s.id = f.bill_statement_id
           WHERE s.building_id = 105 AND f.status = 'action_requested' LIMIT 1`,
        )
        .get() as { id: number; bill: number };
      const morgan = await loginCookie(api, "morgan@energyops.test");
      const imp = await call(api, "POST", "/impersonation", {
        body: { client_id: 1, reason: "idempotency test" },
        cookie: morgan,
      });
      const staff = imp.res.headers.get("set-cookie")!.split(";")[0];
      const outbox = () => (api.db.prepare("SELECT count(*) AS n FROM outbox").get() as { n: number }).n;
      const mails = outbox();
      const path = `/bill-statement/${flag.bill}/bill-flag/${flag.id}/outcome`;
      const body = { outcome: "billing_correct", note: "Checked." };
      const keyed = await call(api, "POST", path, { body, cookie: staff, headers: key("k-close") });
      expect(keyed.status).toBe(422);
      expect(keyed.json).toEqual({ message: KEY_NOT_HONOURED });
      // A signed-out asynchronous write (a sign-in code is emailed) is refused the same way.
      const code = await call(api, "POST", "/auth/login-code/request", {
        body: { email: "dana@harborcoffee.test" },
        headers: key("k-code"),
      });
      expect(code.status).toBe(422);
      await new Promise((r) => setTimeout(r, 50));
      expect(api.db.prepare("SELECT status FROM bill_flags WHERE id = ?").get(flag.id)).toEqual({
        status: "action_requested",
      });
      expect(outbox()).toBe(mails);
      expect(unhandled).toEqual([]);
      // Without a key the same close runs, once, with its email.
      const plain = await call(api, "POST", path, { body, cookie: staff });
      expect(plain.status).toBe(200);
      expect(outbox()).toBeGreaterThan(mails);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("the fault point does not exist without test hooks", async () => {
    const off = await startApi({ port: 0, dbFile: ":memory:", quiet: true, seed: false, testHooks: false });
    try {
      const r = await call(off, "POST", "/dev/faults/after-commit", {
        body: { path: ".", mode: "drop" },
      });
      expect(r.status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
