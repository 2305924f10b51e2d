import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { startApi, type RunningApi } from "../../api/server";
import { TEST_CLOCK_START } from "./clock";
import { WEB_SERVER } from "../../shared/build-output.mjs";

/** What the fault-injecting upstream can answer instead of the real api. */
export type Fault =
  | "500"
  | "403"
  | "404"
  | "404-route"
  | "401"
  | "hang"
  | "reset"
  | "malformed-json"
  | "empty-body"
  | "errmsg"
  | "validation";

export const ALL_FAULTS: Fault[] = [
  "500",
  "403",
  "404",
  "401",
  "hang",
  "reset",
  "malformed-json",
  "empty-body",
  "errmsg",
  "validation",
];

/** One call the web tier made upstream: what it asked, and the request id and client address it sent along. */
export type UpstreamCall = { method: string; path: string; requestId?: string; forwardedFor?: string };

type Rule = { method?: string; path: RegExp; fault: Fault };

/**
 * A small HTTP server in front of the real api: it forwards every call, records it, and answers the calls
 * that match a rule with the chosen fault.
 */
export async function startFaultProxy(target: string) {
  const rules: Rule[] = [];
  const calls: UpstreamCall[] = [];
  const hung = new Set<http.ServerResponse>();
  const targetUrl = new URL(target);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://proxy");
    const p = url.pathname.replace(/^\/api/, "");
    const requestId = req.headers["x-request-id"];
    const forwardedFor = req.headers["x-forwarded-for"];
    calls.push({
      method: req.method ?? "GET",
      path: `${p}${url.search}`,
      requestId: typeof requestId === "string" ? requestId : undefined,
      forwardedFor: typeof forwardedFor === "string" ? forwardedFor : undefined,
    });
    const rule = rules.find((r) => (!r.method || r.method === req.method) && r.path.test(p));
    if (rule) {
      const json = (status: number, body: string) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(body);
      };
      switch (rule.fault) {
        case "500":
          return json(500, JSON.stringify({ message: "Internal Server Error (injected)" }));
        case "403":
          return json(403, JSON.stringify({ message: "Forbidden" }));
        case "404":
          return json(404, JSON.stringify({ message: "Object Not Found Matching Id" }));
        case "404-route":
          // An upstream that does not have the route at all (an older version of the api).
          return json(404, JSON.stringify({ message: "Not Found" }));
        case "401":
          return json(401, JSON.stringify({ message: "Not authenticated" }));
        case "hang":
          hung.add(res);
          req.on("close", () => hung.delete(res));
          return;
        case "reset":
          req.socket.destroy();
          return;
        case "malformed-json":
          return json(200, "{not json");
        case "empty-body":
          res.writeHead(200, { "content-type": "application/json" });
          return res.end();
        case "errmsg":
          return json(200, JSON.stringify({ errMsg: "Injected upstream failure" }));
        case "validation":
          return json(
            422,
            JSON.stringify({
              message: "Validation error",
              body_params: [{ location: "field", message: "is invalid (injected)" }],
              path_params: [],
              query_params: [],
            }),
          );
      }
    }
    const upstream = http.request(
      {
        hostname: targetUrl.hostname,
        port: targetUrl.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/api`,
    calls,
    fail(pathPattern: RegExp, fault: Fault, method?: string) {
      rules.push({ path: pathPattern, fault, method });
    },
    clear() {
      rules.length = 0;
      for (const r of hung) r.destroy();
      hung.clear();
    },
    close: () =>
      new Promise<void>((r) => {
        for (const h of hung) h.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export async function freePort() {
  return new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

/**
 * The production web server (`dist/server.js`, built first) as a child process, in front of a fault proxy,
 * in front of a real api with a fresh in-memory seeded database.
 */
export async function startStack(env: Record<string, string> = {}) {
  const api: RunningApi = await startApi({
    port: 0,
    dbFile: ":memory:",
    quiet: true,
    thermostatActionDelayMs: 1000,
    clockStart: TEST_CLOCK_START,
  });
  const proxy = await startFaultProxy(api.url);
  const port = await freePort();
  const logs: string[] = [];
  const child: ChildProcess = spawn(process.execPath, [path.resolve(WEB_SERVER)], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      API_URL: proxy.url,
      SESSION_SECRET: "stack-test-secret-0123456789abcdef0123456789",
      LOG_LEVEL: "warn",
      QUIET_BANNER: "true",
      UPSTREAM_TIMEOUT_MS: "1500",
      LOGIN_RATE_LIMIT_PER_ACCOUNT: "1000",
      LOGIN_RATE_LIMIT_PER_ACCOUNT_IP: "1000",
      LOGIN_OPTIONS_RATE_LIMIT_PER_IP: "100000",
      LOGIN_RATE_LIMIT_PER_IP: "100000",
      CLOCK_START: TEST_CLOCK_START,
      // Shedding on event-loop delay is off: on a busy test machine the loop's delay is the machine's, and a
      // page shed with 503 before it calls upstream would turn a fault test into a test of the host's load.
      // The in-flight limit stays (the hung-upstream test relies on it); shedding has its own tests.
      SHED_MAX_EVENT_LOOP_DELAY_MS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => logs.push(String(d)));
  child.stderr!.on("data", (d) => logs.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error(`web server exited: ${logs.join("")}`);
    if (Date.now() > deadline) throw new Error(`web server did not start: ${logs.join("")}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    api,
    proxy,
    logs,
    child,
    alive: () => child.exitCode === null,
    async stop() {
      // A server that already died (the fault a test caught) has no exit left to wait for.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      await proxy.close();
      await api.close();
    },
  };
}

/** Signs in through the real login form and returns the session cookie pair. */
export async function webLogin(baseUrl: string, email: string, password = "demo-pass-2024") {
  const res = await fetch(`${baseUrl}/login?email=${encodeURIComponent(email)}`, {
    method: "POST",
    body: new URLSearchParams({ intent: "password", email, password, next: "/" }),
    redirect: "manual",
  });
  if (res.status !== 302) throw new Error(`login failed for ${email}: ${res.status}`);
  const cookie = res.headers.getSetCookie().find((c) => c.includes("session="));
  return cookie!.split(";")[0];
}

/** GET a page as a browser would (following nothing), with timing. */
export async function getPage(baseUrl: string, p: string, cookie?: string) {
  const started = performance.now();
  const res = await fetch(`${baseUrl}${p}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  const body = await res.text();
  return {
    status: res.status,
    body,
    location: res.headers.get("location"),
    ms: performance.now() - started,
    headers: res.headers,
  };
}
