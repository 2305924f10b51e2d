import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startFaultProxy } from "../support/stack";
import { TEST_CLOCK_START } from "../support/clock";
import { makeCertificate, nginxBinary, nginxConfig, portOpen, startNginx } from "./nginx";
import { WEB_SERVER } from "../../shared/build-output.mjs";

/** A cluster's ports on 127.0.0.1, from `base` up. */
export const clusterPorts = (base: number) => ({
  nginx: base,
  webA: base + 1,
  webB: base + 2,
  api: base + 3,
  redis: base + 4,
});
/** Ports of the scale suite: SCALE_PORT_BASE (default 4600) and up. */
export const PORTS = clusterPorts(Number(process.env.SCALE_PORT_BASE ?? 4600));

/** Why the suite cannot run here (nginx, redis-server or openssl missing), or null. */
export function missingTools(): string | null {
  const missing = [
    nginxBinary() ? null : "nginx",
    spawnSync("sh", ["-c", "command -v redis-server"]).status === 0 ? null : "redis-server",
    spawnSync("sh", ["-c", "command -v openssl"]).status === 0 ? null : "openssl",
  ].filter(Boolean);
  return missing.length
    ? `${missing.join(", ")} not installed (scripts/ensure-nginx.sh installs them as root)`
    : null;
}

async function waitFor(what: string, ok: () => Promise<boolean>, child?: ChildProcess, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await ok().catch(() => false)) return;
    if (child && child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode})`);
    if (Date.now() > deadline) throw new Error(`${what} did not start within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One web instance: the built production server (`dist/server.js`) as a child process. */
export class WebInstance {
  child: ChildProcess | null = null;
  logs: string[] = [];
  exits: { code: number | null; signal: NodeJS.Signals | null }[] = [];
  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }
  get addr() {
    return `127.0.0.1:${this.port}`;
  }

  /**
   * Starts the process and waits until `/readyz` says ready (the api answers, Redis is connected), or with
   * `until: "healthz"` only until it answers at all (a start while a dependency is down).
   */
  async start({ until = "readyz" }: { until?: "readyz" | "healthz" } = {}) {
    const child = spawn(process.execPath, [path.resolve(WEB_SERVER)], {
      env: { ...process.env, ...this.env, PORT: String(this.port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    child.stdout!.on("data", (d) => this.logs.push(String(d)));
    child.stderr!.on("data", (d) => this.logs.push(String(d)));
    child.once("exit", (code, signal) => this.exits.push({ code, signal }));
    // "ready" in the body, not just 200: a "degraded" instance (Redis not connected yet) also answers 200.
    await waitFor(
      `web ${this.name}`,
      async () => {
        if (until === "healthz") return (await fetch(`${this.url}/healthz`)).status === 200;
        const r = await fetch(`${this.url}/readyz`);
        return r.status === 200 && ((await r.json()) as { status: string }).status === "ready";
      },
      child,
    );
  }

  /** The process is running: started, and not exited. */
  get alive() {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends a signal and waits for the process to end; answers its exit code. */
  async stop(signal: NodeJS.Signals = "SIGTERM") {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return null;
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    child.kill(signal);
    return exited;
  }
}

/** redis-server on `port` (loopback, nothing persisted), restartable on the same port. */
export class RedisServer {
  child: ChildProcess | null = null;
  constructor(readonly port: number) {}

  async start() {
    const child = spawn(
      "redis-server",
      ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: "ignore" },
    );
    this.child = child;
    await waitFor("redis-server", () => portOpen(this.port), child);
  }

  /** Sends a signal; with SIGKILL or SIGTERM, waits until the process has exited. */
  async signal(signal: NodeJS.Signals) {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill(signal);
    if (signal === "SIGKILL" || signal === "SIGTERM") await exited;
  }

  /** `SHUTDOWN NOSAVE` sent as a client would (a managed Redis's restart), then waits for the exit. */
  async shutdownNosave() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    await new Promise<void>((resolve, reject) => {
      const s = net.connect(this.port, "127.0.0.1", () => s.end("SHUTDOWN NOSAVE\r\n"));
      s.on("close", () => resolve());
      s.on("error", reject);
    });
    await exited;
  }

  stop() {
    // A frozen server ignores SIGTERM until it is continued.
    this.child?.kill("SIGCONT");
    return this.signal("SIGTERM");
  }
}

/**
 * The reference api as its own process on `port` (tests/scale/api-process.ts), restartable on the same port;
 * with `dbFile`, its database survives a restart (as a real api's would), otherwise it is in memory.
 */
export class ApiProcess {
  child: ChildProcess | null = null;
  url = "";
  constructor(
    readonly port: number,
    private readonly dbFile?: string,
    /** More environment for the api process alone (the fault suite's ENABLE_TEST_HOOKS). */
    private readonly env: Record<string, string> = {},
  ) {}

  async start() {
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("tests/scale/api-process.ts")], {
      env: {
        ...process.env,
        API_PORT: String(this.port),
        ...(this.dbFile ? { API_DB_FILE: this.dbFile } : {}),
        ...this.env,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    this.child = child;
    this.url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (d) => {
        out += String(d);
        const line = /^\{.*\}$/m.exec(out);
        if (line) resolve((JSON.parse(line[0]) as { url: string }).url);
      });
      child.once("exit", (code) => reject(new Error(`the api exited (${code})`)));
    });
    return this.url;
  }

  /** Sends a signal and waits until the process has exited. */
  async stop(signal: NodeJS.Signals = "SIGTERM") {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill(signal);
    await exited;
  }

  get alive() {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }
}

export type ClusterOptions = {
  /** The first of the cluster's five ports (default SCALE_PORT_BASE or 4600). */
  portBase?: number;
  /** The api's database file (it survives an api restart); default in memory. */
  apiDbFile?: string;
  /** More environment for the api process only. */
  apiEnv?: Record<string, string>;
};

/**
 * The scale topology on 127.0.0.1: redis-server, ONE reference api as its own process behind a counting
 * proxy (this process: it records every upstream call), TWO production web instances sharing REDIS_URL and
 * SESSION_SECRET, and nginx in front with TLS (a self-signed certificate made now).
 */
export async function startCluster(extraEnv: Record<string, string> = {}, options: ClusterOptions = {}) {
  const ports = options.portBase === undefined ? PORTS : clusterPorts(options.portBase);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "scale-"));
  fs.chmodSync(dir, 0o755);
  const started: { stop: () => unknown }[] = [];
  try {
    const redis = new RedisServer(ports.redis);
    started.push({ stop: () => redis.stop() });
    await redis.start();

    const api = new ApiProcess(ports.api, options.apiDbFile, options.apiEnv);
    started.push({ stop: () => api.stop("SIGTERM") });
    const apiUrl = await api.start();
    const proxy = await startFaultProxy(apiUrl);
    started.push({ stop: () => proxy.close() });

    const env = {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      API_URL: proxy.url,
      REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
      SESSION_SECRET: "scale-test-secret-0123456789abcdef0123456789",
      TRUST_PROXY: "1",
      // nginx compresses (docs/deploy.md): the instances send plain bytes.
      HTTP_COMPRESSION: "off",
      LOG_LEVEL: "warn",
      QUIET_BANNER: "true",
      CLOCK_START: TEST_CLOCK_START,
      SHUTDOWN_TIMEOUT_MS: "10000",
      // The drain (docs/deploy.md): the defaults, but a quiet second rather than half a second, so that a
      // descheduled test process does not end a drain it is probing (still well inside nginx's 3 s).
      SHUTDOWN_DRAIN_MS: "3000",
      SHUTDOWN_DRAIN_QUIET_MS: "1000",
      // Load shedding by event-loop delay is proven by the overload suite; here, on a 2-core machine shared
      // with other work, a descheduled process would shed at random, and this suite is about restarts.
      // Shedding by requests in flight stays on.
      SHED_MAX_EVENT_LOOP_DELAY_MS: "0",
      LOGIN_RATE_LIMIT_PER_IP: "100000",
      LOGIN_OPTIONS_RATE_LIMIT_PER_IP: "100000",
      ...extraEnv,
    };
    const a = new WebInstance("A", ports.webA, env);
    const b = new WebInstance("B", ports.webB, env);
    started.push({ stop: () => a.stop("SIGKILL") }, { stop: () => b.stop("SIGKILL") });
    await Promise.all([a.start(), b.start()]);

    const cert = makeCertificate(dir);
    const nginx = startNginx(
      dir,
      nginxConfig({
        listen: `127.0.0.1:${ports.nginx}`,
        serverName: "localhost",
        upstreams: [a.addr, b.addr],
        certFile: cert.certFile,
        keyFile: cert.keyFile,
        exposeUpstream: true,
      }),
    );
    started.push({ stop: () => nginx.stop() });
    await waitFor("nginx", () => portOpen(ports.nginx), nginx.child);

    const agent = new https.Agent({ ca: cert.ca, keepAlive: true, maxSockets: 64 });
    return {
      a,
      b,
      redis,
      api,
      proxy,
      nginx,
      url: `https://localhost:${ports.nginx}`,
      /** The self-signed certificate nginx presents (for clients other than `request`). */
      ca: cert.ca,
      /** One request through nginx; `timeoutMs` (default 30 s) ends it with a "client timeout" error. */
      request: (p: string, init: RequestInit = {}, timeoutMs = 30_000) =>
        request(agent, `https://localhost:${ports.nginx}${p}`, init, timeoutMs),
      async stop() {
        agent.destroy();
        for (const s of started.reverse()) await s.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const s of started.reverse()) await s.stop();
    throw error;
  }
}

export type Cluster = Awaited<ReturnType<typeof startCluster>>;

export type Answer = {
  status: number;
  body: string;
  location: string | null;
  /** nginx's `$upstream_addr`: the instances it tried, in order ("127.0.0.1:4601, 127.0.0.1:4602"). */
  upstream: string;
  setCookies: string[];
};

/** One HTTPS request through nginx (trusting the test's certificate), redirects not followed. */
function request(agent: https.Agent, url: string, init: RequestInit, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...(init.headers as Record<string, string>) };
    const body = init.body ? String(init.body) : undefined;
    if (body) {
      headers["content-type"] ??= "application/x-www-form-urlencoded";
      headers["content-length"] = String(Buffer.byteLength(body));
    }
    const req = https.request(
      url,
      { method: init.method ?? "GET", headers, agent, timeout: timeoutMs },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text,
            location: (res.headers.location as string | undefined) ?? null,
            upstream: String(res.headers["x-upstream-addr"] ?? ""),
            setCookies: res.headers["set-cookie"] ?? [],
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("client timeout")));
    // `reusedSocket`: the request went out on a kept-alive connection, which the server may have closed as
    // idle at that very moment (a client then sends it again on a new connection, RFC 9112 §9.3.1).
    req.on("error", (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
    req.end(body);
  });
}

/** The instance that finally answered (the last address nginx tried). */
export const answeredBy = (a: { upstream: string }) => a.upstream.split(",").pop()!.trim();

/** A session cookie's name=value from an answer's Set-Cookie headers. */
export const sessionPair = (a: { setCookies: string[] }) => {
  const set = a.setCookies.find((s) => /session=/.test(s));
  if (!set) throw new Error("no session cookie in the answer");
  return set.split(";")[0];
};

/**
 * The instance nginx sends a request carrying `cookie` to (its affinity: docs/deploy.md), read from a
 * `/healthz` through nginx; with no cookie, the client address's instance.
 */
export async function routedTo(c: Cluster, cookie?: string) {
  const r = await c.request("/healthz", cookie ? { headers: { cookie } } : {});
  if (r.status !== 200) throw new Error(`/healthz through nginx answered ${r.status}`);
  return answeredBy(r);
}

/** Tries before giving up on a cookie that hashes to a given instance: half hash to each, 2^-30 to miss. */
const ROUTE_TRIES = 30;

/**
 * A signed-in session whose cookie nginx sends to `addr`. Each sign-in seals a new value (a random IV), and
 * values hash evenly over the instances, so a few sign-ins find one; the tests use it to put load on a
 * chosen instance now that nginx keeps each session on one.
 */
export async function sessionOn(c: Cluster, addr: string, email: string, password = "demo-pass-2024") {
  for (let i = 0; i < ROUTE_TRIES; i++) {
    const signIn = await c.request(`/login?email=${encodeURIComponent(email)}`, {
      method: "POST",
      body: new URLSearchParams({ intent: "password", email, password, next: "/" }),
    });
    if (signIn.status !== 302) throw new Error(`sign-in answered ${signIn.status}`);
    const cookie = sessionPair(signIn);
    if ((await routedTo(c, cookie)) === addr) return { cookie, signIn };
  }
  throw new Error(`no session of ${email} routed to ${addr} in ${ROUTE_TRIES} sign-ins`);
}

/**
 * A session cookie that opens no session (as a browser with an expired one sends) and that nginx sends to
 * `addr`: for signed-out requests (sign-in attempts) on a chosen instance.
 */
export async function strangerOn(c: Cluster, addr: string) {
  for (let i = 0; i < ROUTE_TRIES; i++) {
    const cookie = `__Host-session=expired-${randomUUID()}`;
    if ((await routedTo(c, cookie)) === addr) return cookie;
  }
  throw new Error(`no cookie routed to ${addr} in ${ROUTE_TRIES} tries`);
}
