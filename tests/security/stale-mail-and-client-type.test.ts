import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomToken, sha256 } from "../../api/lib/crypto";
import { startApi } from "../../api/server";
import { startStack, webLogin, type Stack } from "../support/stack";
import { TEST_CLOCK_START } from "../support/clock";

/**
 * What a stranger holding an old email, or a person whose client may not sign in here, can still do through
 * the web tier and the api: a password reset spends every other way in that was mailed; a
 * used unsubscribe link never undoes what the person chose since (36.13); the api's outbox of codes and links
 * is not served by a production api (36.11); residential and large commercial clients' people get no session
 * on any path (37.1).
 */

let s: Stack;
beforeAll(async () => {
  s = await startStack();
});
afterAll(async () => {
  await s.stop();
});

const RILEY = "riley@greenwayhomes.test";
const JORDAN = "jordan@metrotowers.test";
const PRIYA = "priya@harborcoffee.test";

const form = (path: string, fields: Record<string, string>, cookie?: string) =>
  fetch(`${s.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: cookie ? { cookie } : {},
    body: new URLSearchParams(fields),
  });
const loginPost = (fields: Record<string, string>) =>
  form(`/login?email=${encodeURIComponent(fields.email)}`, { next: "/", ...fields });
const sessionCookie = (res: Response) => res.headers.getSetCookie().find((c) => /session=[^;]/.test(c));
const lastMail = (email: string, match: RegExp) =>
  s.api.db
    .prepare("SELECT subject, code, links_json FROM outbox WHERE to_email = ? ORDER BY id DESC")
    .all(email)
    .map((r) => r as { subject: string; code: string | null; links_json: string })
    .find((r) => match.test(r.subject))!;
const tokenOf = (email: string, match: RegExp) =>
  new URL(JSON.parse(lastMail(email, match).links_json)[0] as string).searchParams.get("token")!;
const userId = (email: string) =>
  (s.api.db.prepare("SELECT id FROM users WHERE email = ?").get(email) as { id: number }).id;

/** A way in stored as if it had been mailed earlier (before the rule, or before the client moved). */
function storedToken(email: string, kind: "login_link" | "password_reset", next?: string) {
  const token = randomToken();
  s.api.db
    .prepare(
      "INSERT INTO auth_tokens (kind, token_hash, user_id, requester, next, created_at, expires_at) VALUES (?, ?, ?, 'unknown', ?, ?, ?)",
    )
    .run(kind, sha256(token), userId(email), next ?? null, TEST_CLOCK_START, "2099-01-01T00:00:00.000Z");
  return token;
}
function storedCode(email: string) {
  const code = "246810";
  s.api.db
    .prepare(
      "INSERT INTO login_codes (user_id, code_hash, requester, created_at, expires_at) VALUES (?, ?, 'unknown', ?, ?)",
    )
    .run(userId(email), sha256(code), TEST_CLOCK_START, "2099-01-01T00:00:00.000Z");
  return code;
}

describe("a password reset spends every other way in that was mailed (36.12)", () => {
  it("the other reset link, the login link and the code a stranger read earlier no longer sign in", async () => {
    // Priya asks for everything once; somebody else reads her inbox before she resets her password.
    for (const intent of ["reset", "link", "request-code", "reset"])
      expect((await loginPost({ intent, email: PRIYA })).status).toBe(200);
    const resets = s.api.db
      .prepare("SELECT links_json FROM outbox WHERE to_email = ? AND subject LIKE '%password%' ORDER BY id")
      .all(PRIYA)
      .map((r) =>
        new URL(JSON.parse((r as { links_json: string }).links_json)[0]).searchParams.get("token")!,
      );
    expect(resets).toHaveLength(2);
    const link = tokenOf(PRIYA, /login link/);
    const code = lastMail(PRIYA, /login code/).code!;

    const done = await form(`/reset-password?token=${resets[1]}`, {
      token: resets[1],
      password: "new-pass-2024",
      confirmPassword: "new-pass-2024",
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Password successfully changed");

    // The stranger tries each of them.
    const other = await form(`/reset-password?token=${resets[0]}`, {
      token: resets[0],
      password: "stolen-pass-2024",
      confirmPassword: "stolen-pass-2024",
    });
    expect(other.status).toBe(400);
    const byLink = await form("/login/link", { token: link });
    expect(byLink.status).toBe(401);
    expect(sessionCookie(byLink)).toBeUndefined();
    const byCode = await loginPost({ intent: "code", email: PRIYA, code });
    expect(byCode.status).toBe(401);
    expect(sessionCookie(byCode)).toBeUndefined();
    // Only the new password works.
    expect((await loginPost({ intent: "password", email: PRIYA, password: "stolen-pass-2024" })).status).toBe(
      401,
    );
    expect(await webLogin(s.url, PRIYA, "new-pass-2024")).toMatch(/session=/);
  });
});

describe("a used unsubscribe link never undoes a later choice (36.13)", () => {
  it("replayed after the person turned the alerts back on, it changes nothing", async () => {
    const dana = userId("dana@harborcoffee.test");
    const token = randomToken();
    s.api.db
      .prepare(
        "INSERT INTO email_tokens (token_hash, purpose, user_id, kind, created_at, expires_at) VALUES (?, 'unsubscribe', ?, 'bill_flag', ?, ?)",
      )
      .run(sha256(token), dana, TEST_CLOCK_START, "2099-01-01T00:00:00.000Z");
    const pref = () =>
      (
        s.api.db
          .prepare(
            "SELECT enabled FROM communication_preferences WHERE user_id = ? AND communication_preference_type = 'bill_flag' AND delivery_method_preference = 'email'",
          )
          .get(dana) as { enabled: number }
      ).enabled;
    const oneClick = () =>
      fetch(`${s.url}/unsubscribe?token=${token}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://mail.example" },
        body: "List-Unsubscribe=One-Click",
      });
    expect((await oneClick()).status).toBe(200);
    expect(pref()).toBe(0);

    // Dana turns Bill Audit Alerts back on in My Preferences.
    const cookie = await webLogin(s.url, "dana@harborcoffee.test");
    const saved = await form(
      "/settings",
      { intent: "preference", type: "bill_flag", enabled: "true" },
      cookie,
    );
    expect(saved.status).toBeLessThan(400);
    expect(pref()).toBe(1);

    // Somebody replays the old link, by one-click POST and by the page's button: nothing changes.
    expect((await oneClick()).status).toBe(200);
    expect((await form(`/unsubscribe?token=${token}`, { token })).status).toBe(200);
    expect(pref()).toBe(1);
    const page = await (await fetch(`${s.url}/unsubscribe?token=${token}`)).text();
    expect(page).toContain("This link was already used");
    expect(page).not.toContain("You will no longer receive");
  });
});

describe("the outbox of codes and links is not served by a production api (36.11)", () => {
  it("answers 404 without test hooks, on the api's own port", async () => {
    // The stack's api runs as a deployment would: no ENABLE_TEST_HOOKS, no API_DEV_OUTBOX.
    expect((await fetch(`${s.api.url}/dev/outbox`)).status).toBe(404);
    expect((await fetch(`${s.api.url}/dev/outbox/1`)).status).toBe(404);
    const withSmtp = await startApi({
      port: 0,
      dbFile: ":memory:",
      quiet: true,
      testHooks: true,
      devOutbox: true,
      smtp: { url: "smtp://u:p@127.0.0.1:9", from: "alerts@energyops.test" },
      delivery: { intervalMs: 3_600_000 },
    });
    try {
      expect((await fetch(`${withSmtp.url}/dev/outbox`)).status).toBe(404);
    } finally {
      await withSmtp.close();
    }
  });
});

describe("residential and large commercial clients get no session on any path (37.1)", () => {
  it("a correct password: Jordan goes to /mycor without a session, even with next=/accounts", async () => {
    const res = await form(`/login?email=${encodeURIComponent(JORDAN)}&next=%2Faccounts`, {
      intent: "password",
      email: JORDAN,
      password: "demo-pass-2024",
      next: "/accounts",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/mycor");
    expect(sessionCookie(res)).toBeUndefined();
  });

  it("a correct password: Riley is told login is not enabled, without a session", async () => {
    const res = await loginPost({ intent: "password", email: RILEY, password: "demo-pass-2024" });
    expect(res.status).toBe(403);
    expect(sessionCookie(res)).toBeUndefined();
    expect(await res.text()).toContain("Login has not yet been enabled for this account");
  });

  it("a code or a link mailed before, its next edited: no session", async () => {
    const byCode = await loginPost({ intent: "code", email: JORDAN, code: storedCode(JORDAN) });
    expect(byCode.headers.get("location")).toBe("/mycor");
    expect(sessionCookie(byCode)).toBeUndefined();
    const byLink = await form("/login/link", { token: storedToken(JORDAN, "login_link"), next: "/accounts" });
    expect(byLink.status).toBe(302);
    expect(byLink.headers.get("location")).toBe("/mycor");
    expect(sessionCookie(byLink)).toBeUndefined();
    const rileyLink = await form("/login/link", {
      token: storedToken(RILEY, "login_link"),
      next: "/settings",
    });
    expect(rileyLink.status).toBe(403);
    expect(sessionCookie(rileyLink)).toBeUndefined();
    expect(await rileyLink.text()).toContain("Login has not yet been enabled for this account");
  });

  it("a reset link mailed before sets no password", async () => {
    const token = storedToken(RILEY, "password_reset");
    const hash = () =>
      (
        s.api.db.prepare("SELECT password_hash FROM users WHERE email = ?").get(RILEY) as {
          password_hash: string;
        }
      ).password_hash;
    const before = hash();
    const page = await (await fetch(`${s.url}/reset-password?token=${token}`)).text();
    expect(page).toContain("Login has not yet been enabled for this account");
    const res = await form(`/reset-password?token=${token}`, {
      token,
      password: "riley-new-2024",
      confirmPassword: "riley-new-2024",
    });
    expect(res.status).toBe(403);
    expect(hash()).toBe(before);
  });

  it("no sign-in email is sent to them", async () => {
    const count = () =>
      (
        s.api.db.prepare("SELECT count(*) AS n FROM outbox WHERE to_email IN (?, ?)").get(RILEY, JORDAN) as {
          n: number;
        }
      ).n;
    const before = count();
    for (const email of [RILEY, JORDAN])
      for (const intent of ["link", "request-code", "reset"]) await loginPost({ intent, email });
    expect(count()).toBe(before);
  });

  it("a session open when the client moved to the migrated application ends on its next page", async () => {
    const alex = "alex@mapledental.test";
    const cookie = await webLogin(s.url, alex);
    expect((await fetch(`${s.url}/settings`, { headers: { cookie }, redirect: "manual" })).status).toBe(200);
    const clientId = (
      s.api.db.prepare("SELECT client_id FROM users WHERE email = ?").get(alex) as { client_id: number }
    ).client_id;
    s.api.db.prepare("UPDATE clients SET client_type = 'LARGE_COMMERCIAL' WHERE id = ?").run(clientId);
    try {
      for (const path of ["/settings", "/accounts", "/grid-services"]) {
        const res = await fetch(`${s.url}${path}`, { headers: { cookie }, redirect: "manual" });
        expect(res.status, path).toBe(302);
        expect(res.headers.get("location"), path).toMatch(/^\/login/);
      }
    } finally {
      s.api.db.prepare("UPDATE clients SET client_type = 'SMB' WHERE id = ?").run(clientId);
    }
    // Moved back, the old session stays ended.
    const again = await fetch(`${s.url}/settings`, { headers: { cookie }, redirect: "manual" });
    expect(again.status).toBe(302);
  });
});
