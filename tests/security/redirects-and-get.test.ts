import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPage, startStack, webLogin, type Stack } from "../support/stack";
import { GET_ROUTES } from "../support/routes";

/**
 * "Redirects, caching and GET safety": against the built production server:
 * - open redirects through the login `next` and the staff demo-mode and impersonation `redirectTo`, with the payloads that the
 *   old check let through after normalisation (`/.//x`, `/%2e//x`, `/a/..//x`, `/..//x`) and their cousins;
 * - the dismissal email link: its GET changes nothing, only its (same-site) POST dismisses.
 */
let stack: Stack;
const DANA = "dana@harborcoffee.test";
const MORGAN = "morgan@energyops.test";

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const PAYLOADS = [
  "/.//evil.example",
  "/%2e//evil.example",
  "/%2E%2E//evil.example",
  "/a/..//evil.example",
  "/..//evil.example",
  "/./..//evil.example",
  "/.%2f/evil.example",
  "/%2f/evil.example",
  "/.%5c/evil.example",
  "/.\\/evil.example",
  "/\\/evil.example",
  "/\t/evil.example",
  "/.\t/evil.example",
  "/\n/evil.example",
  "//evil.example",
  "https://evil.example/",
];

describe("open redirects", () => {
  it.each(PAYLOADS)("a signed-in GET /login?next=%j lands on /", async (payload) => {
    const cookie = await webLogin(stack.url, DANA);
    const res = await getPage(stack.url, `/login?next=${encodeURIComponent(payload)}`, cookie);
    expect(res.status).toBe(302);
    expect(res.location).toBe("/");
  });

  it.each(PAYLOADS)("a password login with next=%j lands on /", async (payload) => {
    const res = await fetch(`${stack.url}/login?email=${encodeURIComponent(DANA)}`, {
      method: "POST",
      body: new URLSearchParams({
        intent: "password",
        email: DANA,
        password: "demo-pass-2024",
        next: payload,
      }),
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
  });

  it("a same-origin next is still followed, normalised", async () => {
    const cookie = await webLogin(stack.url, DANA);
    const res = await getPage(
      stack.url,
      `/login?next=${encodeURIComponent("/locations/./101/../101/control?tab=issues")}`,
      cookie,
    );
    expect(res.status).toBe(302);
    expect(res.location).toBe("/locations/101/control?tab=issues");
  });

  it("the staff demo-mode redirectTo never leaves the site", async () => {
    let cookie = await webLogin(stack.url, MORGAN);
    // Like a browser, keep the newest session cookie (impersonation start rotates the session).
    const post = async (fields: Record<string, string>) => {
      const res = await fetch(`${stack.url}/impersonate`, {
        method: "POST",
        headers: { cookie },
        body: new URLSearchParams(fields),
        redirect: "manual",
      });
      const next = res.headers.getSetCookie().find((c) => c.includes("session="));
      if (next) cookie = next.split(";")[0];
      return res;
    };
    const start = await post({ intent: "start", clientId: "1", reason: "security test of demo mode" });
    expect(start.status).toBe(302);
    let on = true;
    for (const payload of PAYLOADS) {
      const res = await post({ intent: on ? "demo-on" : "demo-off", redirectTo: payload });
      expect(res.status, payload).toBe(302);
      expect(res.headers.get("location"), payload).toBe("/");
      on = !on;
    }
    // A same-origin redirectTo is kept (normalised).
    const ok = await post({ intent: on ? "demo-on" : "demo-off", redirectTo: "/locations/./101" });
    expect(ok.headers.get("location")).toBe("/locations/101");
    await post({ intent: "demo-off", redirectTo: "/" });
    await post({ intent: "stop" });
  });

  it("the impersonation start's redirectTo (the investigation queue's) never leaves the site", async () => {
    let cookie = await webLogin(stack.url, MORGAN);
    const start = async (redirectTo: string) => {
      const res = await fetch(`${stack.url}/impersonate`, {
        method: "POST",
        headers: { cookie },
        body: new URLSearchParams({ intent: "start", clientId: "1", reason: "security test", redirectTo }),
        redirect: "manual",
      });
      const next = res.headers.getSetCookie().find((c) => c.includes("session="));
      if (next) cookie = next.split(";")[0];
      return res;
    };
    for (const payload of PAYLOADS) {
      const res = await start(payload);
      expect(res.status, payload).toBe(302);
      expect(res.headers.get("location"), payload).toBe("/locations");
    }
    // A bill's flag on its location's Bill History is kept, with its fragment.
    const ok = await start("/locations/105/spending?accountId=1006&billId=9#flag-7");
    expect(ok.headers.get("location")).toBe("/locations/105/spending?accountId=1006&billId=9#flag-7");
  });
});

describe("the dismissal email link", () => {
  const issue = (thermostatId: number, slug: string) =>
    stack.api.db
      .prepare(
        "SELECT current_status, is_dismissed FROM thermostat_issues WHERE thermostat_id = ? AND issue_slug = ?",
      )
      .get(thermostatId, slug) as { current_status: string; is_dismissed: number };

  it("no GET mutates upstream: every GET route, the dismissal link with real parameters included", async () => {
    const cookie = await webLogin(stack.url, DANA);
    const before = issue(1013, "permanent_hold");
    expect(before).toEqual({ current_status: "active", is_dismissed: 0 });
    stack.proxy.calls.length = 0;
    const links = [
      "/dismiss-thermostat-issue?thermostatId=1013&issueSlug=permanent_hold",
      "/dismiss-thermostat-issue?thermostatId=1025&issueSlug=unchanging_schedule",
      "/dismiss-thermostat-issue?thermostatId=1013&issueSlug=permanent_hold&_data=routes%2Fdismiss-thermostat-issue",
      "/dismiss-thermostat-issue.data?thermostatId=1013&issueSlug=permanent_hold",
    ];
    for (const path of links) {
      const res = await getPage(stack.url, path, cookie);
      // A ?_data= request is refused (400) before Remix, which would serve it and report it as an error.
      if (path.includes("_data=")) expect(res.status, path).toBe(400);
      else expect(res.status, path).toBeLessThan(400);
    }
    const page = await getPage(stack.url, links[0], cookie);
    expect(page.body).toContain("Front of House");
    expect(page.body).toContain("Inactive schedule");
    expect(page.body).toMatch(
      /<form[^>]*method="post"[^>]*action="\/dismiss-thermostat-issue\?thermostatId=1013&amp;issueSlug=permanent_hold"/,
    );
    expect(page.body).not.toContain("Thermostat feedback received");
    for (const route of GET_ROUTES) await getPage(stack.url, route.path, route.public ? undefined : cookie);
    const mutating = stack.proxy.calls.filter((c) => c.method !== "GET" && c.method !== "HEAD");
    expect(mutating).toEqual([]);
    // The page did look the thermostat up (one GET), and nothing else changed it.
    expect(stack.proxy.calls.some((c) => c.method === "GET" && c.path === "/thermostats/1013")).toBe(true);
    expect(issue(1013, "permanent_hold")).toEqual(before);
  });

  it("a cross-site POST is refused and dismisses nothing; a same-site POST dismisses; again, it says so and changes nothing", async () => {
    const cookie = await webLogin(stack.url, DANA);
    const link = "/dismiss-thermostat-issue?thermostatId=1013&issueSlug=permanent_hold";
    const body = () => new URLSearchParams({ thermostatId: "1013", issueSlug: "permanent_hold" });
    const crossSite: Record<string, string>[] = [
      { "Sec-Fetch-Site": "cross-site" },
      { Origin: "https://evil.example" },
    ];
    for (const headers of crossSite) {
      const res = await fetch(`${stack.url}${link}`, {
        method: "POST",
        headers: { cookie, ...headers },
        body: body(),
        redirect: "manual",
      });
      expect(res.status).toBe(403);
    }
    expect(issue(1013, "permanent_hold").is_dismissed).toBe(0);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${stack.url}${link}`, {
        method: "POST",
        headers: { cookie },
        body: body(),
        redirect: "manual",
      });
      // The second POST (a resubmit) is refused by rule (dismissal-offer): it says so and changes nothing.
      expect(res.status).toBe(i === 0 ? 200 : 409);
      expect(await res.text()).toContain(i === 0 ? "Thermostat feedback received" : "Already dismissed");
      expect(issue(1013, "permanent_hold")).toEqual({ current_status: "dismissed", is_dismissed: 1 });
    }
  });

  it("a POST with a bad form or a refused dismissal shows Submission Failed", async () => {
    const cookie = await webLogin(stack.url, DANA);
    const post = (fields: Record<string, string>) =>
      fetch(`${stack.url}/dismiss-thermostat-issue`, {
        method: "POST",
        headers: { cookie },
        body: new URLSearchParams(fields),
        redirect: "manual",
      });
    const forms: Record<string, string>[] = [
      {},
      { thermostatId: "x", issueSlug: "permanent_hold" },
      { thermostatId: "1024", issueSlug: "../x" },
      { thermostatId: "1019", issueSlug: "permanent_hold" },
    ];
    for (const fields of forms) {
      const res = await post(fields);
      expect(await res.text()).toContain("Submission Failed");
    }
    expect(issue(1024, "permanent_hold").is_dismissed).toBe(0);
  });

  it("signed out, the link and its POST go to login with next back to the link", async () => {
    const link = "/dismiss-thermostat-issue?thermostatId=1024&issueSlug=permanent_hold";
    const get = await getPage(stack.url, link);
    expect(get.status).toBe(302);
    expect(get.location).toBe(`/login?next=${encodeURIComponent(link)}`);
    const post = await fetch(`${stack.url}${link}`, {
      method: "POST",
      body: new URLSearchParams({ thermostatId: "1024", issueSlug: "permanent_hold" }),
      redirect: "manual",
    });
    expect(post.status).toBe(302);
    expect(post.headers.get("location")).toBe(`/login?next=${encodeURIComponent(link)}`);
    expect(issue(1024, "permanent_hold").is_dismissed).toBe(0);
  });
});
