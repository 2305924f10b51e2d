import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../api/lib/crypto";
import { deriveSessionKeys, openSessionData } from "~/server/upstream/session.server";
import { getPage, startStack, webLogin, type Stack } from "../support/stack";

/**
 * "Sign-in abuse": failed attempts limited per account + address and per account (so a stranger
 * cannot lock the owner out), the login-options lookup limited per address, sessions rotated at impersonation
 * start and stop, the session cookie unreadable.
 */
let s: Stack;
const ACCOUNT_IP = 10;
const ACCOUNT = 25;
const OPTIONS = 5;

beforeAll(async () => {
  s = await startStack({
    TRUST_PROXY: "1",
    LOGIN_RATE_LIMIT_PER_IP: "100000",
    LOGIN_RATE_LIMIT_PER_ACCOUNT_IP: String(ACCOUNT_IP),
    LOGIN_RATE_LIMIT_PER_ACCOUNT: String(ACCOUNT),
    LOGIN_RATE_LIMIT_WINDOW_MS: "600000",
    LOGIN_OPTIONS_RATE_LIMIT_PER_IP: String(OPTIONS),
  });
});
afterAll(async () => {
  await s?.stop();
});

const post = (ip: string, fields: Record<string, string>) =>
  fetch(`${s.url}/login?email=${encodeURIComponent(fields.email)}`, {
    method: "POST",
    body: new URLSearchParams({ next: "/", ...fields }),
    redirect: "manual",
    headers: { "X-Forwarded-For": ip },
  });
const password = (ip: string, email: string, pw: string) =>
  post(ip, { intent: "password", email, password: pw });
const TOO_MANY = /Too many attempts\. Please try again in \d+ (minute|second)s?\./;

describe("failed sign-in attempts (ASVS 2.2.1)", () => {
  it("a stranger's wrong passwords from one address do not lock the owner out at another", async () => {
    const email = "dana@harborcoffee.test";
    const attacker = "203.0.113.7";
    for (let i = 0; i < ACCOUNT_IP; i++)
      expect((await password(attacker, email, `wrong-${i}`)).status).toBe(401);
    const refused = await password(attacker, email, "wrong-again");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toMatch(TOO_MANY);
    // The attacker's address waits even with the right password, for password and code alike.
    expect((await password(attacker, email, "demo-pass-2024")).status).toBe(429);
    expect((await post(attacker, { intent: "code", email, code: "123456" })).status).toBe(429);

    // The owner, elsewhere, signs in with the right password.
    const owner = await password("198.51.100.20", email, "demo-pass-2024");
    expect(owner.status).toBe(302);
    expect(owner.headers.getSetCookie().some((c) => c.startsWith("__Host-session="))).toBe(true);

    // Login link and password reset stay available to the account, even from the throttled address.
    const link = await post(attacker, { intent: "link", email });
    expect(link.status).toBe(200);
    expect(await link.text()).not.toMatch(TOO_MANY);
    const reset = await post(attacker, { intent: "reset", email });
    expect(reset.status).toBe(200);
    expect(await reset.text()).not.toMatch(TOO_MANY);
  });

  it("a successful sign-in clears the address's count of failures", async () => {
    const email = "alex@mapledental.test";
    const ip = "198.51.100.33";
    for (let i = 0; i < ACCOUNT_IP - 1; i++) expect((await password(ip, email, "wrong")).status).toBe(401);
    expect((await password(ip, email, "demo-pass-2024")).status).toBe(302);
    for (let i = 0; i < ACCOUNT_IP - 1; i++) expect((await password(ip, email, "wrong")).status).toBe(401);
    expect((await password(ip, email, "demo-pass-2024")).status).toBe(302);
  });

  it("a distributed attack reaches the per-account ceiling: password waits, link and reset do not", async () => {
    // The test's own account (with a password), so the ceiling it reaches touches no other test.
    const email = "ceiling@harborcoffee.test";
    s.api.db
      .prepare(
        "INSERT INTO users (email, first_name, last_name, client_id, password_hash, is_client_admin, is_staff) VALUES (?, 'Cee', 'Ling', 1, ?, 0, 0)",
      )
      .run(email, hashPassword("demo-pass-2024"));
    let failures = 0;
    for (let host = 1; failures < ACCOUNT; host++) {
      for (let i = 0; i < ACCOUNT_IP && failures < ACCOUNT; i++, failures++) {
        expect((await password(`192.0.2.${host}`, email, "wrong")).status).toBe(401);
      }
    }
    const owner = await password("198.51.100.44", email, "demo-pass-2024");
    expect(owner.status).toBe(429);
    expect(Number(owner.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await owner.text()).toMatch(TOO_MANY);
    expect((await post("198.51.100.44", { intent: "link", email })).status).toBe(200);
    expect((await post("198.51.100.44", { intent: "reset", email })).status).toBe(200);
  });
});

describe("login-options lookup (GET /login?email=)", () => {
  it("is limited per address, refused with 429 + Retry-After before any upstream call", async () => {
    const ip = "203.0.113.90";
    const lookup = (n: number, from = ip) =>
      fetch(`${s.url}/login?email=${encodeURIComponent(`probe${n}@example.test`)}`, {
        headers: { "X-Forwarded-For": from },
      });
    for (let i = 0; i < OPTIONS; i++) expect((await lookup(i)).status).toBe(200);
    s.proxy.calls.length = 0;
    const refused = await lookup(99);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toMatch(TOO_MANY);
    expect(s.proxy.calls.filter((c) => c.path.includes("login-options"))).toEqual([]);
    // The client-side navigation's data request is limited too.
    expect(
      (
        await fetch(`${s.url}/login.data?email=probe100%40example.test`, {
          headers: { "X-Forwarded-For": ip },
        })
      ).status,
    ).toBe(429);
    // Another address is not affected; the page without an email is never limited.
    expect((await lookup(100, "203.0.113.91")).status).toBe(200);
    expect((await getPage(s.url, "/login")).status).toBe(200);
  });
});

describe("the page that answers a sign-in POST (JavaScript off)", () => {
  it("counts no login-options lookup: the address's lookups are untouched", async () => {
    const ip = "203.0.113.93";
    const email = "probe-post@example.test";
    // More wrong passwords than the lookup allows; each answer is the page with the form's own error.
    for (let i = 0; i <= OPTIONS; i++) {
      const res = await password(ip, email, `wrong-${i}`);
      expect(res.status).toBe(401);
      expect(await res.text()).not.toMatch(TOO_MANY);
    }
    expect(
      (await fetch(`${s.url}/login?email=probe-get%40example.test`, { headers: { "X-Forwarded-For": ip } }))
        .status,
    ).toBe(200);
  });
});

/** The upstream token inside a web session cookie, opened with the stack's secret (see startStack). */
function upstreamToken(cookiePair: string) {
  const keys = deriveSessionKeys(["stack-test-secret-0123456789abcdef0123456789"]);
  const data = openSessionData(
    decodeURIComponent(cookiePair.slice(cookiePair.indexOf("=") + 1)),
    keys,
    "__Host-session",
  );
  return data?.apiSession as string | undefined;
}

describe("impersonation rotates the web and the upstream session", () => {
  const impersonate = (cookie: string, fields: Record<string, string>) =>
    fetch(`${s.url}/impersonate`, {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });
  const cookieOf = (res: Response) =>
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith("__Host-session="))!
      .split(";")[0];

  it("new cookie and new upstream token at start and stop; the cookies from before stop working", async () => {
    const before = await webLogin(s.url, "morgan@energyops.test");
    const start = await impersonate(before, { intent: "start", clientId: "1", reason: "support ticket 7" });
    expect(start.status).toBe(302);
    expect(start.headers.get("location")).toBe("/locations");
    const during = cookieOf(start);
    const stop = await impersonate(during, { intent: "stop" });
    expect(stop.status).toBe(302);
    const after = cookieOf(stop);

    expect(new Set([before, during, after]).size).toBe(3);
    const tokens = [before, during, after].map(upstreamToken);
    for (const t of tokens) expect(t).toMatch(/^[\w-]{40,}$/);
    expect(new Set(tokens).size).toBe(3);

    // The cookies from before carry revoked upstream tokens: they lead to the login page.
    for (const old of [before, during]) {
      const res = await getPage(s.url, "/locations", old);
      expect(res.status).toBe(302);
      expect(res.location).toMatch(/^\/login\?next=/);
    }
    // The stop resubmitted with the cookie from before (browser resubmit): sent to sign in again, nothing else.
    const again = await impersonate(during, { intent: "stop" });
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe("/login?next=%2Fimpersonate");
    const now = await getPage(s.url, "/impersonate", after);
    expect(now.status).toBe(200);
    expect(now.body).toContain("You stopped impersonating.");
  });
});

describe("session cookie from the built server", () => {
  it("shows neither the email, the user id nor the upstream token when decoded; tampering fails", async () => {
    const cookie = await webLogin(s.url, "alex@mapledental.test");
    const value = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1));
    const decoded = Buffer.from(value.replace(/^v1\./, ""), "base64").toString("latin1");
    const token = upstreamToken(cookie)!;
    expect(token).toMatch(/^[\w-]{40,}$/);
    for (const text of [value, decoded]) {
      expect(text).not.toContain("alex@mapledental.test");
      expect(text).not.toContain('"id"');
      expect(text).not.toContain(token);
    }
    expect((await getPage(s.url, "/locations", cookie)).status).toBe(200);
    // One character of the sealed value changed (the next-to-last: the last may carry only padding bits). It
    // is compared with itself: comparing the last one left the cookie unchanged whenever the next-to-last
    // already was "A" and the last was not (1 run in 64 or so).
    const at = cookie.length - 2;
    const flipped = `${cookie.slice(0, at)}${cookie[at] === "A" ? "B" : "A"}${cookie.slice(at + 1)}`;
    expect(flipped).not.toBe(cookie);
    const tampered = await getPage(s.url, "/locations", flipped);
    expect(tampered.status).toBe(302);
    expect(tampered.location).toMatch(/^\/login/);
  });
});
