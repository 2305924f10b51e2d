import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack";

/**
 * Limits a stranger must not be able to turn against everybody else: the free bill health check's budget is
 * per client address and counts only accepted starts (one address sending junk cannot switch it off for every
 * visitor), and the support address shown on every page never comes from the request's Host header.
 */
let s: Stack;
beforeAll(async () => {
  s = await startStack({ TRUST_PROXY: "1", PUBLIC_URL: "https://www.energyops.example" });
});
afterAll(async () => {
  await s?.stop();
});

let seq = 0;
const start = (ip: string, fields: Partial<Record<string, string>> = {}) =>
  fetch(`${s.url}/free-bill-health-check`, {
    method: "POST",
    redirect: "manual",
    headers: { "X-Forwarded-For": ip },
    body: new URLSearchParams({
      intent: "start",
      firstName: "Pat",
      emailAddress: `pat-${++seq}@example.com`,
      companyName: "Pat's Bakery",
      arcadiaProvider: "prov_scl",
      ...fields,
    } as Record<string, string>),
  });
const TOO_MANY = /Too many attempts\. Please try again in \d+ (minute|second)s?\./;

describe("free bill health check budget", () => {
  it("300 junk starts from one address stop neither another address nor that one", async () => {
    const junk = "203.0.113.66";
    for (let i = 0; i < 300; i += 10) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, j) => start(junk, { arcadiaProvider: `bogus-${i + j}` })),
      );
      for (const r of answers) {
        expect(r.status).toBe(400);
        await r.body?.cancel();
      }
    }
    expect((await start("198.51.100.7")).status).toBe(302);
    // Junk that stores nothing costs nothing: the same address still gets its accepted starts.
    expect((await start(junk)).status).toBe(302);
  }, 120_000);

  it("accepted starts count per address, and the 429 says when to retry", async () => {
    const ip = "198.51.100.80";
    for (let i = 0; i < 20; i++) expect((await start(ip)).status).toBe(302);
    const refused = await start(ip);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await refused.text()).toMatch(TOO_MANY);
    // Another address is not affected.
    expect((await start("198.51.100.81")).status).toBe(302);
  });

  it("one email address gets 5 accepted starts an hour, from any address", async () => {
    const emailAddress = "repeat@example.com";
    for (let i = 0; i < 5; i++) expect((await start(`192.0.2.${10 + i}`, { emailAddress })).status).toBe(302);
    const refused = await start("192.0.2.99", { emailAddress });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("sign-in mails through the login page", () => {
  it("15 code requests from one address send 5 mails; beyond, the page says how long to wait, for any address", async () => {
    const email = "priya@harborcoffee.test";
    const mails = () =>
      (s.api.db.prepare("SELECT count(*) AS n FROM outbox WHERE to_email = ?").get(email) as { n: number }).n;
    const before = mails();
    const ask = (address: string, from: string) =>
      fetch(`${s.url}/login?email=${encodeURIComponent(address)}`, {
        method: "POST",
        redirect: "manual",
        headers: { "X-Forwarded-For": from },
        body: new URLSearchParams({ intent: "request-code", email: address, next: "/" }),
      });
    const answers = new Set<string>();
    for (let i = 0; i < 15; i++) {
      const res = await ask(email, "192.0.2.100");
      const html = await res.text();
      if (i < 5) {
        expect(res.status).toBe(200);
        expect(html).toContain("We&#x27;ve sent a 6-digit code to your email.");
      } else {
        expect(res.status).toBe(429);
        expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
        expect(html).toContain("You have asked for several sign-in emails for this address in a short time.");
      }
      answers.add(/<main[\s\S]*<\/main>/.exec(html)![0]);
    }
    expect(mails() - before).toBe(5);
    // The first five answer alike, the ten waits alike: the sixth says nothing the fifteenth does not.
    expect(answers.size).toBe(2);
    // An address without an account is answered the same way: the wait tells nobody who has one.
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await ask("nobody-here@harborcoffee.test", "192.0.2.101")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

/** A GET with a Host header of the sender's choosing (fetch does not let a caller set Host). */
const getWithHost = (path: string, host: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(path, s.url);
    const req = http.request(
      { hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers: { host } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });

describe("support address", () => {
  it("comes from configuration, whatever Host the request names", async () => {
    const page = await getWithHost("/login", "evil.example");
    expect(page.status).toBe(200);
    expect(page.body).toContain("support@energyops.example");
    expect(page.body).not.toContain("evil.example");
  });
});
