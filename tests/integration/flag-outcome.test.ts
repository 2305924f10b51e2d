import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { call, loginCookie, startTestApi } from "./api-harness";
import { storeAnswerToken } from "../../api/mail/tokens";
import { parseCsv } from "../support/csv-parse";
import { flagPrice, priceMoney } from "../../shared/flag-price";

/** Rule flag-outcome on the api: only staff on the client's account close, only an investigation, once. */
let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const flagOf = (building: number, status: string) =>
  api.db
    .prepare(
      `SELECT f.id, f.bill_statement_id AS bill FROM bill_flags f JOIN bill_statements s ON s.id = f.bill_statement_id
       WHERE s.building_id = ? AND f.status = ? AND f.type IN ('supplier_change','rate_class_change') LIMIT 1`,
    )
    .get(building, status) as { id: number; bill: number };

describe("closing an investigation (rule flag-outcome)", () => {
  it("refuses a client, a missing credit and a flag not under investigation; closes once and emails Dana", async () => {
    const open = flagOf(105, "action_requested");
    const path = `/bill-statement/${open.bill}/bill-flag/${open.id}/outcome`;
    const body = { outcome: "credit_received", credit_cents: 12050, note: "Refunded." };
    const dana = await loginCookie(api, "dana@harborcoffee.test");
    expect((await call(api, "POST", path, { cookie: dana, body })).status).toBe(403);

    // Staff impersonating Harbor: the impersonation rotates the session (a new cookie).
    const morgan = await loginCookie(api, "morgan@energyops.test");
    const imp = await call(api, "POST", "/impersonation", {
      cookie: morgan,
      body: { client_id: 1, reason: "Closing" },
    });
    const cookie = imp.res.headers.getSetCookie()[0].split(";")[0];

    const missing = await call(api, "POST", path, { cookie, body: { ...body, credit_cents: null } });
    expect(missing.status).toBe(422);
    const unack = flagOf(102, "unacknowledged");
    const refused = await call(api, "POST", `/bill-statement/${unack.bill}/bill-flag/${unack.id}/outcome`, {
      cookie,
      body: { outcome: "billing_correct", note: "x" },
    });
    expect(refused.status).toBe(409);

    const before = (
      api.db
        .prepare("SELECT count(*) AS n FROM outbox WHERE subject LIKE 'Investigation closed:%'")
        .get() as { n: number }
    ).n;
    const ok = await call(api, "POST", path, { cookie, body });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({
      status: "completed",
      outcome: { outcome: "credit_received", credit_cents: 12050, note: "Refunded.", by: { you: true } },
    });
    const sent = api.db
      .prepare("SELECT to_email FROM outbox WHERE subject LIKE 'Investigation closed:%' ORDER BY id")
      .all() as { to_email: string }[];
    expect(sent.length - before).toBeGreaterThan(0);
    expect(sent.map((m) => m.to_email)).toContain("dana@harborcoffee.test");
    // Completed is final: a second close is refused and sends nothing more.
    expect((await call(api, "POST", path, { cookie, body })).status).toBe(409);
    expect(
      (
        api.db
          .prepare("SELECT count(*) AS n FROM outbox WHERE subject LIKE 'Investigation closed:%'")
          .get() as { n: number }
      ).n,
    ).toBe(sent.length);
  });

  it("a closed flag reads as its outcome in the bills CSV, on the answer page and in the email, with the stake", async () => {
    const open = api.db
      .prepare(
        `SELECT f.id, f.bill_statement_id AS bill FROM bill_flags f
         WHERE f.status = 'action_requested' AND f.type = 'supplier_change' ORDER BY f.id LIMIT 1`,
      )
      .get() as { id: number; bill: number };
    const bill = api.db
      .prepare(
        `SELECT s.statement_date, s.rate_cents, s.consumption_kwh,
           (SELECT p.rate_cents FROM bill_statements p WHERE p.account_id = s.account_id
              AND p.statement_date < s.statement_date ORDER BY p.statement_date DESC LIMIT 1) AS prev
         FROM bill_statements s WHERE s.id = ?`,
      )
      .get(open.bill) as {
      statement_date: string;
      rate_cents: number;
      consumption_kwh: number;
      prev: number;
    };
    const price = flagPrice(
      { rateCents: bill.rate_cents, kwh: bill.consumption_kwh },
      { rateCents: bill.prev },
    );
    const morgan = await loginCookie(api, "morgan@energyops.test");
    const imp = await call(api, "POST", "/impersonation", {
      cookie: morgan,
      body: { client_id: 1, reason: "Closing" },
    });
    const cookie = imp.res.headers.getSetCookie()[0].split(";")[0];
    const closed = await call(api, "POST", `/bill-statement/${open.bill}/bill-flag/${open.id}/outcome`, {
      cookie,
      body: { outcome: "credit_received", credit_cents: 6840, note: "Switched without your authorization." },
    });
    expect(closed.status).toBe(200);
    const heading = "Investigated: credit of $68.40 received";

    // The bills CSV's Bill Issues cell (parsed by columns).
    const dana = await loginCookie(api, "dana@harborcoffee.test");
    const csv = (await call(api, "GET", "/client/1/bill-statements/export-csv", { cookie: dana }))
      .json as unknown as string;
    const [header, ...rows] = parseCsv(csv);
    const issues = header.indexOf("Bill Issues");
    const row = rows.find((r) => r.includes(bill.statement_date) && r[issues].includes("Investigated"));
    expect(row, `a CSV row for ${bill.statement_date}`).toBeDefined();
    expect(row![issues].split("; ")).toContain(heading);
    expect(row![issues]).not.toContain("Help Request Received");

    // A colleague's answer link: the page names the outcome and shows what was at stake.
    const danaId = (
      api.db.prepare("SELECT id FROM users WHERE email = ?").get("dana@harborcoffee.test") as {
        id: number;
      }
    ).id;
    storeAnswerToken(api.db, "issue49-token", danaId, open.id, "dismissed", 30);
    const page = await call(api, "GET", "/email-answers/bill-flag?token=issue49-token", {});
    expect(page.status).toBe(200);
    expect(page.json.flag).toEqual({
      id: open.id,
      type: "supplier_change",
      status: "completed",
      heading,
      price_line: `At stake on this bill, from the rate per kWh alone: ${price.text}.`,
    });

    // The outcome email: the credit against what was at stake, and the flag's own closed heading.
    const mail = api.db
      .prepare(
        "SELECT subject, text FROM outbox WHERE to_email = ? AND subject LIKE 'Investigation closed:%' ORDER BY id DESC",
      )
      .get("dana@harborcoffee.test") as { subject: string; text: string };
    expect(price.cents).not.toBeNull();
    expect(mail.text).toContain(`Outcome: Credit received: $68.40 of ${priceMoney(price.cents!)}`);
    expect(mail.text).toContain(heading);
  });
});

describe("the outcome email is written in the close's transaction", () => {
  it("an email that cannot be written rolls the close back; a close that commits has its email", async () => {
    // The test's own investigation: a flag of Harbor's asked about (the first test closed the seeded one).
    const open = flagOf(102, "unacknowledged");
    api.db.prepare("UPDATE bill_flags SET status = 'action_requested' WHERE id = ?").run(open.id);
    const path = `/bill-statement/${open.bill}/bill-flag/${open.id}/outcome`;
    const morgan = await loginCookie(api, "morgan@energyops.test");
    const imp = await call(api, "POST", "/impersonation", {
      cookie: morgan,
      body: { client_id: 1, reason: "Closing" },
    });
    const cookie = imp.res.headers.getSetCookie()[0].split(";")[0];
    const closedMails = () =>
      (
        api.db
          .prepare("SELECT count(*) AS n FROM outbox WHERE subject LIKE 'Investigation closed:%'")
          .get() as { n: number }
      ).n;
    const before = closedMails();
    // The outbox refuses every row: were the email written after the close's commit, the flag would stay closed
    // with nobody told.
    api.db.exec(
      "CREATE TEMP TRIGGER refuse_outbox BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'outbox down'); END",
    );
    try {
      const failed = await call(api, "POST", path, {
        cookie,
        body: { outcome: "billing_correct", note: "x" },
      });
      expect(failed.status).toBe(500);
    } finally {
      api.db.exec("DROP TRIGGER refuse_outbox");
    }
    expect(api.db.prepare("SELECT status FROM bill_flags WHERE id = ?").get(open.id)).toEqual({
      status: "action_requested",
    });
    expect(
      api.db.prepare("SELECT count(*) AS n FROM bill_flag_outcomes WHERE bill_flag_id = ?").get(open.id),
    ).toEqual({ n: 0 });
    expect(closedMails()).toBe(before);
    const ok = await call(api, "POST", path, { cookie, body: { outcome: "billing_correct", note: "x" } });
    expect(ok.status).toBe(200);
    expect(closedMails()).toBeGreaterThan(before);
    // The email reports the close as written: its instant and who closed it.
    const mail = api.db
      .prepare("SELECT text FROM outbox WHERE subject LIKE 'Investigation closed:%' ORDER BY id DESC LIMIT 1")
      .get() as { text: string };
    expect(mail.text).toContain("Morgan");
  });
});
