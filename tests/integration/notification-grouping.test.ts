/**
 * The alert run's rules over the real api (rules alert-grouping, alert-email-cap, alert-resend and
 * nothing-connected, docs/rules.md): one email per person per run, grouped by location then kind, each alert
 * with its own links; the daily cap counts emails; what waits is said; a still-open issue comes back at most
 * once a day (comfort) or a week (device); a person with nothing connected gets no digest of zeros.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutboxRow } from "../../api/mail/outbox-row";
import type { RunningApi } from "../../api/server";
import { TEST_CLOCK_START } from "../support/clock";
import { flagPrice, priceMoney } from "../../shared/flag-price";
import { call, startTestApi } from "./api-harness";

const DANA = "dana@harborcoffee.test";
const HOUR = 3_600_000;

const start = () => startTestApi({ clockStart: TEST_CLOCK_START, ...({ testHooks: true } as object) });
const run = async (api: RunningApi, kind: string) => {
  const r = await call(api, "POST", "/dev/notifications/run", { body: { kind } });
  expect(r.status).toBe(200);
  return r.json.sent as number;
};
const mailsTo = (api: RunningApi, to: string) =>
  api.db.prepare("SELECT * FROM outbox WHERE to_email = ? ORDER BY id").all(to) as OutboxRow[];
const links = (m: OutboxRow) => JSON.parse(m.links_json) as string[];
const danaId = (api: RunningApi) =>
  (api.db.prepare("SELECT id FROM users WHERE email = ?").get(DANA) as { id: number }).id;
/** Moves every ledger row of dana's matching the condition back in time, as if sent `hours` earlier. */
const age = (api: RunningApi, hours: number, where = "1 = 1") =>
  api.db
    .prepare(
      `UPDATE notifications_sent SET sent_at = strftime('%Y-%m-%dT%H:%M:%fZ', sent_at, '-${hours} hours') WHERE user_id = ? AND ${where}`,
    )
    .run(danaId(api));
/** Dana's earlier alert emails, each at its own instant `hoursAgo` before the api's now. */
const pastEmails = (api: RunningApi, ...hoursAgo: number[]) => {
  const now = Date.parse(
    (api.db.prepare("SELECT max(sent_at) AS t FROM outbox").get() as { t: string | null }).t ??
      TEST_CLOCK_START,
  );
  for (const [i, h] of hoursAgo.entries())
    api.db
      .prepare(
        "INSERT INTO notifications_sent (user_id, kind, subject_key, sent_at) VALUES (?, 'bill_flag', ?, ?)",
      )
      .run(danaId(api), `flag:earlier-${i}`, new Date(now - h * HOUR).toISOString());
};

describe("one alert email per person per run", () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await start();
  });
  afterAll(() => api.close());

  it("groups everything the run found in one email, by location, then kind, each alert with its own links", async () => {
    // Two alert emails already went today: this run's is the last of the day.
    pastEmails(api, 5, 3);
    expect(await run(api, "alerts")).toBeGreaterThan(0);
    const mine = mailsTo(api, DANA);
    expect(mine).toHaveLength(1);
    const [m] = mine;
    expect(m.kind).toBe("alerts");
    // Every alert the run found, in this one email: none is left for a "next email".
    const found = (
      api.db
        .prepare(
          "SELECT count(*) AS n FROM notifications_sent WHERE user_id = ? AND subject_key NOT LIKE 'flag:earlier-%'",
        )
        .get(danaId(api)) as { n: number }
    ).n;
    expect(found).toBeGreaterThan(10);
    expect(m.subject).toBe(`${m.subject.split(", and ")[0]}, and ${found - 1} more alerts`);
    // By location (their names in order), and within a location by kind: comfort, device, then bills.
    const sections = [...m.text.matchAll(/^([A-Z][A-Z0-9 '.-]+)$/gm)].map((x) => x[1]);
    expect(sections.length).toBeGreaterThan(1);
    expect([...sections].sort()).toEqual(sections);
    const midtown = m.text.slice(m.text.indexOf("HARBOR COFFEE MIDTOWN"));
    expect(midtown.indexOf("Comfort alert: ")).toBeLessThan(midtown.indexOf("Bill Audit Alert: "));
    // Every Bill Audit Alert keeps its two answers; every thermostat alert its control room.
    const yes = links(m).filter((l) => l.includes("/fix-my-bill/dismissed?token="));
    const no = links(m).filter((l) => l.includes("/fix-my-bill/action_requested?token="));
    expect(yes.length).toBeGreaterThan(1);
    expect(no).toHaveLength(yes.length);
    expect(new Set([...yes, ...no]).size).toBe(yes.length * 2);
    expect(m.text.match(/^(Comfort alert|Thermostat issue|Bill Audit Alert): /gm)).toHaveLength(found);
    expect(m.text).not.toMatch(/waiting|next alert email|shows them all/);
    // Two flags of one bill (101's latest, supplier and rate class change) carry the same money: the email
    // says the amount once, and that the second is counted with the first.
    const [bill, previous] = api.db
      .prepare(
        "SELECT rate_cents, consumption_kwh FROM bill_statements WHERE account_id = 1001 ORDER BY statement_date DESC LIMIT 2",
      )
      .all() as { rate_cents: number; consumption_kwh: number }[];
    const price = flagPrice(
      { rateCents: bill.rate_cents, kwh: bill.consumption_kwh },
      { rateCents: previous.rate_cents },
    );
    expect(price.cents).toBeGreaterThan(0);
    expect(m.text.split(`= ${priceMoney(price.cents!)}.`)).toHaveLength(2);
    expect(m.text).toContain(
      "At stake on this bill, from the rate per kWh alone: counted with the supplier change of this bill in this email, not added to it.",
    );
    // The day's last email under the cap says so, and from when the next may come; bill findings are on the
    // findings page (the dashboard does not show them), thermostat issues on the dashboard.
    expect(m.text).toMatch(
      /This is the last of the 3 alert emails we send you at most in 24 hours: anything we find before [A-Z][a-z]{2} \d+, 2026, [\d:]+ [AP]M [A-Z]+ waits, and comes in one email then\./,
    );
    expect(m.text).toContain("Findings at your locations: http://web.test/findings\n");
    expect(m.text).toContain("Your dashboard: http://web.test/locations\n");
    // Unsubscribe: one link per kind in the footer; the one-click header stops every kind the email holds.
    for (const what of ["Customer Comfort Alerts", "Thermostat Issue Alerts", "Bill Audit Alerts"])
      expect(m.text).toContain(`Unsubscribe from ${what}: http://web.test/unsubscribe?token=`);
    const header = (JSON.parse(m.headers_json) as Record<string, string>)["List-Unsubscribe"];
    const token = new URL(header.slice(1, -1)).searchParams.get("token")!;
    const asked = await call(api, "GET", `/email-answers/unsubscribe?token=${token}`);
    expect(asked.json.kinds).toEqual(["customer_comfort", "device_issue", "bill_flag"]);
  });

  it("caps emails, not findings: a full day holds the rest back; the next day they come in one email", async () => {
    const other = await start();
    try {
      // Three alert emails already went today: this run sends nothing, and forgets nothing.
      pastEmails(other, 5, 3, 1);
      await run(other, "alerts");
      expect(mailsTo(other, DANA)).toHaveLength(0);
      age(other, 25);
      await run(other, "alerts");
      const mine = mailsTo(other, DANA);
      expect(mine).toHaveLength(1);
      const [m] = mine;
      expect(m.text.match(/^(Comfort alert|Thermostat issue|Bill Audit Alert): /gm)!.length).toBeGreaterThan(
        10,
      );
      // The first email of a new day: no note about the cap.
      expect(m.text).not.toContain("alert emails we send you");
      await run(other, "alerts");
      expect(mailsTo(other, DANA)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

describe("re-sending a still-open issue", () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await start();
    await run(api, "customer_comfort");
    await run(api, "device_issue");
  });
  afterAll(() => api.close());
  const count = (kind: string) =>
    (
      api.db.prepare("SELECT count(*) AS n FROM outbox WHERE to_email = ? AND kind = ?").get(DANA, kind) as {
        n: number;
      }
    ).n;

  it("a comfort issue at most once a day, as a reminder", async () => {
    expect(count("customer_comfort")).toBe(1);
    age(api, 23, "kind = 'customer_comfort'");
    expect(await run(api, "customer_comfort")).toBe(0);
    age(api, 2, "kind = 'customer_comfort'");
    expect(await run(api, "customer_comfort")).toBe(1);
    const last = mailsTo(api, DANA).at(-1)!;
    expect(last.text).toContain("A reminder: this issue is still open.");
    const keys = api.db
      .prepare(
        "SELECT subject_key FROM notifications_sent WHERE kind = 'customer_comfort' AND user_id = ? ORDER BY id",
      )
      .all(danaId(api)) as { subject_key: string }[];
    expect(keys.some((k) => /^issue:\d+#2$/.test(k.subject_key))).toBe(true);
    expect(await run(api, "customer_comfort")).toBe(0);
  });

  it("a device issue at most once a week; a dismissed one never again", async () => {
    age(api, 6 * 24, "kind = 'device_issue'");
    expect(await run(api, "device_issue")).toBe(0);
    // Kitchen's schedule issue is dismissed meanwhile: it is not mailed again, the others are.
    api.db
      .prepare(
        "UPDATE thermostat_issues SET is_dismissed = 1, current_status = 'dismissed' WHERE thermostat_id = 1014",
      )
      .run();
    age(api, 2 * 24, "kind = 'device_issue'");
    expect(await run(api, "device_issue")).toBe(1);
    const last = mailsTo(api, DANA).at(-1)!;
    expect(last.text).toContain("A reminder: this issue is still open.");
    expect(last.text).not.toContain("Kitchen");
  });
});

describe("a client with nothing connected", () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await start();
  });
  afterAll(() => api.close());

  it("gets no digest of zeros: alex's Maple Dental has no account, thermostat, bill or usage", async () => {
    const alex = (
      api.db.prepare("SELECT id FROM users WHERE email = 'alex@mapledental.test'").get() as { id: number }
    ).id;
    for (const kind of ["weekly_rundown", "monthly_recap"])
      api.db
        .prepare(
          `INSERT INTO communication_preferences (user_id, communication_preference_type, delivery_method_preference, enabled) VALUES (?, ?, 'email', 1)
           ON CONFLICT (user_id, communication_preference_type, delivery_method_preference) DO UPDATE SET enabled = 1`,
        )
        .run(alex, kind);
    await run(api, "weekly_rundown");
    await run(api, "monthly_recap");
    expect(mailsTo(api, "alex@mapledental.test")).toEqual([]);
    // Dana's rundown goes out as before.
    expect(mailsTo(api, DANA).filter((m) => m.kind === "weekly_rundown")).toHaveLength(1);
  });

  it("a location without a utility account says so and links to connecting one, with no $0.00", async () => {
    api.db.prepare("DELETE FROM notifications_sent WHERE kind = 'weekly_rundown'").run();
    const flagsOf107 =
      "SELECT f.id FROM bill_flags f JOIN bill_statements b ON b.id = f.bill_statement_id WHERE b.building_id = 107";
    api.db.prepare(`DELETE FROM bill_flag_answers WHERE bill_flag_id IN (${flagsOf107})`).run();
    api.db.prepare(`DELETE FROM bill_flags WHERE id IN (${flagsOf107})`).run();
    api.db.prepare("DELETE FROM bill_statements WHERE building_id = 107").run();
    api.db.pragma("foreign_keys = OFF");
    api.db.prepare("DELETE FROM utility_accounts WHERE building_id = 107").run();
    api.db.pragma("foreign_keys = ON");
    await run(api, "weekly_rundown");
    const rundown = mailsTo(api, DANA)
      .filter((m) => m.kind === "weekly_rundown")
      .at(-1)!;
    const kiosk = rundown.text.slice(rundown.text.indexOf("HARBOR COFFEE LOOP"));
    expect(kiosk).toContain("Thermostats: No Devices. None is connected here yet.");
    expect(kiosk).toContain(
      "No utility account connected: bills, consumption and demand show here once one is.\n  Connect a utility account: http://web.test/authorize-arcadia",
    );
  });
});
