import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import * as clock from "../../api/lib/clock";
import { call, startTestApi } from "./api-harness";

/**
 * Mail bombing: anybody may ask for a login code, a login link or a reset for any address. The api sends at
 * most a few of these mails per person (silently beyond: the same 204), a new code does not void the one the
 * owner is typing, and what it stores per person stays bounded however often it is asked.
 */
let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});
afterEach(() => clock.setClockStart(undefined));

const SAM = "sam@harborcoffee.test";
const PRIYA = "priya@harborcoffee.test";
const TOMAS = "tomas@harborcoffee.test";

const mailCount = (to: string) =>
  (api.db.prepare("SELECT count(*) AS n FROM outbox WHERE to_email = ?").get(to) as { n: number }).n;
const rowCount = (table: "login_codes" | "auth_tokens" | "sign_in_mails", to: string) =>
  (
    api.db
      .prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = (SELECT id FROM users WHERE email = ?)`)
      .get(to) as { n: number }
  ).n;
const codesSent = (to: string) =>
  (
    api.db.prepare("SELECT code FROM outbox WHERE to_email = ? AND code IS NOT NULL ORDER BY id").all(to) as {
      code: string;
    }[]
  ).map((r) => r.code);

const requestCode = (email: string) => call(api, "POST", "/auth/login-code/request", { body: { email } });
const requestLink = (email: string) => call(api, "POST", "/auth/login-link/request", { body: { email } });
const requestReset = (email: string) =>
  call(api, "POST", "/auth/password-reset/request", { body: { email } });
const signInWithCode = (email: string, code: string) =>
  call(api, "POST", "/auth/login-code", { body: { email, code } });

describe("sign-in mails per person", () => {
  it("15 requests send 5 mails, and every request answers the same 204", async () => {
    const before = mailCount(SAM);
    for (let i = 0; i < 15; i++) expect((await requestCode(SAM)).status).toBe(204);
    expect(mailCount(SAM) - before).toBe(5);
    // Every kind counts against the same limit: a flood cannot move on to links or resets.
    expect((await requestLink(SAM)).status).toBe(204);
    expect((await requestReset(SAM)).status).toBe(204);
    expect(mailCount(SAM) - before).toBe(5);
    // An unknown address answers the same.
    expect((await requestCode("nobody@example.test")).status).toBe(204);
  });

  it("the window moves on: 15 minutes later mails go out again, up to 20 a day", async () => {
    const start = Date.parse("2026-11-18T08:00:00Z");
    const before = mailCount(TOMAS);
    for (let quarter = 0; quarter < 8; quarter++) {
      clock.setClockStart(new Date(start + quarter * 16 * 60_000).toISOString());
      for (let i = 0; i < 6; i++) await requestLink(TOMAS);
    }
    expect(mailCount(TOMAS) - before).toBe(20);
    clock.setClockStart(new Date(start + 25 * 60 * 60_000).toISOString());
    await requestLink(TOMAS);
    expect(mailCount(TOMAS) - before).toBe(21);
  });
});

describe("a flood does not void the code the owner is typing", () => {
  it("the first code still signs in after 15 more requests", async () => {
    await requestCode(PRIYA);
    const [first] = codesSent(PRIYA).slice(-1);
    for (let i = 0; i < 15; i++) await requestCode(PRIYA);
    const r = await signInWithCode(PRIYA, first);
    expect(r.status).toBe(200);
    // Signed in: every other code of the person is spent.
    const others = codesSent(PRIYA).filter((c) => c !== first);
    for (const code of others) expect((await signInWithCode(PRIYA, code)).status).toBe(401);
  });

  it("wrong guesses count against every live code: several codes give a guesser no more tries", async () => {
    const email = "alex@mapledental.test";
    await requestCode(email);
    await requestCode(email);
    const codes = codesSent(email).slice(-2);
    const wrong = ["000000", "111111", "222222", "333333", "444444", "555555"].filter(
      (c) => !codes.includes(c),
    );
    for (let i = 0; i < 5; i++) expect((await signInWithCode(email, wrong[i])).status).toBe(401);
    for (const code of codes) expect((await signInWithCode(email, code)).status).toBe(401);
  });
});

describe("what is stored per person stays bounded", () => {
  it("1,000 requests of every kind leave a handful of rows", async () => {
    const email = "dana@harborcoffee.test";
    const start = Date.parse("2026-11-18T08:00:00Z");
    for (let i = 0; i < 1000; i++) {
      // Time moves 7 minutes a request, so the limits let some through all along and old rows expire.
      clock.setClockStart(new Date(start + i * 7 * 60_000).toISOString());
      await [requestCode, requestLink, requestReset][i % 3](email);
    }
    expect(rowCount("login_codes", email)).toBeLessThanOrEqual(5);
    expect(rowCount("auth_tokens", email)).toBeLessThanOrEqual(10);
    expect(rowCount("sign_in_mails", email)).toBeLessThanOrEqual(20);
  }, 60_000);

  it("a link stays valid while later ones are asked for, up to the newest five", async () => {
    const email = "morgan@energyops.test";
    await requestLink(email);
    const link = (
      api.db.prepare("SELECT links_json FROM outbox WHERE to_email = ? ORDER BY id DESC").get(email) as {
        links_json: string;
      }
    ).links_json;
    const token = new URL(JSON.parse(link)[0] as string).searchParams.get("token")!;
    for (let i = 0; i < 3; i++) await requestLink(email);
    expect((await call(api, "POST", "/auth/login-link", { body: { token } })).status).toBe(200);
  });
});
