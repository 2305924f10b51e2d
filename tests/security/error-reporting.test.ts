import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { chromium } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT, USER } from "../../api/db/seed/ids";
import { startStack, webLogin, type Stack } from "../support/stack";
import { startSentryReceiver, type SentryEvent } from "../support/sentry-receiver";

/**
 * Error reporting against the built server and a local receiver of the Sentry envelope protocol:
 * what is reported (a server error, an upstream failure on the bills page, a browser error), what is not
 * (a 403 'Forbidden', an 'Object Not Found Matching Id', a route 404, an aborted request), and that no cookie,
 * token, password or email ever leaves in an envelope.
 */

const PASSWORD = "demo-pass-2024";
const DANA = "dana@harborcoffee.test";
const MORGAN = "morgan@energyops.test";
const QUERY_TOKEN = "tok3nInTheQueryString0123456789";
const BROWSER_SECRET = "hunter2-browser-secret";
const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { name: string; version?: string };

let receiver: Awaited<ReturnType<typeof startSentryReceiver>>;
let stack: Stack;
let dana: string;
let morgan: string;

const withId = (id: string) => (e: SentryEvent) => e.tags?.request_id === id;

function get(path: string, requestId: string, cookie?: string, signal?: AbortSignal) {
  return fetch(`${stack.url}${path}`, {
    headers: { "x-request-id": requestId, ...(cookie ? { cookie } : {}) },
    redirect: "manual",
    signal,
  });
}

function postBrowserError(body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${stack.url}/client-errors`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "sec-fetch-site": "same-origin",
      cookie: dana,
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

beforeAll(async () => {
  receiver = await startSentryReceiver();
  stack = await startStack({
    SENTRY_DSN: receiver.dsn,
    SENTRY_ENVIRONMENT: "error-reporting-test",
    SENTRY_SESSION_FLUSH_MS: "500",
    ENABLE_TEST_HOOKS: "true",
  });
  dana = await webLogin(stack.url, DANA, PASSWORD);
  morgan = await webLogin(stack.url, MORGAN, PASSWORD);
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

describe("reported", () => {
  it("an unexpected server error, tagged with release, environment and request id; the fallback shows its reference", async () => {
    const res = await get(`/test-hooks/error?token=${QUERY_TOKEN}`, "req-server-error", dana);
    expect(res.status).toBe(500);
    const html = await res.text();
    const event = await receiver.waitForEvent(withId("req-server-error"));
    expect(event.exception?.values?.[0]?.value).toBe("Deliberate failure for the error-fallback test");
    // package.json has no version: the checkout's git sha (a deploy sets SENTRY_RELEASE).
    expect(event.release).toMatch(new RegExp(`^${pkg.name}@(${pkg.version ?? "[0-9a-f]{12}"})$`));
    expect(event.environment).toBe("error-reporting-test");
    expect(event.tags?.where).toBe("loader-action-render");
    // Users see a short reference to quote to support, not the whole id.
    expect(html).toContain(
      `please quote reference <code data-testid="error-reference">${event.event_id.slice(0, 8)}</code>`,
    );
    expect(html).not.toContain(event.event_id);
  });

  it("staff see the whole event id beside the stack trace", async () => {
    const res = await get("/test-hooks/error", "req-server-error-staff", morgan);
    expect(res.status).toBe(500);
    const html = await res.text();
    const event = await receiver.waitForEvent(withId("req-server-error-staff"));
    expect(html).toContain(`Event id: <code data-testid="error-event-id">${event.event_id}</code>`);
    expect(html).toContain('data-testid="stack-trace"');
  });

  it("an upstream failure the bills page turns into 'There was a problem loading your bills'", async () => {
    stack.proxy.fail(/^\/building\/\d+\/bill-statements$/, "500");
    try {
      const res = await get("/locations/101/spending", "req-bills-500", dana);
      expect(res.status).toBe(502);
      expect(await res.text()).toContain(
        "There was a problem loading your bills. Our team has been notified.",
      );
    } finally {
      stack.proxy.clear();
    }
    const event = await receiver.waitForEvent(withId("req-bills-500"));
    expect(event.tags?.where).toBe("upstream");
    expect(event.tags?.upstream_status).toBe("500");
    expect(event.exception?.values?.[0]?.value).toBe("Internal Server Error (injected)");
    // The only personal data: the user id and the client id.
    expect(event.user).toEqual({ id: String(USER.dana) });
    expect(event.tags?.client_id).toBe(String(CLIENT.harbor));
  });

  it("a browser error posted by the page's listener, scrubbed", async () => {
    const res = await postBrowserError(
      {
        kind: "error",
        name: "TypeError",
        message: `Cannot read properties of undefined (password=${BROWSER_SECRET})`,
        stack: `TypeError: boom\n    at onClick (http://127.0.0.1/build/routes/login-ABC.js:1:200)`,
        page: `/login/link?token=${QUERY_TOKEN}`,
      },
      { "x-request-id": "req-browser" },
    );
    expect(res.status).toBe(204);
    const event = await receiver.waitForEvent(withId("req-browser"));
    expect(event.tags?.runtime).toBe("browser");
    expect(event.tags?.page).toBe("/login/link");
    expect(event.exception?.values?.[0]?.type).toBe("TypeError");
    expect(event.exception?.values?.[0]?.value).toBe(
      "Cannot read properties of undefined (password=[Filtered])",
    );
  });

  it("an error express catches outside Remix (the test hook: a bad Host, once the way in, is now a 400)", async () => {
    const res = await get("/test-hooks/express-error", "req-express");
    expect(res.status).toBe(500);
    const event = await receiver.waitForEvent(withId("req-express"));
    expect(event.tags?.where).toBe("express");
    expect(event.exception?.values?.[0]?.value).toBe("Deliberate express failure");
  });

  it("an uncaught error in a real browser page reaches the service through the page's listener", async () => {
    // Debian's Chromium, installed like the e2e suite's when missing (npm test runs this suite before the e2e one).
    execFileSync("bash", ["scripts/ensure-chromium.sh"], { stdio: "inherit", timeout: 170_000 });
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless=new", "--no-sandbox", "--disable-gpu"],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${stack.url}/login?next=/&token=${QUERY_TOKEN}`);
      // Hydrated: the listener is installed by entry.client before hydration.
      await page.waitForFunction(() => "__remixContext" in window);
      await page.evaluate(() => {
        setTimeout(() => {
          throw new RangeError("browser boom from the e2e check");
        });
      });
      const event = await receiver.waitForEvent(
        (e) => e.exception?.values?.[0]?.value === "browser boom from the e2e check",
      );
      expect(event.tags?.runtime).toBe("browser");
      expect(event.tags?.page).toBe("/login");
      expect(event.exception?.values?.[0]?.type).toBe("RangeError");

      // The fallback's reference survives hydration, and the browser does not report the server's error again.
      await page.setExtraHTTPHeaders({ "x-request-id": "req-hydrated-fallback" });
      await page.goto(`${stack.url}/test-hooks/error`);
      await page.waitForFunction(() => "__remixContext" in window);
      const server = await receiver.waitForEvent(withId("req-hydrated-fallback"));
      await page.waitForTimeout(500);
      await expect
        .poll(() =>
          page
            .getByTestId("error-reference")
            .textContent({ timeout: 2000 })
            .catch(() => null),
        )
        .toBe(server.event_id.slice(0, 8));
      expect(
        receiver
          .events()
          .filter((e) => e.tags?.runtime === "browser" && e.tags?.page === "/test-hooks/error"),
      ).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 180_000);

  it("every request counts as a release-health session (100 %)", async () => {
    const deadline = Date.now() + 15_000;
    const sessions = () =>
      receiver.envelopes.flatMap((e) => e.items.filter((i) => i.header.type === "sessions"));
    while (sessions().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(sessions().length).toBeGreaterThan(0);
  });
});

describe("the browser endpoint", () => {
  it("refuses other sites, oversized and malformed bodies", async () => {
    const ok = { kind: "error", message: "x", page: "/" };
    expect((await postBrowserError(ok, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await postBrowserError({ ...ok, stack: "a".repeat(9000) })).status).toBe(413);
    expect((await postBrowserError("{not json")).status).toBe(400);
    expect((await postBrowserError({ kind: "error", message: "x", page: "https://evil.test/" })).status).toBe(
      400,
    );
  });
});

describe("not reported", () => {
  it("a 403 'Forbidden', an 'Object Not Found Matching Id' (the page's 404) and an aborted request", async () => {
    stack.proxy.fail(/^\/building\/\d+\/bill-statements$/, "403");
    expect((await get("/locations/101/spending", "req-403", dana)).status).toBe(403);
    stack.proxy.clear();
    stack.proxy.fail(/^\/buildings$/, "404");
    expect((await get("/locations", "req-object-not-found", dana)).status).toBe(404);
    stack.proxy.clear();
    expect(
      (
        await postBrowserError(
          { kind: "unhandledrejection", message: "Forbidden", page: "/" },
          { "x-request-id": "req-browser-403" },
        )
      ).status,
    ).toBe(204);
    stack.proxy.fail(/^\/building\/\d+\/bill-statements$/, "hang");
    const abort = new AbortController();
    const pending = get("/locations/101/spending", "req-aborted", dana, abort.signal).catch(
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 400));
    abort.abort();
    await pending;
    // Let the server notice the abort before the hung call is released.
    await new Promise((r) => setTimeout(r, 300));
    stack.proxy.clear();

    // A reported error after them all: once it has arrived, anything sent before it has arrived too.
    expect((await get("/test-hooks/error", "req-sentinel", dana)).status).toBe(500);
    await receiver.waitForEvent(withId("req-sentinel"));
    await new Promise((r) => setTimeout(r, 1000));
    const ids = receiver.events().map((e) => e.tags?.request_id);
    for (const id of ["req-403", "req-object-not-found", "req-browser-403", "req-aborted"])
      expect(ids).not.toContain(id);
  });
});

describe("not reported either", () => {
  it("an error express answers with a 4xx (a path that is not valid percent-encoding)", async () => {
    // Express raises a URIError with status 400 while matching the route, before any handler runs.
    expect((await get("/test-hooks/express-error/%zz", "req-express-400")).status).toBe(400);
    expect((await get("/locations/%e2%82/spending/csv", "req-express-400-page", dana)).status).toBe(400);
    expect((await get("/test-hooks/error", "req-sentinel-400", dana)).status).toBe(500);
    await receiver.waitForEvent(withId("req-sentinel-400"));
    await new Promise((r) => setTimeout(r, 1000));
    const ids = receiver.events().map((e) => e.tags?.request_id);
    expect(ids).not.toContain("req-express-400");
    expect(ids).not.toContain("req-express-400-page");
  });
});

describe("the browser endpoint's rate limit", () => {
  // Last of the posting tests: it uses up this address's allowance for the minute.
  it("answers 429 past 30 reports a minute from one address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await postBrowserError({ kind: "error", message: "Forbidden", page: "/" })).status);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 429).length).toBeLessThan(31);
  });
});

describe("scrubbing", () => {
  it("no cookie, token, password or email in any envelope", async () => {
    expect(receiver.envelopes.length).toBeGreaterThan(3);
    const secrets = [
      dana.split("=").slice(1).join("="),
      morgan.split("=").slice(1).join("="),
      PASSWORD,
      QUERY_TOKEN,
      BROWSER_SECRET,
      DANA,
      MORGAN,
    ];
    for (const envelope of receiver.envelopes) {
      for (const secret of secrets) expect(envelope.raw).not.toContain(secret);
      expect(envelope.raw.toLowerCase()).not.toMatch(/"cookie"|set-cookie/);
    }
  });
});
