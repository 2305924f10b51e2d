import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_FAULTS, getPage, startStack, webLogin, type Fault, type Stack } from "../support/stack";
import { DANA, PAGES, type PageCase } from "../support/pages";

const TIMEOUT_MS = 1500;
let stack: Stack;
const cookies = new Map<string, string>();
const report: { page: string; fault: string; status: number; ms: number; ok: boolean }[] = [];

/**
 * The page's HTTP status when its primary upstream call fails (ADR 0009): a refusal the upstream answered with
 * a 4xx keeps that status (403 Forbidden, 404 Object Not Found, 422 validation); every other failure (500, no
 * answer, time-out, reset, malformed or empty body, `errMsg`) is an outage: 502. A 401 of a signed-in page
 * redirects to login; on a public page it is the upstream's misconfiguration: 502.
 */
function outageStatus(fault: Fault): number {
  return { "403": 403, "404": 404, validation: 422 }[fault as string] ?? 502;
}

/** Pages whose faulted call is not (or not only) an outage of their primary data. */
const STATUS_EXCEPTIONS: Record<string, Partial<Record<Fault, number>>> = {
  // A 404 of the login options is an answer (no account for that email); any other failure of this lookup
  // without a user, a refusal included, is the upstream misbehaving: 502.
  "login options": { "404": 200, "403": 502, validation: 502 },
};

export function expectedStatus(page: PageCase, fault: Fault): number {
  return STATUS_EXCEPTIONS[page.name]?.[fault] ?? page.faultStatus?.[fault] ?? outageStatus(fault);
}

async function cookieFor(user: string | null) {
  if (!user) return undefined;
  if (!cookies.has(user)) cookies.set(user, await webLogin(stack.url, user));
  return cookies.get(user);
}

beforeAll(async () => {
  stack = await startStack({ UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) });
});

afterAll(async () => {
  const failed = report.filter((r) => !r.ok).length;
  console.log(`faults: ${report.length - failed} passed, ${failed} failed`);
  console.log(
    `faults: slowest answer ${Math.round(Math.max(0, ...report.map((r) => r.ms)))} ms (timeout ${TIMEOUT_MS} ms)`,
  );
  await stack?.stop();
});

describe.each(PAGES)("$name under upstream faults", (page) => {
  it.each(ALL_FAULTS)("%s", async (fault) => {
    const cookie = await cookieFor(page.user);
    // A 401 ends the upstream session: use a fresh sign-in so other cases keep theirs.
    const c = fault === "401" && page.user ? await webLogin(stack.url, page.user) : cookie;
    stack.proxy.clear();
    stack.proxy.fail(page.call, fault);
    const res = await getPage(stack.url, page.path, c);
    stack.proxy.clear();
    let ok = false;
    try {
      expect(res.ms).toBeLessThan(TIMEOUT_MS + 1000);
      const status = expectedStatus(page, fault);
      expect(res.body).not.toMatch(/at .*\.(js|ts):\d+/);
      const redirect = page.redirects?.[fault];
      if (fault === "401" && page.user) {
        expect(res.status).toBe(302);
        expect(res.location).toMatch(/^\/login\?next=/);
      } else if (redirect) {
        expect(res.status).toBe(302);
        expect(res.location).toMatch(redirect);
      } else {
        expect(res.status).toBe(status);
        expect(res.body).toContain((page.faultText?.[fault] ?? page.errorText).replace(/'/g, "&#x27;"));
      }
      // The process stays up and the next request succeeds.
      expect(stack.alive()).toBe(true);
      const next = await getPage(stack.url, page.path, await cookieFor(page.user));
      expect(next.status).toBeLessThan(400);
      expect(next.body).not.toContain(page.errorText.replace(/'/g, "&#x27;"));
      ok = true;
    } finally {
      report.push({ page: page.name, fault, status: res.status, ms: res.ms, ok });
    }
  });
});

describe("a hung upstream under load", () => {
  it("answers 50 concurrent requests by the deadline (or sheds them), keeps memory flat and /healthz up", async () => {
    const cookie = await cookieFor(PAGES[1].user);
    const rss = () => {
      const status = fs.readFileSync(`/proc/${stack.child.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
    };
    const before = rss();
    stack.proxy.fail(/^\/buildings$/, "hang");
    const started = performance.now();
    const pending = Array.from({ length: 50 }, () => getPage(stack.url, "/locations", cookie));
    const health = await fetch(`${stack.url}/healthz`);
    expect(health.status).toBe(200);
    const results = await Promise.all(pending);
    const elapsed = performance.now() - started;
    stack.proxy.clear();
    const after = rss();
    console.log(
      `faults: 50 concurrent requests on a hung upstream answered in ${Math.round(elapsed)} ms; RSS ${before.toFixed(0)} → ${after.toFixed(0)} MiB`,
    );
    // Every request is answered once the upstream timeout fires, not held until the hung upstream lets go.
    // The slack covers rendering 50 error pages on a busy 2-core machine (speed itself is the benchmark's).
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 4000);
    // Up to SHED_MAX_IN_FLIGHT (32) are let in and show the page's outage state; the rest are shed at once
    // with 503 and Retry-After instead of queueing behind the hung upstream.
    const answered = results.filter((r) => r.status === 502);
    const shed = results.filter((r) => r.status === 503);
    expect(answered.length + shed.length).toBe(results.length);
    expect(answered.length).toBeGreaterThanOrEqual(16);
    for (const r of answered) expect(r.body).toContain("Unable to fetch locations.");
    for (const r of shed) expect(r.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(after - before).toBeLessThan(64);
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    expect(stack.logs.join("")).not.toMatch(/unhandled rejection/i);
  });
});

describe("status of partial failures and of .data requests", () => {
  /** A page with a failing secondary call still answers 200 with its primary content. */
  const PARTIAL: { name: string; path: string; call: RegExp; page: string }[] = [
    {
      name: "shell's location menu (grid services)",
      path: "/grid-services",
      call: /^\/buildings$/,
      page: "grid services",
    },
    {
      name: "shell's onboarding steps (settings)",
      path: "/settings",
      call: /^\/onboarding-steps\/\d+$/,
      page: "settings preferences",
    },
    {
      name: "shell's usage availability (control room)",
      path: "/locations/105/control",
      call: /^\/insights\/\d+\/available-usage$/,
      page: "control room",
    },
    {
      name: "vendor alert banner (locations)",
      path: "/locations",
      call: /^\/device-vendor-service-alert$/,
      page: "locations dashboard",
    },
    {
      name: "reconnect list (accounts)",
      path: "/accounts",
      call: /^\/\d+\/credentials_requiring_action$/,
      page: "accounts",
    },
  ];
  it.each(PARTIAL)("$name: 200", async ({ path, call, page }) => {
    const errorText = PAGES.find((p) => p.name === page)!.errorText.replace(/'/g, "&#x27;");
    const cookie = await cookieFor(DANA);
    stack.proxy.clear();
    stack.proxy.fail(call, "500");
    const calls = stack.proxy.calls.length;
    const res = await getPage(stack.url, path, cookie);
    const hit = stack.proxy.calls.slice(calls).some((c) => call.test(c.path.split("?")[0]));
    stack.proxy.clear();
    // The status first: a page that never reached upstream says why (a redirect, a shed 503).
    expect(res.status).toBe(200);
    expect(hit, `the page calls ${call}`).toBe(true);
    expect(res.body).not.toContain(errorText);
  });

  it("a location page whose location list fails: the error page with 502 (was 500)", async () => {
    const cookie = await cookieFor(DANA);
    stack.proxy.clear();
    stack.proxy.fail(/^\/buildings$/, "500");
    const res = await getPage(stack.url, "/locations/105/control", cookie);
    stack.proxy.clear();
    expect(res.status).toBe(502);
    expect(res.body).toContain("We&#x27;re sorry. An error has occurred.");
  });

  it("a .data request (client navigation) carries the same status", async () => {
    const cookie = await cookieFor(DANA);
    stack.proxy.clear();
    stack.proxy.fail(/^\/buildings$/, "500");
    const failed = await getPage(stack.url, "/locations.data?_routes=routes%2F_app.locations._index", cookie);
    stack.proxy.clear();
    expect(failed.status).toBe(502);
    expect(failed.body).toContain("error");
    const fine = await getPage(stack.url, "/locations.data?_routes=routes%2F_app.locations._index", cookie);
    expect(fine.status).toBe(200);
  });
});

describe("password sign-in while the upstream fails", () => {
  const signIn = (password: string) =>
    fetch(`${stack.url}/login?email=${encodeURIComponent(DANA)}`, {
      method: "POST",
      body: new URLSearchParams({ intent: "password", email: DANA, password, next: "/" }),
      redirect: "manual",
    });

  // An outage is not a wrong password: a monitor (and the per-account limit) must see it as the upstream's
  // failure, 502, while a refusal of the credentials stays 401. Both show the spec's password-login message.
  it.each(["500", "hang", "reset"] as Fault[])("%s: 502, not 401", async (fault) => {
    stack.proxy.clear();
    stack.proxy.fail(/^\/auth\/login$/, fault, "POST");
    const res = await signIn("demo-pass-2024");
    stack.proxy.clear();
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("Your email or password is incorrect");
  });

  it("a wrong password: 401", async () => {
    const res = await signIn("wrong-password-1");
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("Your email or password is incorrect");
  });
});
