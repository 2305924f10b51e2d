import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPage, startStack, webLogin, type Stack } from "../support/stack";
import { ACTIONS, GET_ROUTES } from "../support/routes";

let stack: Stack;
let strict: Stack;
let proxied: Stack;
const DANA = "dana@harborcoffee.test";
const counts = { checks: 0 };
const check = () => counts.checks++;

beforeAll(async () => {
  [stack, strict, proxied] = await Promise.all([
    startStack(),
    startStack({
      LOGIN_RATE_LIMIT_PER_ACCOUNT: "3",
      LOGIN_RATE_LIMIT_PER_IP: "6",
      LOGIN_RATE_LIMIT_WINDOW_MS: "60000",
    }),
    startStack({
      LOGIN_RATE_LIMIT_PER_ACCOUNT: "1000",
      LOGIN_RATE_LIMIT_PER_IP: "3",
      LOGIN_RATE_LIMIT_WINDOW_MS: "60000",
      TRUST_PROXY: "1",
    }),
  ]);
});
afterAll(async () => {
  console.log(`security: ${counts.checks} checks passed`);
  await Promise.all([stack?.stop(), strict?.stop(), proxied?.stop()]);
});

const postLogin = (s: Stack, email: string, password: string, headers: Record<string, string> = {}) =>
  fetch(`${s.url}/login?email=${encodeURIComponent(email)}`, {
    method: "POST",
    body: new URLSearchParams({ intent: "password", email, password, next: "/" }),
    redirect: "manual",
    headers,
  });

describe("session cookie", () => {
  it("is __Host- prefixed, Secure, HttpOnly, SameSite=Lax and signed in production", async () => {
    const res = await postLogin(stack, DANA, "demo-pass-2024");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__Host-session="))!;
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).not.toMatch(/Domain=/);
    check();
  });

  it("a tampered cookie is no session", async () => {
    const cookie = await webLogin(stack.url, DANA);
    const tampered = cookie.replace(/.(?=\.[^.]*$)/, (c) => (c === "a" ? "b" : "a"));
    const res = await getPage(stack.url, "/locations", tampered);
    expect(res.status).toBe(302);
    expect(res.location).toMatch(/^\/login/);
    check();
  });

  it("every login makes a new session and logout kills the old cookie upstream too", async () => {
    const a = await webLogin(stack.url, DANA);
    const b = await webLogin(stack.url, DANA);
    expect(a).not.toBe(b);
    const out = await fetch(`${stack.url}/logout`, {
      method: "POST",
      headers: { cookie: a },
      redirect: "manual",
    });
    expect(out.status).toBe(302);
    expect(out.headers.getSetCookie().join(";")).toMatch(
      /__Host-session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/,
    );
    // The old cookie, replayed, no longer works: its upstream session was revoked.
    const replay = await getPage(stack.url, "/locations", a);
    expect(replay.status).toBe(302);
    expect(replay.location).toMatch(/^\/login\?next=/);
    expect((await getPage(stack.url, "/locations", b)).status).toBe(200);
    check();
  });

  it("logout is POST only", async () => {
    const cookie = await webLogin(stack.url, DANA);
    const res = await getPage(stack.url, "/logout", cookie);
    expect(res.status).toBe(302);
    expect((await getPage(stack.url, "/locations", cookie)).status).toBe(200);
    check();
  });
});

describe("rate limits", () => {
  it("per account, with Retry-After and a message saying when to try again", async () => {
    const email = "alex@mapledental.test";
    for (let i = 0; i < 3; i++) expect((await postLogin(strict, email, "wrong-password")).status).toBe(401);
    const limited = await postLogin(strict, email, "wrong-password");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.text()).toMatch(/Too many attempts\. Please try again in \d+ (minute|second)s?\./);
    // Even the right password waits: the account is locked for the window.
    expect((await postLogin(strict, email, "demo-pass-2024")).status).toBe(429);
    check();
  });

  it("per IP, generous, and a spoofed X-Forwarded-For does not change the key without a trusted proxy", async () => {
    let last = 0;
    for (let i = 0; i < 7; i++) {
      const res = await postLogin(strict, `nobody${i}@x.test`, "x", { "X-Forwarded-For": `203.0.113.${i}` });
      last = res.status;
    }
    expect(last).toBe(429);
    check();
  });

  it("with TRUST_PROXY the forwarded address is the key", async () => {
    for (let i = 0; i < 3; i++)
      await postLogin(proxied, `p${i}@x.test`, "x", { "X-Forwarded-For": "198.51.100.1" });
    expect((await postLogin(proxied, "p9@x.test", "x", { "X-Forwarded-For": "198.51.100.1" })).status).toBe(
      429,
    );
    expect((await postLogin(proxied, "p9@x.test", "x", { "X-Forwarded-For": "198.51.100.2" })).status).toBe(
      401,
    );
    check();
  });
});

describe("CSRF", () => {
  it.each(ACTIONS)("refuses a cross-site POST to %s", async (path) => {
    const cookie = await webLogin(stack.url, DANA);
    const variants: Record<string, string>[] = [
      { "Sec-Fetch-Site": "cross-site" },
      { Origin: "https://evil.example" },
      { Origin: "null" },
    ];
    for (const headers of variants) {
      const res = await fetch(`${stack.url}${path}`, {
        method: "POST",
        headers: { cookie, ...headers },
        body: new URLSearchParams({ intent: "x" }),
        redirect: "manual",
      });
      expect(res.status).toBe(403);
    }
    check();
  });
});

describe("open redirects", () => {
  const payloads = [
    "//evil.example",
    "/\\evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "%2F%2Fevil.example",
    "/%5Cevil.example",
    "\\\\evil.example",
    "http:evil.example",
  ];
  it.each(payloads)("next=%s after login goes to /", async (payload) => {
    const email = DANA;
    const res = await fetch(`${stack.url}/login?email=${encodeURIComponent(email)}`, {
      method: "POST",
      body: new URLSearchParams({ intent: "password", email, password: "demo-pass-2024", next: payload }),
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    check();
  });
});

describe("headers", () => {
  it("build assets carry nosniff and a year's immutable cache, not the page's CSP", async () => {
    const page = await getPage(stack.url, "/login");
    const src = /<(?:script|link)[^>]+(?:src|href)="(\/build\/[^"]+\.js)"/.exec(page.body)![1];
    const res = await fetch(`${stack.url}${src}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(res.headers.get("content-security-policy")).toBeNull();
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
  });

  it("CSP is enforced with a fresh nonce per response", async () => {
    const a = await getPage(stack.url, "/login");
    const b = await getPage(stack.url, "/login");
    const csp = a.headers.get("content-security-policy")!;
    for (const d of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "default-src 'self'"])
      expect(csp).toContain(d);
    const nonceA = /'nonce-([^']+)'/.exec(csp)![1];
    const nonceB = /'nonce-([^']+)'/.exec(b.headers.get("content-security-policy")!)![1];
    expect(nonceA).not.toBe(nonceB);
    // Every inline script carries the response's nonce.
    const scripts = [...a.body.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonceA}"`);
    expect(a.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
    expect(a.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    check();
  });

  it("token pages are not cached and send no referrer", async () => {
    const res = await getPage(stack.url, "/login/link?token=abc");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    check();
  });
});

describe("/api passthrough", () => {
  it("serves only allowed downloads, GET only, with the user's session", async () => {
    const cookie = await webLogin(stack.url, DANA);
    const post = await fetch(`${stack.url}/api/client/1/bill-statements/export-csv`, {
      method: "POST",
      headers: { cookie },
      redirect: "manual",
    });
    expect(post.status).toBe(405);
    for (const p of [
      "/api/buildings",
      "/api/user",
      "/api/dev/outbox",
      "/api/bill-statement/1/../../user",
      "/api/client/1/bill-statements/export-csv/extra",
    ]) {
      expect((await getPage(stack.url, p, cookie)).status).toBe(404);
    }
    const anonymous = await getPage(stack.url, "/api/client/1/bill-statements/export-csv");
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toMatch(/^\/login\?next=/);
    check();
  });
});

describe("GET never mutates upstream", () => {
  it("a crawl of every GET route makes no mutating upstream call", async () => {
    const cookie = await webLogin(stack.url, DANA);
    stack.proxy.calls.length = 0;
    for (const route of GET_ROUTES) {
      await getPage(stack.url, route.path, route.public ? undefined : cookie);
    }
    const mutating = stack.proxy.calls.filter((c) => c.method !== "GET" && c.method !== "HEAD");
    expect(mutating).toEqual([]);
    expect(stack.proxy.calls.length).toBeGreaterThan(0);
    check();
  });
});

describe("one client cannot reach another client's objects by id", () => {
  it("buildings, thermostats, bills and accounts of Harbor Coffee are out of Maple Dental's reach", async () => {
    const alex = await webLogin(stack.url, "alex@mapledental.test");
    const db = stack.api.db;
    const bill = db
      .prepare("SELECT id FROM bill_statements WHERE building_id = 101 ORDER BY id LIMIT 1")
      .get() as { id: number };
    const flag = db
      .prepare(
        "SELECT f.id, f.bill_statement_id, f.status FROM bill_flags f JOIN bill_statements b ON b.id = f.bill_statement_id WHERE b.building_id BETWEEN 101 AND 114 AND f.status = 'unacknowledged' LIMIT 1",
      )
      .get() as { id: number; bill_statement_id: number; status: string };
    for (const path of ["/locations/101/control", "/locations/101/spending", "/locations/104/usage/demand"]) {
      const res = await getPage(stack.url, path, alex);
      expect(res.status, path).toBe(302);
      expect(res.location, path).toBe("/locations");
    }
    expect((await getPage(stack.url, `/api/bill-statement/${bill.id}/download`, alex)).status).toBe(404);
    expect((await getPage(stack.url, "/api/client/1/bill-statements/export-csv", alex)).status).toBe(404);
    expect(
      (await getPage(stack.url, "/override-report/1003?period=month&start=2026-10-01", alex)).body,
    ).not.toContain("Seating Area");
    const foreignCsv = await getPage(
      stack.url,
      "/override-report/1003/csv?period=month&start=2026-10-01",
      alex,
    );
    expect(foreignCsv.status).toBe(404);
    expect(foreignCsv.body).not.toContain("Recommended Schedule");

    // Mutations by id: a Harbor thermostat and a Harbor bill flag, posted from Maple Dental's own pages.
    const actionsBefore = (
      db.prepare("SELECT count(*) AS n FROM thermostat_actions WHERE thermostat_id = 1010").get() as {
        n: number;
      }
    ).n;
    const post = (path: string, fields: Record<string, string>) =>
      fetch(`${stack.url}${path}`, {
        method: "POST",
        headers: { cookie: alex },
        body: new URLSearchParams(fields),
        redirect: "manual",
      });
    const save = await post("/locations/201/control", {
      intent: "save",
      thermostatId: "1010",
      mode: "cool",
      coolSetpointF: "72",
      heatSetpointF: "68",
    });
    expect(save.status).toBeLessThan(500);
    expect(
      (
        db.prepare("SELECT count(*) AS n FROM thermostat_actions WHERE thermostat_id = 1010").get() as {
          n: number;
        }
      ).n,
    ).toBe(actionsBefore);
    const answer = await post("/locations/201/spending", {
      intent: "investigate",
      statementId: String(flag.bill_statement_id),
      flagId: String(flag.id),
    });
    expect(answer.status).toBeLessThan(500);
    expect(await answer.text()).toContain("Unable to process update");
    expect(
      (db.prepare("SELECT status FROM bill_flags WHERE id = ?").get(flag.id) as { status: string }).status,
    ).toBe("unacknowledged");
    check();
  });

  it("staff-only pages and the Team tab refuse everyone else", async () => {
    const dana = await webLogin(stack.url, DANA);
    expect((await getPage(stack.url, "/impersonate", dana)).status).toBe(403);
    // The investigation queue does not exist for anyone but staff (rule investigation-queue).
    expect((await getPage(stack.url, "/investigations", dana)).status).toBe(404);
    const imp = await fetch(`${stack.url}/impersonate`, {
      method: "POST",
      headers: { cookie: dana },
      body: new URLSearchParams({ intent: "start", clientId: "2", reason: "curious" }),
      redirect: "manual",
    });
    expect(imp.status).toBe(403);
    expect(
      stack.api.db.prepare("SELECT count(*) AS n FROM impersonation_audit WHERE staff_user_id = 1").get(),
    ).toEqual({ n: 0 });
    const alex = await webLogin(stack.url, "alex@mapledental.test");
    expect((await getPage(stack.url, "/settings?tab=team", alex)).status).toBe(403);
    check();
  });
});

describe("no stack traces or internals for ordinary users", () => {
  it("upstream failures show the spec's message, not details", async () => {
    const cookie = await webLogin(stack.url, DANA);
    stack.proxy.fail(/^\/buildings$/, "500");
    const res = await getPage(stack.url, "/locations", cookie);
    stack.proxy.clear();
    expect(res.body).not.toMatch(/Internal Server Error \(injected\)|node_modules|\/work\/|at \w+ \(/);
    check();
  });
});
