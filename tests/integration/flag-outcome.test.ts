import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { call, loginCookie, startTestApi } from "./api-harness";

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
});
