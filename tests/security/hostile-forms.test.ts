import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSentryReceiver } from "../support/sentry-receiver";
import { startStack, webLogin, type Stack } from "../support/stack";

/**
 * Hostile forms, bad headers and odd spellings of a path, against the built server with error reporting on
 * (a local Sentry receiver): each is refused with a 4xx at once, the process lives, and nothing is reported.
 * Reproductions of an attacker's review: a 60-byte post (`x[999999999]`) that used to block the event loop for
 * minutes and end the process out of memory; `x[1000000]` answered with 3 MB; `Host: a b`, `Host: h:99999`,
 * `X-Forwarded-Host: x:99999`, `__intent__=x` and `__state__={`, each a reported 500; sign-in posts to
 * `/login//` or `/%6cogin` that the per-address limit did not count.
 */

let receiver: Awaited<ReturnType<typeof startSentryReceiver>>;
let stack: Stack;
let trusting: Stack;
let requestIds: string[] = [];
let counter = 0;

const LIMIT = 5;

beforeAll(async () => {
  receiver = await startSentryReceiver();
  const env = { SENTRY_DSN: receiver.dsn, SENTRY_SESSION_FLUSH_MS: "60000" };
  stack = await startStack({ ...env, TRUST_PROXY: "0" });
  trusting = await startStack({ ...env, TRUST_PROXY: "1", LOGIN_RATE_LIMIT_PER_IP: String(LIMIT) });
}, 120_000); // two servers, each seeding its demo database

afterAll(async () => {
  await stack?.stop();
  await trusting?.stop();
  await receiver?.close();
});

type Answer = { status: number; body: string; ms: number; headers: http.IncomingHttpHeaders };

/** A request with exactly these headers (fetch cannot send a Host of its own), and a fresh request id. */
function raw(
  base: string,
  {
    method = "GET",
    path = "/",
    headers = {},
    body,
  }: {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  },
): Promise<Answer> {
  const { port } = new URL(base);
  const requestId = `hostile-${++counter}`;
  requestIds.push(requestId);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        setHost: false,
        headers: {
          host: `127.0.0.1:${port}`,
          "x-request-id": requestId,
          ...(body !== undefined
            ? {
                "content-type": "application/x-www-form-urlencoded",
                "content-length": String(Buffer.byteLength(body)),
                "sec-fetch-site": "same-origin",
              }
            : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - started,
            headers: res.headers,
          }),
        );
      },
    );
    req.setTimeout(20_000, () => req.destroy(new Error("no answer in 20 s")));
    req.on("error", reject);
    req.end(body);
  });
}

const post = (base: string, path: string, body: string, headers: Record<string, string> = {}) =>
  raw(base, { method: "POST", path, body, headers });

async function stillServing(base: string) {
  const health = await raw(base, { path: "/healthz" });
  expect(health.status).toBe(200);
  expect(health.ms).toBeLessThan(1000);
}

describe("form field names that build huge lists", () => {
  const SIXTY_BYTES = "x[999999999]=1&intent=password&email=a%40b.co&password=x";

  it("the 60-byte anonymous post answers 400 within a second, and the process lives", async () => {
    expect(SIXTY_BYTES.length).toBeLessThanOrEqual(60);
    const answer = await post(stack.url, "/login", SIXTY_BYTES);
    expect(answer.status).toBe(400);
    expect(answer.ms).toBeLessThan(1000);
    expect(stack.alive()).toBe(true);
    await stillServing(stack.url);
  });

  it.each(["/login", "/login.data", "/free-bill-health-check", "/free-bill-health-check.data"])(
    "x[1000000] on %s is a 400, urlencoded, percent-encoded or multipart",
    async (path) => {
      const fields = path.startsWith("/login")
        ? "intent=password&email=a%40b.co&password=x"
        : "intent=search&q=con";
      for (const name of ["x[1000000]", "x%5B1000000%5D", "a.b.c.d.e.f.g.h.i.j"]) {
        const answer = await post(stack.url, path, `${name}=1&${fields}`);
        expect(answer.status, name).toBe(400);
        expect(answer.ms).toBeLessThan(1000);
      }
      const boundary = "b0undary";
      const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="x[1000000]"\r\n\r\n1\r\n--${boundary}--\r\n`;
      const answer = await post(stack.url, path, multipart, {
        "content-type": `multipart/form-data; boundary=${boundary}`,
      });
      expect(answer.status).toBe(400);
      await stillServing(stack.url);
    },
  );

  it("a field the schema does not know is never echoed, even within the bounds", async () => {
    const plain = await post(stack.url, "/login.data", "intent=password&email=a%40b.co&password=wrong-1");
    const padded = await post(
      stack.url,
      "/login.data",
      "x[999]=1&y.z=stranger&intent=password&email=a%40b.co&password=wrong-2",
    );
    expect(plain.status).toBe(padded.status);
    expect(padded.body).not.toContain("stranger");
    expect(padded.body).not.toContain("wrong-2");
    // The same answer as without the strays (a list of 1,000 holes was ~5 KB more).
    expect(Math.abs(padded.body.length - plain.body.length)).toBeLessThan(50);
  });
});

describe("Conform's control fields", () => {
  it.each(["__intent__=x", "__state__=%7B", "__intent__=%7B%7D"])(
    "%s on POST /login is a 400 with the form kept",
    async (control) => {
      for (const path of ["/login", "/login.data"]) {
        const answer = await post(stack.url, path, `intent=password&email=a%40b.co&password=x&${control}`);
        expect(answer.status, path).toBe(400);
      }
      const page = await post(stack.url, "/login", `intent=password&email=kept%40b.co&password=x&${control}`);
      expect(page.body).toContain("kept@b.co");
    },
  );
});

describe("malformed Host and forwarded headers", () => {
  it.each(["a b", "h:99999", "h:1:2", "", "a/b", "h:-1"])("Host: %j is a 400", async (host) => {
    const page = await raw(stack.url, { path: "/login", headers: { host } });
    expect(page.status).toBe(400);
    const form = await post(stack.url, "/login", "intent=password&email=a%40b.co&password=x", { host });
    expect(form.status).toBe(400);
  });

  it("well-formed hosts are served: a name, an address, a port, IPv6", async () => {
    for (const host of ["localhost", "app.example.test:8443", "127.0.0.1:3000", "[::1]:3000"])
      expect((await raw(stack.url, { path: "/login", headers: { host } })).status, host).toBe(200);
  });

  it("with TRUST_PROXY=0, X-Forwarded-Host and -Proto are ignored (not read, so not a 500)", async () => {
    const forwarded: Record<string, string>[] = [
      { "x-forwarded-host": "x:99999" },
      { "x-forwarded-proto": "javascript" },
    ];
    for (const headers of forwarded) {
      const page = await raw(stack.url, { path: "/login", headers });
      expect(page.status).toBe(200);
      expect(page.body).not.toContain("support@x");
      const form = await post(stack.url, "/login", "intent=password&email=a%40b.co&password=wrong", headers);
      expect(form.status).toBe(401);
    }
  });

  it("with TRUST_PROXY=1, a malformed X-Forwarded-Host or -Proto is a 400; a good one is used", async () => {
    const malformed: Record<string, string>[] = [
      { "x-forwarded-host": "x:99999" },
      { "x-forwarded-host": "a b, ok.test" },
      { "x-forwarded-proto": "javascript" },
    ];
    for (const headers of malformed) {
      expect((await raw(trusting.url, { path: "/login", headers })).status).toBe(400);
    }
    const forwarded = { "x-forwarded-host": "app.example.test", "x-forwarded-proto": "https" };
    const good = await raw(trusting.url, { path: "/login", headers: forwarded });
    expect(good.status).toBe(200);
    // The request's origin is the forwarded one: a post whose Origin names it is same-site (a wrong password's
    // 401), and one naming the socket's own address is now cross-site (403).
    const form = "intent=password&email=a%40b.co&password=x";
    const sameSite = await post(trusting.url, "/login", form, {
      ...forwarded,
      origin: "https://app.example.test",
    });
    expect(sameSite.status).toBe(401);
    const { port } = new URL(trusting.url);
    const socketOrigin = { ...forwarded, origin: `http://127.0.0.1:${port}` };
    expect((await post(trusting.url, "/login", form, socketOrigin)).status).toBe(403);
  });
});

describe("other requests Remix would answer with a reported 500", () => {
  const form = "intent=password&email=a%40b.co&password=x";
  it("an Origin naming another host beside Sec-Fetch-Site: same-origin is refused as cross-site", async () => {
    for (const origin of ["http://evil.test", "garbage"])
      expect((await post(stack.url, "/login", form, { origin })).status, origin).toBe(403);
    const { port } = new URL(stack.url);
    expect((await post(stack.url, "/login", form, { origin: `http://127.0.0.1:${port}` })).status).toBe(401);
  });

  it("an Origin the CSRF check accepts in another spelling than the Host is served, not a 500", async () => {
    const { port } = new URL(stack.url);
    // `Origin: null` beside Sec-Fetch-Site (a no-referrer page), an upper-case Host beside the browser's Origin.
    const variants: Record<string, string>[] = [
      { origin: "null", "sec-fetch-site": "none" },
      { origin: "null", "sec-fetch-site": "same-origin" },
      { host: `LOCALHOST:${port}`, origin: `http://localhost:${port}` },
    ];
    for (const headers of variants)
      expect((await post(stack.url, "/login", form, headers)).status, JSON.stringify(headers)).toBe(401);
    // From a trusted proxy: the forwarded host with its default port, or in capitals (no sign-in path: the
    // per-address limit of that server is counted below).
    const empty = { "content-length": "0" };
    for (const forwardedHost of ["app.example.test:443", "APP.example.test"]) {
      const headers = {
        ...empty,
        "x-forwarded-host": forwardedHost,
        "x-forwarded-proto": "https",
        origin: "https://app.example.test",
      };
      const answer = await raw(trusting.url, { method: "POST", path: "/free-bill-health-check", headers });
      expect(answer.status, forwardedHost).toBe(400);
    }
  });

  it("a post to a page without an action is Remix's 405, not a logged server error", async () => {
    const before = stack.logs.length;
    expect((await post(stack.url, "/privacy-policy", form)).status).toBe(405);
    await new Promise((r) => setTimeout(r, 200));
    expect(stack.logs.slice(before).join("")).not.toContain("server error");
  });

  it("a body that is not a form is a 415, a multipart body that does not parse a 400", async () => {
    for (const type of ["text/plain", "application/json"])
      expect((await post(stack.url, "/login", "{}", { "content-type": type })).status, type).toBe(415);
    const garbage = await post(stack.url, "/login", "garbage", {
      "content-type": "multipart/form-data; boundary=x",
    });
    expect(garbage.status).toBe(400);
  });

  it("a ?_data= request (Remix serves it and reports it as an error) is a 400", async () => {
    expect((await raw(stack.url, { path: "/login?_data=routes/login" })).status).toBe(400);
    expect((await post(stack.url, "/login?_data=routes/login", form)).status).toBe(400);
  });

  it("an empty post without a type still signs out (an action that reads no form)", async () => {
    const answer = await raw(stack.url, {
      method: "POST",
      path: "/logout",
      headers: { "content-length": "0" },
    });
    expect(answer.status).toBe(302);
    const login = await raw(stack.url, {
      method: "POST",
      path: "/login",
      headers: { "content-length": "0" },
    });
    expect(login.status).toBe(400);
  });
});

describe("query parameters passed on to the api", () => {
  it("an account that is not an id is no choice: the page and its CSV are served, nothing reported", async () => {
    const cookie = await webLogin(stack.url, "dana@harborcoffee.test");
    for (const path of ["/locations/101/spending", "/locations/101/spending/csv"]) {
      const answer = await raw(stack.url, { path: `${path}?accountId=%00x`, headers: { cookie } });
      expect(answer.status, path).toBe(200);
    }
  });
});

describe("non-canonical paths", () => {
  it("GET answers 308 to the canonical path, same origin, query kept", async () => {
    const cases: [string, string][] = [
      ["/login//", "/login"],
      ["/%6cogin?email=a%40b.co", "/login?email=a%40b.co"],
      ["/./login", "/login"],
      ["/a/../login", "/login"],
      ["/login/link//?token=t", "/login/link?token=t"],
      ["//evil.test/x", "/evil.test/x"],
      ["/.//evil.test", "/evil.test"],
      ["/%2e%2e//evil.test", "/evil.test"],
      ["/\\evil.test/", "/%5Cevil.test"],
    ];
    for (const [from, to] of cases) {
      const answer = await raw(stack.url, { path: from });
      expect(answer.status, from).toBe(308);
      expect(answer.headers.location, from).toBe(to);
    }
    expect((await raw(stack.url, { path: "/login?x=//y" })).status).toBe(200);
  });

  it("a request target that is not a path is a 400", async () => {
    expect((await raw(stack.url, { path: "http://evil.test/login" })).status).toBe(400);
  });

  it.each(["/login//", "/%6cogin", "/./login", "/login/link//", "/LOGIN"])(
    "sign-in posts to %s are limited like posts to /login",
    async (path) => {
      const ip = `203.0.113.${++counter % 250}`;
      const body = path.startsWith("/login/link")
        ? "token=not-a-token"
        : "intent=password&email=nobody%40b.co&password=wrong";
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 2; i++) {
        // fetch follows a 308 as a browser does: the same post, body and all, to the canonical path.
        const res = await fetch(`${trusting.url}${path}`, {
          method: "POST",
          body,
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "x-forwarded-for": ip,
            "sec-fetch-site": "same-origin",
          },
          redirect: "follow",
        });
        await res.arrayBuffer();
        statuses.push(res.status);
      }
      expect(statuses.slice(0, LIMIT)).not.toContain(429);
      expect(statuses.slice(LIMIT)).toEqual([429, 429]);
      // The odd spelling itself changes nothing: it answers 308 before any limit or action.
      const manual = await post(trusting.url, path, body, { "x-forwarded-for": ip });
      expect(manual.status === 308 || manual.status === 429).toBe(true);
    },
  );
});

describe("error reports", () => {
  it("none of the requests above was reported", async () => {
    // Reports leave at once; give the last ones time to arrive.
    await new Promise((r) => setTimeout(r, 2000));
    const ids = new Set(requestIds);
    const reported = receiver.events().filter((e) => ids.has(e.tags?.request_id ?? ""));
    expect(reported.map((e) => e.exception?.values?.[0]?.value)).toEqual([]);
    expect(receiver.events()).toEqual([]);
    requestIds = [];
  });
});
