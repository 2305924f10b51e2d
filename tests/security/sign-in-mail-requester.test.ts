import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack";

/**
 * The sign-in mail limits a stranger cannot turn against the owner, through the web tier: every sign-in call
 * tells the api which address asked (X-Forwarded-For, from the load context's client address, which follows
 * TRUST_PROXY), so the api counts a stranger's requests apart from the owner's. A browser's own
 * X-Forwarded-For is passed on only when the peer is a trusted proxy.
 */

const SIGN_IN_CALLS = [
  "/auth/login",
  "/auth/login-code/request",
  "/auth/login-code",
  "/auth/login-link/request",
  "/auth/login-link",
  "/auth/password-reset/request",
];

const loginPost = (s: Stack, fields: Record<string, string>, forwardedFor?: string) =>
  fetch(`${s.url}/login?email=${encodeURIComponent(fields.email)}`, {
    method: "POST",
    redirect: "manual",
    headers: forwardedFor ? { "X-Forwarded-For": forwardedFor } : {},
    body: new URLSearchParams({ next: "/", ...fields }),
  });

const linkPost = (s: Stack, token: string, forwardedFor?: string) =>
  fetch(`${s.url}/login/link`, {
    method: "POST",
    redirect: "manual",
    headers: forwardedFor ? { "X-Forwarded-For": forwardedFor } : {},
    body: new URLSearchParams({ token }),
  });

const mails = (s: Stack, email: string) =>
  (s.api.db.prepare("SELECT count(*) AS n FROM outbox WHERE to_email = ?").get(email) as { n: number }).n;
const lastMail = (s: Stack, email: string) =>
  s.api.db.prepare("SELECT code, links_json FROM outbox WHERE to_email = ? ORDER BY id DESC").get(email) as {
    code: string | null;
    links_json: string;
  };
const linkToken = (s: Stack, email: string) =>
  new URL(JSON.parse(lastMail(s, email).links_json)[0] as string).searchParams.get("token")!;

/** Every way to sign in and every sign-in mail through the pages, from `from`; the calls they made upstream. */
async function everySignInCall(s: Stack, email: string, from?: string) {
  s.proxy.calls.length = 0;
  expect((await loginPost(s, { intent: "password", email, password: "demo-pass-2024" }, from)).status).toBe(
    302,
  );
  expect((await loginPost(s, { intent: "request-code", email }, from)).status).toBe(200);
  const code = lastMail(s, email).code!;
  expect((await loginPost(s, { intent: "code", email, code }, from)).status).toBe(302);
  expect((await loginPost(s, { intent: "link", email }, from)).status).toBe(200);
  expect((await linkPost(s, linkToken(s, email), from)).status).toBe(302);
  expect((await loginPost(s, { intent: "reset", email }, from)).status).toBe(200);
  return s.proxy.calls.filter((c) => c.method === "POST" && SIGN_IN_CALLS.includes(c.path));
}

describe("behind a trusted proxy (TRUST_PROXY=1)", () => {
  let s: Stack;
  beforeAll(async () => {
    s = await startStack({ TRUST_PROXY: "1" });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it("every sign-in call sends the browser's address upstream", async () => {
    const calls = await everySignInCall(s, "alex@mapledental.test", "198.51.100.7");
    expect(calls.map((c) => c.path).sort()).toEqual([...SIGN_IN_CALLS].sort());
    for (const call of calls) expect(call.forwardedFor, call.path).toBe("198.51.100.7");
  });

  it("a stranger asking for the owner's code spends its own share; the owner still gets one and signs in", async () => {
    const email = "dana@harborcoffee.test";
    const OWNER = "198.51.100.20";
    // The owner signed in from the office before: a known address.
    expect(
      (await loginPost(s, { intent: "password", email, password: "demo-pass-2024" }, OWNER)).status,
    ).toBe(302);
    const before = mails(s, email);
    // Beyond its share the stranger is told to wait (429): about its own asks only, nothing about the owner's.
    for (let i = 0; i < 15; i++)
      expect((await loginPost(s, { intent: "request-code", email }, "203.0.113.9")).status).toBe(
        i < 5 ? 200 : 429,
      );
    expect(mails(s, email) - before).toBe(5);
    expect((await loginPost(s, { intent: "request-code", email }, OWNER)).status).toBe(200);
    expect(mails(s, email) - before).toBe(6);
    const code = lastMail(s, email).code!;
    expect((await loginPost(s, { intent: "code", email, code }, OWNER)).status).toBe(302);
  });
});

describe("a browser talking to the web server directly (TRUST_PROXY=0)", () => {
  let s: Stack;
  beforeAll(async () => {
    s = await startStack({ TRUST_PROXY: "0" });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it("sends the peer's address, never the X-Forwarded-For the browser made up", async () => {
    const calls = await everySignInCall(s, "alex@mapledental.test", "198.51.100.20");
    expect(calls.map((c) => c.path).sort()).toEqual([...SIGN_IN_CALLS].sort());
    for (const call of calls) expect(call.forwardedFor, call.path).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });

  it("a stranger forging the owner's address only spends its own share", async () => {
    const email = "sam@harborcoffee.test";
    const before = mails(s, email);
    // Every request here comes from 127.0.0.1, whatever it claims: one address, 5 mails in 15 minutes.
    for (let i = 0; i < 10; i++) await loginPost(s, { intent: "request-code", email }, `198.51.100.${i + 1}`);
    expect(mails(s, email) - before).toBe(5);
    expect(
      (s.api.db.prepare("SELECT DISTINCT requester FROM sign_in_mails").all() as { requester: string }[]).map(
        (r) => r.requester,
      ),
    ).toEqual(["127.0.0.1"]);
  });
});
