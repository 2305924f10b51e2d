import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TZDate } from "@date-fns/tz";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutboxRow } from "../../api/mail/outbox-row";
import { startApi, type RunningApi } from "../../api/server";
import { TEST_CLOCK_START } from "../support/clock";
import { call, loginCookie, startTestApi } from "./api-harness";
import { FLAG_WITHDRAW_SIGNED_IN } from "../../shared/bill-flags";

const DANA = "dana@harborcoffee.test";
const SAM = "sam@harborcoffee.test";

const mails = (api: RunningApi, to: string, kind: string) =>
  api.db
    .prepare("SELECT * FROM outbox WHERE to_email = ? AND kind = ? ORDER BY id")
    .all(to, kind) as OutboxRow[];

/** The answer tokens of every Bill Audit Alert in an email, in order: [yes, no] per flag. */
const answerPairs = (m: OutboxRow) => {
  const links = JSON.parse(m.links_json) as string[];
  const token = (l: string) => new URL(l).searchParams.get("token")!;
  const yes = links.filter((l) => l.includes("/fix-my-bill/dismissed?token="));
  const no = links.filter((l) => l.includes("/fix-my-bill/action_requested?token="));
  return yes.map((l, i) => [token(l), token(no[i])] as const);
};

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
    // One email for the run, however many flags it found (rule alert-grouping).
    expect(alerts.length).toBe(1);
    const a = alerts[0];
    expect(a.subject).toMatch(
      /^(Please verify energy supplier change|Your utility delivery rate increased|Your utility changed this account's rate class): /,
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
    const flagged = (
      api.db
        .prepare("SELECT count(*) AS n FROM notifications_sent WHERE user_id = 1 AND kind = 'bill_flag'")
        .get() as { n: number }
    ).n;
    expect(flagged).toBeGreaterThan(5);
    expect(answerPairs(a)).toHaveLength(flagged);
    expect(await run(api, "bill_flag")).toBe(0);
    expect(mails(api, DANA, "bill_flag").length).toBe(1);
  });

  it("sam hears only of flags at the locations he may see", () => {
    const samAlerts = mails(api, SAM, "bill_flag");
    expect(samAlerts.length).toBeGreaterThan(0);
    const visible = (
      api.db
        .prepare("SELECT building_id FROM user_building_access WHERE user_id = 2 AND has_access = 1")
        .all() as { building_id: number }[]
    ).map((b) => b.building_id);
    for (const m of samAlerts)
      for (const l of JSON.parse(m.links_json) as string[]) {
        const id = /\/locations\/(\d+)\//.exec(l)?.[1];
        if (id) expect(visible).toContain(Number(id));
      }
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

  it("monthly_recap counts a location's grid events by the calendar month of its own timezone", async () => {
    const dana = api.db.prepare("SELECT id, client_id FROM users WHERE email = ?").get(DANA) as {
      id: number;
      client_id: number;
    };
    const b = api.db
      .prepare(
        "SELECT id, name, timezone FROM buildings WHERE client_id = ? AND timezone <> 'UTC' ORDER BY id",
      )
      .get(dana.client_id) as { id: number; name: string; timezone: string };
    // The recap is about the month before the clock's.
    const now = new Date(Date.now() + (Date.parse(TEST_CLOCK_START) - Date.now()));
    const y = now.getUTCMonth() === 0 ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
    const m = (now.getUTCMonth() + 11) % 12; // 0-based month of the recap
    const at = (year: number, month: number, day: number, hour: number) =>
      new Date(+new TZDate(year, month, day, hour, 0, b.timezone)).toISOString();
    const insert = api.db.prepare(
      "INSERT INTO dispatches (client_id, building_id, status, event_type, start_time, end_time) VALUES (?, ?, 'SUCCESS', 'DR', ?, ?)",
    );
    // An event on the month's last evening, local time: already the next month in UTC, it belongs to this one.
    const lastEvening = at(y, m + 1, 0, 22);
    insert.run(dana.client_id, b.id, lastEvening, lastEvening);
    const localMonth = new Intl.DateTimeFormat("en-CA", {
      timeZone: b.timezone,
      year: "numeric",
      month: "2-digit",
    });
    const expected = (
      api.db
        .prepare(
          "SELECT start_time FROM dispatches WHERE building_id = ? AND status = 'SUCCESS' AND is_internal_test = 0",
        )
        .all(b.id) as { start_time: string }[]
    ).filter(
      (d) => localMonth.format(new Date(d.start_time)) === `${y}-${String(m + 1).padStart(2, "0")}`,
    ).length;

    api.db
      .prepare(
        "UPDATE communication_preferences SET enabled = 1 WHERE user_id = ? AND communication_preference_type = 'monthly_recap'",
      )
      .run(dana.id);
    await run(api, "monthly_recap");
    const [recap] = mails(api, DANA, "monthly_recap");
    // The location's section: from its bills link (its name, rule location-name) to its grid events line.
    const section = recap.text.slice(recap.text.indexOf(`/locations/${b.id}/spending`));
    expect(Number(/Grid events taken part in: (\d+)/.exec(section)?.[1])).toBe(expected);
  });

  it("device and comfort alerts name the issue, the control room, and offer dismissal only where the rule allows", async () => {
    await run(api, "device_issue");
    await run(api, "customer_comfort");
    const all = api.db
      .prepare("SELECT * FROM outbox WHERE kind IN ('device_issue', 'customer_comfort')")
      .all() as OutboxRow[];
    expect(all.length).toBeGreaterThan(0);
    const dismissals = all.flatMap((m) =>
      (JSON.parse(m.links_json) as string[]).filter((l) => l.includes("/dismiss-thermostat-issue?")),
    );
    for (const m of all) {
      const links = JSON.parse(m.links_json) as string[];
      expect(links.some((l) => /^http:\/\/web\.test\/locations\/\d+\/control$/.test(l))).toBe(true);
    }
    // Kitchen (Enode, its schedule issue does not auto-resolve) may be dismissed; Downstairs (Airzone) may not,
    // and its alert says why and what to do instead of offering it (rule dismissal-offer).
    expect(dismissals).toContain(
      "http://web.test/dismiss-thermostat-issue?thermostatId=1014&issueSlug=unchanging_schedule",
    );
    expect(dismissals.filter((l) => l.includes("thermostatId=1019&"))).toEqual([]);
    const text = all.map((m) => m.text).join("\n");
    expect(text).toContain("Issues on Airzone thermostats cannot be resolved or dismissed in EnergyOps");
    // A hold says that the thermostat no longer follows its schedule, and what to do (rule hold-alert-advice).
    expect(text).toMatch(
      /Downstairs is on a permanent hold since [A-Z][a-z]{2} \d+, 2026, [\d:]+ [AP]M [A-Z]+: it no longer follows its schedule/,
    );
    expect(text).toContain("change it on the thermostat or in the Airzone app");
    expect(text).toContain("press Resolve Issue on the Kitchen card");
    // A comfort alert gives the indoor temperature against the setpoint, and since when (rule comfort-alert-reading).
    expect(text).toMatch(
      /It reads 66°F indoors against a heating setpoint of 70°F \(4°F cooler\)\. The issue has been open since [A-Z][a-z]{2} \d+, 2026/,
    );
  });

  it("an answer link: GET changes nothing; POST records it once, a repeat records nothing, a link escalates but never withdraws", async () => {
    const [confirm, investigate] = answerPairs(mails(api, DANA, "bill_flag")[0])[1];
    const before = await call(api, "GET", `/email-answers/bill-flag?token=${investigate}`);
    expect(before.status).toBe(200);
    expect(before.json).toMatchObject({
      state: "open",
      answer: "action_requested",
      flag: { status: "unacknowledged" },
      on_record: null,
      answers_open: ["dismissed", "action_requested"],
    });
    const flagId = (before.json.flag as { id: number }).id;
    const again = await call(api, "GET", `/email-answers/bill-flag?token=${investigate}`);
    expect(again.json.state).toBe("open");
    const post = await call(api, "POST", "/email-answers/bill-flag", { body: { token: investigate } });
    expect(post.status).toBe(200);
    expect(post.json).toMatchObject({
      state: "recorded",
      answer: "action_requested",
      flag: { id: flagId, status: "action_requested" },
      on_record: { answer: "action_requested", by: { name: "Dana Reyes", you: true }, source: "email" },
    });
    const history = () =>
      api.db
        .prepare("SELECT answer, source FROM bill_flag_answers WHERE bill_flag_id = ? ORDER BY id")
        .all(flagId);
    expect(history()).toEqual([{ answer: "action_requested", source: "email" }]);
    // A double click: the same answer by the same person is confirmed again, recorded once.
    const repeat = await call(api, "POST", "/email-answers/bill-flag", { body: { token: investigate } });
    expect(repeat.status).toBe(200);
    expect(history()).toHaveLength(1);
    // An answer link never withdraws an investigation, not even its own person's: her
    // "Yes" link and the page's switch are refused, and the page sends her to the signed-in spending page.
    const yesView = await call(api, "GET", `/email-answers/bill-flag?token=${confirm}`);
    expect(yesView.json).toMatchObject({ state: "answered", answers_open: [] });
    for (const body of [{ token: investigate, answer: "dismissed" }, { token: confirm }]) {
      const withdraw = await call(api, "POST", "/email-answers/bill-flag", { body });
      expect(withdraw.status).toBe(409);
      expect(withdraw.json).toMatchObject({ message: FLAG_WITHDRAW_SIGNED_IN, error: "signed_in" });
    }
    expect(history()).toEqual([{ answer: "action_requested", source: "email" }]);
    // Signed in, on the spending page, she may withdraw her own request; a link may then escalate again.
    const dana = await loginCookie(api, DANA);
    const bill = api.db
      .prepare("SELECT bill_statement_id AS id FROM bill_flags WHERE id = ?")
      .get(flagId) as {
      id: number;
    };
    const page = await call(api, "PATCH", `/bill-statement/${bill.id}/bill-flag/${flagId}`, {
      body: { status: "dismissed" },
      cookie: dana,
    });
    expect(page.status).toBe(200);
    const escalate = await call(api, "POST", "/email-answers/bill-flag", { body: { token: investigate } });
    expect(escalate.status).toBe(200);
    expect(escalate.json).toMatchObject({ state: "recorded", flag: { status: "action_requested" } });
    expect(history()).toEqual([
      { answer: "action_requested", source: "email" },
      { answer: "dismissed", source: "app" },
      { answer: "action_requested", source: "email" },
    ]);
    expect((await call(api, "POST", "/email-answers/bill-flag", { body: { token: "nope" } })).status).toBe(
      404,
    );
  });

  it("opposite answers to one flag: the second person sees who answered, and may still ask for an investigation", async () => {
    // Both dana and sam were alerted about flags at sam's locations: find one neither has answered.
    const tokensOf = (to: string) =>
      mails(api, to, "bill_flag").flatMap((m) =>
        answerPairs(m).map(([confirm, investigate]) => ({ confirm, investigate })),
      );
    const flagOf = async (token: string) => {
      const r = await call(api, "GET", `/email-answers/bill-flag?token=${token}`);
      return r.json.state === "open" ? (r.json.flag as { id: number }).id : null;
    };
    const dana = new Map<number, { confirm: string; investigate: string }>();
    for (const t of tokensOf(DANA)) {
      const id = await flagOf(t.confirm);
      if (id) dana.set(id, t);
    }
    let shared: {
      id: number;
      dana: { confirm: string };
      sam: { confirm: string; investigate: string };
    } | null = null;
    for (const t of tokensOf(SAM)) {
      const id = await flagOf(t.investigate);
      if (id && dana.has(id)) shared = { id, dana: dana.get(id)!, sam: t };
    }
    expect(shared).not.toBeNull();
    const { dana: d, sam: s } = shared!;

    expect((await call(api, "POST", "/email-answers/bill-flag", { body: { token: d.confirm } })).status).toBe(
      200,
    );
    // Sam's "No, please investigate" link names Dana's answer and still asks.
    const samView = await call(api, "GET", `/email-answers/bill-flag?token=${s.investigate}`);
    expect(samView.json).toMatchObject({
      state: "open",
      on_record: { answer: "dismissed", by: { name: "Dana Reyes", you: false }, source: "email" },
      answers_open: ["action_requested"],
    });
    // His "Yes" link finds Dana's yes on record: nothing is recorded in his name, and it is not his feedback.
    const samYes = await call(api, "POST", "/email-answers/bill-flag", { body: { token: s.confirm } });
    expect(samYes.status).toBe(409);
    expect(samYes.json).toMatchObject({
      state: "answered",
      on_record: { by: { name: "Dana Reyes", you: false } },
    });
    // He asks for an investigation anyway: recorded, in his name.
    const samNo = await call(api, "POST", "/email-answers/bill-flag", { body: { token: s.investigate } });
    expect(samNo.status).toBe(200);
    expect(samNo.json).toMatchObject({
      state: "recorded",
      flag: { status: "action_requested" },
      on_record: { by: { name: "Sam Okafor", you: true } },
    });
    // Dana's link can no longer withdraw it.
    const danaAgain = await call(api, "POST", "/email-answers/bill-flag", {
      body: { token: d.confirm, answer: "dismissed" },
    });
    expect(danaAgain.status).toBe(409);
    expect(
      api.db
        .prepare(
          "SELECT u.first_name AS who, a.answer FROM bill_flag_answers a JOIN users u ON u.id = a.user_id WHERE a.bill_flag_id = ? ORDER BY a.id",
        )
        .all(shared!.id),
    ).toEqual([
      { who: "Dana", answer: "dismissed" },
      { who: "Sam", answer: "action_requested" },
    ]);
  });

  it("a former member's answer link neither shows the bill nor answers (rule email-token-access)", async () => {
    const [, investigate] = answerPairs(mails(api, SAM, "bill_flag").at(-1)!).at(-1)!;
    const view = await call(api, "GET", `/email-answers/bill-flag?token=${investigate}`);
    expect(view.status).toBe(200);
    const flag = view.json.flag as { id: number; status: string };
    const building = (view.json.bill as { location: { id: number } }).location.id;
    const status = () =>
      (api.db.prepare("SELECT status FROM bill_flags WHERE id = ?").get(flag.id) as { status: string })
        .status;
    const before = status();
    // Removed from the client (not through the team page, so no token was revoked): refused at use.
    api.db.prepare("UPDATE users SET client_id = ? WHERE email = ?").run(2, SAM);
    const gone = await call(api, "GET", `/email-answers/bill-flag?token=${investigate}`);
    expect(gone.status).toBe(404);
    expect(JSON.stringify(gone.json)).not.toContain("bill");
    expect(
      (await call(api, "POST", "/email-answers/bill-flag", { body: { token: investigate } })).status,
    ).toBe(404);
    api.db.prepare("UPDATE users SET client_id = 1 WHERE email = ?").run(SAM);
    // Access to the location removed by the client admin: the token is revoked, for good.
    const danaCookie = await loginCookie(api, DANA);
    const off = await call(api, "PUT", "/user_building_access", {
      cookie: danaCookie,
      body: { user_id: 2, building_id: building, has_access: false },
    });
    expect(off.status).toBe(204);
    expect((await call(api, "GET", `/email-answers/bill-flag?token=${investigate}`)).status).toBe(404);
    expect(
      (await call(api, "POST", "/email-answers/bill-flag", { body: { token: investigate } })).status,
    ).toBe(404);
    await call(api, "PUT", "/user_building_access", {
      cookie: danaCookie,
      body: { user_id: 2, building_id: building, has_access: true },
    });
    expect((await call(api, "GET", `/email-answers/bill-flag?token=${investigate}`)).status).toBe(404);
    expect(status()).toBe(before);
  });

  it("an expired answer link says so and records nothing", async () => {
    const [token] = answerPairs(mails(api, DANA, "bill_flag")[0])[2];
    api.db.prepare("UPDATE email_tokens SET expires_at = '2000-01-01T00:00:00.000Z'").run();
    const r = await call(api, "POST", "/email-answers/bill-flag", { body: { token } });
    expect(r.status).toBe(410);
    expect(r.json.state).toBe("expired");
    expect((await call(api, "GET", `/email-answers/bill-flag?token=${token}`)).json.state).toBe("expired");
    api.db.prepare("UPDATE email_tokens SET expires_at = '2100-01-01T00:00:00.000Z'").run();
  });

  it("unsubscribe: GET asks, POST turns the preference off (twice is fine), and no further mail of that kind", async () => {
    const a = mails(api, DANA, "bill_flag")[0];
    const headers = JSON.parse(a.headers_json) as Record<string, string>;
    const token = new URL(headers["List-Unsubscribe"].slice(1, -1)).searchParams.get("token")!;
    const pref = () =>
      (
        api.db
          .prepare(
            "SELECT enabled FROM communication_preferences WHERE user_id = 1 AND communication_preference_type = 'bill_flag' AND delivery_method_preference = 'email'",
          )
          .get() as { enabled: number }
      ).enabled;
    expect((await call(api, "GET", `/email-answers/unsubscribe?token=${token}`)).json).toMatchObject({
      state: "open",
      kind: "bill_flag",
    });
    expect(pref()).toBe(1);
    expect((await call(api, "POST", "/email-answers/unsubscribe", { body: { token } })).json.state).toBe(
      "done",
    );
    expect((await call(api, "POST", "/email-answers/unsubscribe", { body: { token } })).status).toBe(200);
    expect(pref()).toBe(0);
    // A day later the limit has room again, but dana said no: nothing more of that kind.
    api.db.prepare("UPDATE notifications_sent SET sent_at = '2000-01-01T00:00:00.000Z'").run();
    const count = mails(api, DANA, "bill_flag").length;
    await run(api, "bill_flag");
    expect(mails(api, DANA, "bill_flag").length).toBe(count);
    expect(mails(api, SAM, "bill_flag").length).toBeGreaterThan(0);
  });

  it("two runs at once still write each alert once (the ledger's UNIQUE key decides)", async () => {
    api.db.prepare("DELETE FROM notifications_sent WHERE kind = 'customer_comfort'").run();
    api.db.prepare("DELETE FROM outbox WHERE kind = 'customer_comfort'").run();
    const [c, d] = await Promise.all([run(api, "customer_comfort"), run(api, "customer_comfort")]);
    const written = (
      api.db.prepare("SELECT count(*) AS n FROM outbox WHERE kind = 'customer_comfort'").get() as {
        n: number;
      }
    ).n;
    expect(written).toBeGreaterThan(0);
    expect(c + d).toBe(written);
    expect(
      api.db
        .prepare(
          "SELECT to_email, subject FROM outbox WHERE kind = 'customer_comfort' GROUP BY to_email, subject HAVING count(*) > 1",
        )
        .all(),
    ).toEqual([]);
  });

  it("sign-in emails carry an HTML part in the same layout", async () => {
    expect((await call(api, "POST", "/auth/login-code/request", { body: { email: SAM } })).status).toBe(204);
    const m = api.db
      .prepare("SELECT * FROM outbox WHERE to_email = ? AND kind = 'sign_in' ORDER BY id DESC")
      .get(SAM) as OutboxRow;
    expect(m.html).toMatch(/<html[^>]* lang="en"/);
    expect(m.html).toContain("Your login code");
    expect(m.text).toMatch(/Your login code is \d{6}\. It expires in 10 minutes\./);
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
