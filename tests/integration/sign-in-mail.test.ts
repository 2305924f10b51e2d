import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import type { RunningApi } from "../../api/server";
import * as clock from "../../api/lib/clock";
import { hashPassword } from "../../api/lib/crypto";
import { call, startTestApi } from "./api-harness";

/**
 * Mail bombing: anybody may ask for a login code, a login link or a reset for any address. The api sends at
 * most a few of these mails per person and requesting address, and a few dozen a day per person over every
 * address (silently beyond: the same 204). What one address asked for one address (whether or not it has an
 * account) is answered beyond its share with a 429 saying how long to wait, the same for every address, so
 * the page can explain the wait without telling who has an account. An address the person signed in from is not held back by what
 * strangers asked for. A new code does not void the one the owner is typing, and what it stores per person
 * stays bounded however often it is asked.
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

/** Sent as the web tier sends it: the browser's address in X-Forwarded-For (none: the shared unknown requester). */
const by = (address?: string) => (address ? { headers: { "x-forwarded-for": address } } : {});
const requestCode = (email: string, from?: string) =>
  call(api, "POST", "/auth/login-code/request", { body: { email }, ...by(from) });
const requestLink = (email: string, from?: string) =>
  call(api, "POST", "/auth/login-link/request", { body: { email }, ...by(from) });
const requestReset = (email: string, from?: string) =>
  call(api, "POST", "/auth/password-reset/request", { body: { email }, ...by(from) });
const signInWithCode = (email: string, code: string, from?: string) =>
  call(api, "POST", "/auth/login-code", { body: { email, code }, ...by(from) });
const signInWithPassword = (email: string, from: string) =>
  call(api, "POST", "/auth/login", { body: { email, password: "owner-pass-2024" }, ...by(from) });
const lastCode = (to: string) => codesSent(to).at(-1)!;

let users = 0;
/** A person of their own for one test (no other test's mails count against theirs), with a password. */
function newUser() {
  const email = `mailcap-${++users}@harborcoffee.test`;
  api.db
    .prepare(
      "INSERT INTO users (email, first_name, last_name, client_id, password_hash, is_client_admin, is_staff) VALUES (?, 'Max', 'Cap', 1, ?, 0, 0)",
    )
    .run(email, hashPassword("owner-pass-2024"));
  return email;
}
const knownAddresses = (email: string) =>
  (
    api.db
      .prepare(
        "SELECT address FROM known_sign_in_addresses WHERE user_id = (SELECT id FROM users WHERE email = ?) ORDER BY signed_in_at DESC, address",
      )
      .all(email) as { address: string }[]
  ).map((r) => r.address);
const at = (iso: string, minutes = 0) =>
  clock.setClockStart(new Date(Date.parse(iso) + minutes * 60_000).toISOString());

const OWNER = "198.51.100.20";
const STRANGER = "203.0.113.9";

describe("sign-in mails per person", () => {
  it("15 requests send 5 mails; beyond 5, the asker is told how long to wait, as for an unknown address", async () => {
    // The clock stands still while the requests run (this process is the api's), so the wait told is exactly the
    // window's, however long the requests take on a busy machine.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    at("2026-11-18T07:00:00Z");
    const before = mailCount(SAM);
    const answers = [];
    for (let i = 0; i < 15; i++) answers.push(await requestCode(SAM));
    expect(answers.map((a) => a.status)).toEqual([...Array(5).fill(204), ...Array(10).fill(429)]);
    expect(mailCount(SAM) - before).toBe(5);
    // Every kind counts against the same limit: a flood cannot move on to links or resets.
    expect((await requestLink(SAM)).status).toBe(429);
    expect((await requestReset(SAM)).status).toBe(429);
    expect(mailCount(SAM) - before).toBe(5);
    const refusal = answers[5];
    expect(refusal.res.headers.get("retry-after")).toBe("900");
    expect(refusal.json).toEqual({
      message: "Too many sign-in emails asked for this address from here",
      retry_after_seconds: 900,
    });
    // An unknown address answers exactly the same: the wait says nothing about who has an account.
    const nobody = [];
    for (let i = 0; i < 6; i++) nobody.push(await requestCode("nobody@example.test"));
    expect(nobody.map((a) => a.status)).toEqual([...Array(5).fill(204), 429]);
    expect(nobody[5].json).toEqual(refusal.json);
    expect(nobody[5].res.headers.get("retry-after")).toBe("900");
    // 15 minutes after the first ask, one more is taken.
    at("2026-11-18T07:15:01Z");
    expect((await requestCode(SAM)).status).toBe(204);
    expect(mailCount(SAM) - before).toBe(6);
  });

  it("the window moves on: 15 minutes later mails go out again, up to 10 a day from one address", async () => {
    const start = Date.parse("2026-11-18T08:00:00Z");
    const before = mailCount(TOMAS);
    for (let quarter = 0; quarter < 4; quarter++) {
      clock.setClockStart(new Date(start + quarter * 16 * 60_000).toISOString());
      for (let i = 0; i < 6; i++) await requestLink(TOMAS);
    }
    expect(mailCount(TOMAS) - before).toBe(10);
    clock.setClockStart(new Date(start + 25 * 60 * 60_000).toISOString());
    await requestLink(TOMAS);
    expect(mailCount(TOMAS) - before).toBe(11);
  });
});

describe("a stranger cannot spend the owner's sign-in mails", () => {
  it("a stranger's address spends only its own share: the owner's known address still gets a code", async () => {
    const email = newUser();
    at("2026-11-19T08:00:00Z");
    // The owner signed in from the office last week, with a code: that address is now a known one.
    await requestCode(email, OWNER);
    expect((await signInWithCode(email, lastCode(email), OWNER)).status).toBe(200);
    expect(knownAddresses(email)).toEqual([OWNER]);

    at("2026-11-26T09:00:00Z");
    const before = mailCount(email);
    // A stranger asks all day long, every kind, a quarter hour apart: its own share is 5 in 15 min, 10 a day.
    for (let quarter = 0; quarter < 8; quarter++) {
      at("2026-11-26T09:00:00Z", quarter * 16);
      for (let i = 0; i < 5; i++)
        expect((await [requestCode, requestLink, requestReset][i % 3](email, STRANGER)).status).toBe(
          quarter < 2 ? 204 : 429,
        );
    }
    expect(mailCount(email) - before).toBe(10);
    expect((await requestCode(email, STRANGER)).status).toBe(429);
    expect(mailCount(email) - before).toBe(10);

    // The owner, at the office, asks for a code and signs in with it.
    expect((await requestCode(email, OWNER)).status).toBe(204);
    expect(mailCount(email) - before).toBe(11);
    expect((await signInWithCode(email, lastCode(email), OWNER)).status).toBe(200);
  });

  it("many addresses together stop at 30 a day; the owner's known address is not held back", async () => {
    const email = newUser();
    at("2026-11-20T08:00:00Z");
    expect((await signInWithPassword(email, OWNER)).status).toBe(200);

    at("2026-11-26T12:00:00Z");
    // The owner asks for a code, and is typing it while the flood comes in.
    await requestCode(email, OWNER);
    const typing = lastCode(email);
    const before = mailCount(email);
    // 40 addresses, 2 requests each, within a few minutes.
    for (let host = 1; host <= 40; host++)
      for (let i = 0; i < 2; i++) expect((await requestCode(email, `192.0.2.${host}`)).status).toBe(204);
    expect(mailCount(email) - before).toBe(29); // 30 a day over every address, the owner's first one included
    // Another address, or a caller that does not say who asks, gets nothing more today.
    await requestLink(email, "198.51.100.99");
    await requestReset(email);
    expect(mailCount(email) - before).toBe(29);
    // The flood did not push out the code the owner is typing.
    expect((await signInWithCode(email, typing, OWNER)).status).toBe(200);
    // And the owner's address still gets a new code, which signs in.
    await requestCode(email, OWNER);
    expect(mailCount(email) - before).toBe(30);
    expect((await signInWithCode(email, lastCode(email), OWNER)).status).toBe(200);

    // The next day the total starts again.
    at("2026-11-27T12:01:00Z");
    await requestCode(email, "198.51.100.99");
    expect(mailCount(email) - before).toBe(31);
  });

  it("every way to sign in makes the address known; a few of the newest are kept per person", async () => {
    const email = newUser();
    at("2026-11-21T08:00:00Z");
    expect((await signInWithPassword(email, "192.0.2.201")).status).toBe(200);
    at("2026-11-21T08:01:00Z");
    await requestCode(email, "192.0.2.202");
    expect((await signInWithCode(email, lastCode(email), "192.0.2.202")).status).toBe(200);
    at("2026-11-21T08:02:00Z");
    await requestLink(email, "192.0.2.203");
    const link = (
      api.db.prepare("SELECT links_json FROM outbox WHERE to_email = ? ORDER BY id DESC").get(email) as {
        links_json: string;
      }
    ).links_json;
    const token = new URL(JSON.parse(link)[0] as string).searchParams.get("token")!;
    const linked = await call(api, "POST", "/auth/login-link", { body: { token }, ...by("192.0.2.203") });
    expect(linked.status).toBe(200);
    // A failed sign-in, or one that does not say where from, is not remembered.
    await call(api, "POST", "/auth/login", { body: { email, password: "wrong" }, ...by("192.0.2.204") });
    await call(api, "POST", "/auth/login", { body: { email, password: "owner-pass-2024" } });
    expect(knownAddresses(email)).toEqual(["192.0.2.203", "192.0.2.202", "192.0.2.201"]);

    for (let host = 1; host <= 12; host++) {
      at("2026-11-21T09:00:00Z", host);
      expect((await signInWithPassword(email, `198.51.100.${host}`)).status).toBe(200);
    }
    expect(knownAddresses(email)).toEqual(Array.from({ length: 10 }, (_, i) => `198.51.100.${12 - i}`));
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
    expect(rowCount("sign_in_mails", email)).toBeLessThanOrEqual(10);
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
