import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { call, loginCookie, startTestApi } from "./api-harness";
import { CLIENT } from "../../api/db/seed/ids";
import { flagPrice } from "../../shared/flag-price";

/**
 * Rule investigation-queue on the api: GET /investigations lists every open investigation across clients for
 * staff alone (impersonating or not), oldest request first, with what the queue shows; anyone else gets 404.
 */
let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

type Item = {
  flag_id: number;
  type: string;
  client: { id: number; name: string };
  building: { id: number; name: string; timezone: string };
  account: { id: number; number: string };
  bill: { id: number; statement_date: string; supplier: string | null };
  at_stake: { cents: number | null; text: string };
  asked: { answer: string; by: { name: string }; answered_at: string } | null;
  asked_at: string;
};

/** The open investigations as the database holds them: shown types, status action_requested. */
const openInDb = () =>
  api.db
    .prepare(
      `SELECT f.id, s.building_id AS building FROM bill_flags f JOIN bill_statements s ON s.id = f.bill_statement_id
       WHERE f.status = 'action_requested' AND f.type IN ('supplier_change', 'rate_class_change') ORDER BY f.id`,
    )
    .all() as { id: number; building: number }[];

async function impersonate(cookie: string, clientId: number) {
  const imp = await call(api, "POST", "/impersonation", {
    cookie,
    body: { client_id: clientId, reason: "Investigation queue" },
  });
  expect(imp.status).toBe(200);
  return imp.res.headers.getSetCookie()[0].split(";")[0];
}

describe("the investigation queue (rule investigation-queue)", () => {
  it("is staff's alone: 401 signed out, 404 for a client's admin, a limited user and another client", async () => {
    expect((await call(api, "GET", "/investigations", {})).status).toBe(401);
    for (const email of ["dana@harborcoffee.test", "alex@mapledental.test"]) {
      const res = await call(api, "GET", "/investigations", { cookie: await loginCookie(api, email) });
      expect(res.status, email).toBe(404);
      expect(JSON.stringify(res.json)).not.toContain("flag_id");
    }
  });

  it("lists every open investigation oldest first, with client, location, bill, price and who asked", async () => {
    const morgan = await loginCookie(api, "morgan@energyops.test");
    const res = await call(api, "GET", "/investigations", { cookie: morgan });
    expect(res.status).toBe(200);
    const items = (res.json as { items: Item[] }).items;
    // The seed's two (105's rate class change, 110's supplier change); not the hidden types' requests.
    expect(items.map((i) => i.flag_id).sort()).toEqual(openInDb().map((f) => f.id));
    expect(items.map((i) => i.building.id).sort()).toEqual([105, 110]);
    const asked = items.map((i) => i.asked_at);
    expect(asked).toEqual([...asked].sort());
    for (const i of items) {
      expect(i.client).toMatchObject({ id: CLIENT.harbor, name: "Harbor Coffee Co." });
      expect(i.asked).toMatchObject({ answer: "action_requested", by: { name: "Dana Reyes" } });
      expect(i.asked_at).toBe(i.asked!.answered_at);
      const bill = api.db
        .prepare(
          `SELECT s.rate_cents, s.consumption_kwh, (SELECT p.rate_cents FROM bill_statements p
             WHERE p.account_id = s.account_id AND p.statement_date < s.statement_date
             ORDER BY p.statement_date DESC LIMIT 1) AS prev FROM bill_statements s WHERE s.id = ?`,
        )
        .get(i.bill.id) as { rate_cents: number; consumption_kwh: number; prev: number };
      const price = flagPrice(
        { rateCents: bill.rate_cents, kwh: bill.consumption_kwh },
        { rateCents: bill.prev },
      );
      expect(i.at_stake).toEqual({ cents: price.cents, text: price.text });
    }
  });

  it("follows the requests: a new one comes last, a closed one leaves; whichever client staff impersonate", async () => {
    // Sam asks for an investigation of 101's supplier change (one of his locations).
    const flag = api.db
      .prepare(
        `SELECT f.id, f.bill_statement_id AS bill FROM bill_flags f JOIN bill_statements s ON s.id = f.bill_statement_id
         WHERE s.building_id = 101 AND f.type = 'supplier_change' AND f.status = 'unacknowledged' LIMIT 1`,
      )
      .get() as { id: number; bill: number };
    const sam = api.db
      .prepare("SELECT password_hash FROM users WHERE email = 'dana@harborcoffee.test'")
      .get() as {
      password_hash: string;
    };
    api.db
      .prepare("UPDATE users SET password_hash = ? WHERE email = 'sam@harborcoffee.test'")
      .run(sam.password_hash);
    const samCookie = await loginCookie(api, "sam@harborcoffee.test");
    const asked = await call(api, "PATCH", `/bill-statement/${flag.bill}/bill-flag/${flag.id}`, {
      cookie: samCookie,
      body: { status: "action_requested" },
    });
    expect(asked.status).toBe(200);

    // Staff looking at another client still see Harbor's queue.
    const morgan = await impersonate(await loginCookie(api, "morgan@energyops.test"), CLIENT.maple);
    const list = async () =>
      ((await call(api, "GET", "/investigations", { cookie: morgan })).json as { items: Item[] }).items;
    const after = await list();
    expect(after).toHaveLength(3);
    expect(after.at(-1)).toMatchObject({
      flag_id: flag.id,
      type: "supplier_change",
      building: { id: 101 },
      asked: { by: { name: expect.stringMatching(/^Sam /) } },
    });

    // Closed (on Harbor's account): it leaves the queue.
    const onHarbor = await impersonate(morgan, CLIENT.harbor);
    const closed = await call(api, "POST", `/bill-statement/${flag.bill}/bill-flag/${flag.id}/outcome`, {
      cookie: onHarbor,
      body: { outcome: "billing_correct", note: "Checked with the utility." },
    });
    expect(closed.status).toBe(200);
    const left = ((await call(api, "GET", "/investigations", { cookie: onHarbor })).json as { items: Item[] })
      .items;
    expect(left.map((i) => i.flag_id)).not.toContain(flag.id);
    expect(left).toHaveLength(2);
  });
});
