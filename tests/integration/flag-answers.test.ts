import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { FLAG_ANSWER_LIMIT, FLAG_ANSWER_LIMIT_REACHED } from "../../shared/bill-flags";
import { call, loginCookie, startTestApi } from "./api-harness";

/** Rule flag-answer-history on the api: a flag takes at most FLAG_ANSWER_LIMIT answers. */
let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

describe("answers per flag", () => {
  it("the signed-in page takes answers up to the limit, then refuses with 409 and records nothing", async () => {
    const flag = api.db
      .prepare(
        `SELECT f.id, f.bill_statement_id AS bill, f.status FROM bill_flags f
           JOIN bill_statements s ON s.id = f.bill_statement_id
         WHERE s.building_id = 109 AND f.status = 'unacknowledged' LIMIT 1`,
      )
      .get() as { id: number; bill: number; status: string };
    const dana = await loginCookie(api, "dana@harborcoffee.test");
    const path = `/bill-statement/${flag.bill}/bill-flag/${flag.id}`;
    const count = () =>
      (
        api.db.prepare("SELECT count(*) AS n FROM bill_flag_answers WHERE bill_flag_id = ?").get(flag.id) as {
          n: number;
        }
      ).n;
    // Dana's own wrong taps, switched back and forth, up to the limit.
    let next = "action_requested";
    for (let i = count(); i < FLAG_ANSWER_LIMIT; i++) {
      expect((await call(api, "PATCH", path, { body: { status: next }, cookie: dana })).status).toBe(200);
      next = next === "dismissed" ? "action_requested" : "dismissed";
    }
    expect(count()).toBe(FLAG_ANSWER_LIMIT);
    const capped = await call(api, "PATCH", path, { body: { status: next }, cookie: dana });
    expect(capped.status).toBe(409);
    expect(capped.json).toMatchObject({ message: FLAG_ANSWER_LIMIT_REACHED, error: "answer_limit" });
    expect(count()).toBe(FLAG_ANSWER_LIMIT);
  });
});
