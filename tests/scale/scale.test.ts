import { randomUUID } from "node:crypto";
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DANA } from "../support/pages";
import {
  answeredBy,
  missingTools,
  routedTo,
  sessionOn,
  startCluster,
  strangerOn,
  type Answer,
  type Cluster,
} from "./cluster";

/**
 * Scale-out, proven with real parts: redis-server, one reference api in its own process, two production
 * web instances sharing REDIS_URL and SESSION_SECRET, nginx in front with TLS, each session kept on one
 * instance (consistent hashing on the session cookie; the load uses sessions on both). Run by
 * `npm run test:scale` after `npm run build`; skipped with the reason printed where nginx or redis-server
 * cannot be installed (scripts/ensure-nginx.sh).
 */
const missing = missingTools();
if (missing) console.warn(`scale suite skipped: ${missing}`);

const ALEX = "alex@mapledental.test";
/** Failed password attempts per account and address: low, to see it shared across instances. */
const PER_ACCOUNT_IP = 6;

let c: Cluster;
/** Dana's sessions whose cookies nginx sends to instance A and to instance B. */
let cookieA: string;
let cookieB: string;

async function login(email: string, password = "demo-pass-2024", cookie?: string) {
  const r = await c.request(`/login?email=${encodeURIComponent(email)}`, {
    method: "POST",
    headers: cookie ? { cookie } : {},
    body: new URLSearchParams({ intent: "password", email, password, next: "/" }),
  });
  return r;
}

/** A field's value in a form's HTML. */
const field = (form: string, name: string) =>
  new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(form)?.[1] ?? "";

const SETTINGS_CALL = /^\/thermostats\/(\d+)\/settings$/;
const settingsCalls = () => c.proxy.calls.filter((x) => x.method === "POST" && SETTINGS_CALL.test(x.path));

type Outcome = { at: number; ms: number; ok: boolean; status: number; upstream: string; what: string };

/** Pause between a loop's requests: users read pages; a failure is not retried in a tight loop. */
const THINK_MS = 100;
const pause = (ok: boolean) => new Promise((r) => setTimeout(r, ok ? THINK_MS : 500));

/**
 * Continuous load through nginx: `getLoops` loops of signed-in page views and `postLoops` loops of
 * thermostat settings changes (a fresh submissionId each), until `stop()`. Loops alternate between the
 * session on A and the session on B, so that both instances carry load.
 */
function startLoad(getLoops: number, postLoops: number) {
  const outcomes: Outcome[] = [];
  const accepted: string[] = [];
  let running = true;
  const pages = ["/locations", "/locations/104/control", "/settings?tab=team", "/locations/101/spending"];
  const record = (started: number, ok: boolean, status: number, upstream: string, what: string) => {
    outcomes.push({ at: started, ms: Date.now() - started, ok, status, upstream, what });
    return pause(ok);
  };

  const cookieOf = (n: number) => (n % 2 ? cookieB : cookieA);
  const getLoop = async (n: number) => {
    const cookie = cookieOf(n);
    for (let i = n; running; i++) {
      const p = pages[i % pages.length];
      const started = Date.now();
      try {
        const r = await c.request(p, { headers: { cookie } });
        await record(
          started,
          r.status === 200 && r.body.includes("</html>"),
          r.status,
          r.upstream,
          `GET ${p}`,
        );
      } catch (error) {
        await record(started, false, 0, "", `GET ${p}: ${String(error)}`);
      }
    }
  };
  const postLoop = async (thermostatId: string, n: number) => {
    const cookie = cookieOf(n);
    const path = "/locations/104/control";
    const page = await c.request(path, { headers: { cookie } });
    const form = page.body
      .split("<form")
      .find((f) => f.includes(`name="thermostatId" value="${thermostatId}"`))!;
    const cool = Number(field(form, "coolSetpointF"));
    for (let i = 0; running; i++) {
      const submissionId = randomUUID();
      const body = new URLSearchParams({
        thermostatId,
        tab: field(form, "tab"),
        submissionId,
        mode: "cool",
        coolSetpointF: String(cool + (i % 2 ? 1 : 2)),
        heatSetpointF: field(form, "heatSetpointF"),
        intent: "save",
      });
      const started = Date.now();
      try {
        const r = await c.request(path, { method: "POST", headers: { cookie }, body });
        const ok = r.status === 302 && /watch=\d+%3A\d+/.test(r.location ?? "");
        if (ok) accepted.push(submissionId);
        await record(started, ok, r.status, r.upstream, `POST thermostat ${thermostatId}`);
      } catch (error) {
        await record(started, false, 0, "", `POST thermostat ${thermostatId}: ${String(error)}`);
      }
    }
  };
  const loops = [
    ...Array.from({ length: getLoops }, (_, n) => getLoop(n)),
    ...["1011", "1012", "1013", "1014"].slice(0, postLoops).map((t, n) => postLoop(t, n)),
  ];
  return {
    outcomes,
    accepted,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Failures counted by request and status, for a readable assertion. */
const summarise = (outcomes: Outcome[]) => {
  const out: Record<string, number> = {};
  for (const o of outcomes) out[`${o.what} → ${o.status}`] = (out[`${o.what} → ${o.status}`] ?? 0) + 1;
  return out;
};

async function until(what: string, ok: () => boolean, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!!missing)("two web instances behind nginx (TLS, session affinity, Redis)", () => {
  beforeAll(async () => {
    c = await startCluster({ LOGIN_RATE_LIMIT_PER_ACCOUNT_IP: String(PER_ACCOUNT_IP) });
    cookieA = (await sessionOn(c, c.a.addr, DANA)).cookie;
    cookieB = (await sessionOn(c, c.b.addr, DANA)).cookie;
  }, 180_000);

  afterAll(async () => {
    await c?.stop();
  });

  it("a user signed in through one instance keeps working on the other, and each session stays on one", async () => {
    const signIn = await login(DANA);
    expect(signIn.status).toBe(302);
    // The production cookie, over TLS: __Host- prefix, Secure.
    const set = signIn.setCookies.find((s) => /session=/.test(s))!;
    expect(set).toMatch(/^__Host-/);
    expect(set).toMatch(/;\s*Secure/i);
    // Signed out, nginx keys on the client's address: every sign-in from here reaches the same instance.
    const signedInOn = answeredBy(signIn);
    expect(await routedTo(c)).toBe(signedInOn);
    // A session sealed there, whose cookie hashes to the other instance, is opened by the other instance.
    const other = signedInOn === c.a.addr ? c.b.addr : c.a.addr;
    const moved = await sessionOn(c, other, DANA);
    expect(answeredBy(moved.signIn)).toBe(signedInOn);
    // Affinity: every request with one cookie is answered by that cookie's instance.
    for (const [own, on] of [
      [moved.cookie, other],
      [cookieA, c.a.addr],
      [cookieB, c.b.addr],
    ])
      for (let i = 0; i < 3; i++) {
        const r = await c.request("/locations", { headers: { cookie: own } });
        expect(r.status).toBe(200);
        expect(r.body).toContain("Harbor Coffee Co.");
        expect(answeredBy(r)).toBe(on);
      }
    // Each instance is ready: the api answers and its Redis connection is up.
    for (const instance of [c.a, c.b]) {
      const ready = await fetch(`${instance.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ checks: { api: "ok", redis: "ok" } });
    }
    expect([c.a.addr, c.b.addr]).toContain(signedInOn);
  });

  it("browsers get HTTP/2 and gzip from nginx: one connection carries the page and all its script files", async () => {
    const session = http2.connect(c.url, { ca: c.ca });
    try {
      await new Promise<void>((resolve, reject) =>
        session.once("connect", () => resolve()).once("error", reject),
      );
      // ALPN chose h2, as it does for every current browser.
      expect(session.alpnProtocol).toBe("h2");
      const get = (path: string, headers: Record<string, string> = {}) =>
        new Promise<{ status: number; body: string; encoding?: string }>((resolve, reject) => {
          const stream = session.request({ ":path": path, ...headers });
          let body = "";
          let status = 0;
          let encoding: string | undefined;
          stream.setEncoding("latin1");
          stream.on("response", (h) => {
            status = Number(h[":status"]);
            encoding = h["content-encoding"] as string | undefined;
          });
          stream.on("data", (d: string) => (body += d));
          stream.on("end", () => resolve({ status, body, encoding }));
          stream.on("error", reject);
        });
      const page = await get("/locations", { cookie: cookieA });
      expect(page.status).toBe(200);
      expect(page.body).toContain("Harbor Coffee Co.");
      const scripts = [...page.body.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
      expect(scripts.length).toBeGreaterThan(6);
      // Every script file at once, on the one connection (HTTP/1.1 would queue them six at a time).
      const answers = await Promise.all(scripts.map((s) => get(s)));
      expect(answers.map((a) => a.status)).toEqual(scripts.map(() => 200));
      // nginx compresses pages, `.data` and scripts; the instances behind it (HTTP_COMPRESSION=off) do not.
      // (nginx leaves answers under 1 KiB as they are: gzip_min_length.)
      const largest =
        scripts[answers.reduce((m, a, i) => (a.body.length > answers[m].body.length ? i : m), 0)];
      for (const path of ["/locations", "/locations.data", largest]) {
        const gz = await get(path, { cookie: cookieA, "accept-encoding": "gzip" });
        expect(gz.status, path).toBe(200);
        expect(gz.encoding, path).toBe("gzip");
        const direct = await fetch(`${c.a.url}${path}`, {
          headers: { cookie: cookieA, "accept-encoding": "gzip" },
        });
        expect(direct.headers.get("content-encoding"), path).toBeNull();
      }
    } finally {
      session.close();
    }
  });

  it("sign-in limits are shared by the instances (Redis)", async () => {
    const before = c.proxy.calls.filter((x) => x.method === "POST" && x.path === "/auth/login").length;
    // Signed-out attempts from one address all hash to one instance; cookies of no session spread them.
    const strangers = [await strangerOn(c, c.a.addr), await strangerOn(c, c.b.addr)];
    const answers: Answer[] = [];
    for (let i = 0; i < PER_ACCOUNT_IP + 2; i++)
      answers.push(await login(ALEX, "wrong-password-1", strangers[i % 2]));
    const firstOnes = answers.slice(0, PER_ACCOUNT_IP);
    // The counted attempts were spread over both instances, and the limit still held after PER_ACCOUNT_IP.
    expect(new Set(firstOnes.map(answeredBy))).toEqual(new Set([c.a.addr, c.b.addr]));
    for (const a of firstOnes) expect(a.status).toBe(401);
    for (const a of answers.slice(PER_ACCOUNT_IP)) {
      expect(a.status).toBe(429);
      expect(a.body).toContain("Too many attempts.");
    }
    const after = c.proxy.calls.filter((x) => x.method === "POST" && x.path === "/auth/login").length;
    expect(after - before).toBe(PER_ACCOUNT_IP);
  });

  it("a rolling restart under load loses no request, and no POST is lost or duplicated", async () => {
    const callsBefore = settingsCalls().length;
    const load = startLoad(4, 2);
    const t0 = Date.now();
    const servedBySince = (addr: string, since: number) =>
      load.outcomes.filter((o) => o.at >= since && o.ok && answeredBy(o) === addr).length;
    await until(
      "load on both instances",
      () => servedBySince(c.a.addr, t0) >= 3 && servedBySince(c.b.addr, t0) >= 3,
    );
    const exitCodes: (number | null)[] = [];
    const events: string[] = [];
    for (const instance of [c.a, c.b]) {
      events.push(`${Date.now() - t0} SIGTERM ${instance.name}`);
      exitCodes.push(await instance.stop("SIGTERM"));
      events.push(`${Date.now() - t0} exited ${instance.name}`);
      await instance.start();
      const back = Date.now();
      events.push(`${back - t0} ready ${instance.name}`);
      // Back in nginx's rotation: it answers page views again.
      await until(`${instance.name} back in rotation`, () => servedBySince(instance.addr, back) >= 5);
    }
    await load.stop();
    // SCALE_DEBUG=<file>: the restart's timeline (events and every request) for a failing run's diagnosis.
    if (process.env.SCALE_DEBUG)
      (await import("node:fs")).writeFileSync(
        process.env.SCALE_DEBUG,
        [
          ...events,
          ...load.outcomes.map((o) => `${o.at - t0} +${o.ms} ${o.status} ${o.upstream} ${o.what}`),
        ].join("\n"),
      );
    const seconds = (Date.now() - t0) / 1000;
    const failed = load.outcomes.filter((o) => !o.ok);
    const gets = load.outcomes.filter((o) => o.what.startsWith("GET"));
    const posts = load.outcomes.filter((o) => o.what.startsWith("POST"));
    const upstreamPosts = settingsCalls().length - callsBefore;
    // Page views a draining instance answered 503 and nginx passed on to the other one.
    const passedOn = load.outcomes.filter((o) => o.upstream.includes(",")).length;
    console.log(
      `rolling restart: ${load.outcomes.length} requests in ${seconds.toFixed(1)} s ` +
        `(${gets.length} page views, ${posts.length} POSTs), failed: ${failed.length}; ` +
        `POSTs accepted ${load.accepted.length}, reached the api ${upstreamPosts}; ` +
        `passed on by nginx ${passedOn}; slowest ${Math.max(...load.outcomes.map((o) => o.ms))} ms`,
    );
    expect(exitCodes).toEqual([0, 0]);
    // No request lost, page view or POST: each instance drained before its listener closed (server.ts),
    // so no POST was reset in its accept queue.
    expect(summarise(failed)).toEqual({});
    // Every POST was accepted, and each accepted one reached the api exactly once.
    expect(new Set(load.accepted).size).toBe(posts.length);
    expect(upstreamPosts).toBe(load.accepted.length);
    expect(c.a.logs.join("") + c.b.logs.join("")).not.toContain("shutdown timeout");
    // Each drain ended because nginx stopped sending, not at its SHUTDOWN_DRAIN_MS cap.
    expect(c.a.logs.join("") + c.b.logs.join("")).not.toContain("connections still arriving");
  }, 180_000);

  it("on SIGTERM: readiness 503 at once, idle keep-alives end, a request on an accepted connection is served", async () => {
    const a = c.a;
    const connect = () =>
      new Promise<net.Socket>((resolve, reject) => {
        const s = net.connect(a.port, "127.0.0.1", () => resolve(s));
        s.once("error", reject);
      });
    /** Writes a request and reads until the server closes the connection (or 5 s pass). */
    const exchange = (s: net.Socket, request: string) =>
      new Promise<{ text: string; closed: boolean }>((resolve) => {
        let text = "";
        s.on("data", (d) => (text += String(d)));
        const timer = setTimeout(() => resolve({ text, closed: false }), 5_000);
        s.once("close", () => {
          clearTimeout(timer);
          resolve({ text, closed: true });
        });
        if (request) s.write(request);
      });
    // A keep-alive connection that has served one request and is now idle.
    const idle = await connect();
    const first = await new Promise<string>((resolve) => {
      idle.once("data", (d) => resolve(String(d)));
      idle.write("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n");
    });
    expect(first).toMatch(/^HTTP\/1\.1 200/);
    const idleEnd = exchange(idle, "");
    // A connection accepted before the shutdown whose request has not been sent yet.
    const fresh = await connect();
    const exited = a.stop("SIGTERM");
    // Connecting every 50 ms keeps the drain open until its SHUTDOWN_DRAIN_MS cap (3 s), then it is refused.
    for (
      let i = 0;
      i < 200 &&
      (await connect().then(
        (s) => (s.destroy(), true),
        () => false,
      ));
      i++
    )
      await new Promise((r) => setTimeout(r, 50));
    expect((await idleEnd).closed).toBe(true);
    const answer = await exchange(fresh, "GET /readyz HTTP/1.1\r\nHost: a\r\n\r\n");
    expect(answer.text).toMatch(/^HTTP\/1\.1 503/);
    expect(answer.text).toContain('"shuttingDown":true');
    expect(answer.closed).toBe(true);
    expect(await exited).toBe(0);
    await a.start();
  }, 60_000);

  it("on SIGTERM the listener drains: page views 503 at once, a POST on a new connection is served, then it closes", async () => {
    const a = c.a;
    /** One request on a connection of its own, straight to the instance (as nginx does: no keep-alive). */
    const direct = (method: string, p: string, body?: string) =>
      new Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
        const headers: Record<string, string> = {
          cookie: cookieA,
          host: "localhost",
          "x-forwarded-proto": "https",
        };
        if (body) {
          headers["content-type"] = "application/x-www-form-urlencoded";
          headers["content-length"] = String(Buffer.byteLength(body));
        }
        const req = http.request(
          { host: "127.0.0.1", port: a.port, method, path: p, headers, agent: false },
          (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (d: string) => (text += d));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    const page = await c.request("/locations/104/control", { headers: { cookie: cookieA } });
    // Roastery Floor (1010): a thermostat of location 104 that the load loops leave alone.
    const form = page.body.split("<form").find((f) => f.includes('name="thermostatId" value="1010"'))!;
    expect(form).toBeDefined();
    const submissionId = randomUUID();
    const post = new URLSearchParams({
      thermostatId: "1010",
      tab: field(form, "tab"),
      submissionId,
      mode: "cool",
      coolSetpointF: String(Number(field(form, "coolSetpointF")) + 1),
      heatSetpointF: field(form, "heatSetpointF"),
      intent: "save",
    }).toString();
    const callsBefore = settingsCalls().length;
    const logsBefore = a.logs.length;

    const exited = a.stop("SIGTERM");
    // The shutdown has begun once /readyz answers 503 (each probe a new connection, accepted: the drain).
    let ready = 200;
    for (let i = 0; i < 200 && ready !== 503; i++) {
      ready = (await direct("GET", "/readyz")).status;
      if (ready !== 503) await new Promise((r) => setTimeout(r, 20));
    }
    expect(ready).toBe(503);
    // A page view is refused at once, before any work: nginx passes it on and counts a failure.
    const view = await direct("GET", "/locations");
    expect(view.status).toBe(503);
    expect(view.headers["retry-after"]).toBe("1");
    expect(view.headers.connection).toBe("close");
    // A POST on a connection made during the drain is served (nginx would never resend it).
    const saved = await direct("POST", "/locations/104/control", post);
    expect(saved.status).toBe(302);
    expect(saved.headers.location).toMatch(/watch=\d+%3A\d+/);
    expect(settingsCalls().length - callsBefore).toBe(1);
    // No more connections: the drain ends on its quiet period, not its cap, and the process exits cleanly.
    expect(await exited).toBe(0);
    const logs = a.logs.slice(logsBefore).join("");
    expect(logs).not.toContain("connections still arriving");
    expect(logs).not.toContain("shutdown timeout");
    await a.start();
  }, 60_000);

  it("a SIGKILLed instance costs at most its requests in flight, and nginx stops sending to it", async () => {
    const callsBefore = settingsCalls().length;
    const getLoops = 4;
    const postLoops = 2;
    const load = startLoad(getLoops, postLoops);
    await until("load", () => load.outcomes.length >= 20);
    await c.b.stop("SIGKILL");
    // When B is seen to exit, the kernel has closed its sockets: a request sent to B later is refused (and
    // passed on). One sent between the signal and the exit was in flight on it (a loaded machine: ~100 ms).
    const killedAt = Date.now();
    await new Promise((r) => setTimeout(r, 8_000));
    await load.stop();
    const failed = load.outcomes.filter((o) => !o.ok);
    const after = load.outcomes.filter((o) => o.at > killedAt);
    // Attempts at the dead instance after the kill (nginx then retried them on A).
    const triedB = after.filter((o) => o.upstream.includes(c.b.addr)).length;
    const upstreamPosts = settingsCalls().length - callsBefore;
    console.log(
      `SIGKILL of B: ${load.outcomes.length} requests, failed ${failed.length} ` +
        `(${failed.map((f) => `${f.what} ${f.status}`).join("; ") || "none"}); ` +
        `${after.length} after the kill, ${triedB} of them tried B first`,
    );
    // At most one request in flight per loop when B died, and none started after it had died failed.
    expect(failed.length).toBeLessThanOrEqual(getLoops + postLoops);
    for (const f of failed) expect(f.at).toBeLessThanOrEqual(killedAt);
    // Passive health: after max_fails failures B is left out for fail_timeout (3 s): a handful of tries in 8 s.
    expect(after.length).toBeGreaterThan(20);
    expect(triedB).toBeLessThanOrEqual(2 * 4);
    for (const o of after) expect(answeredBy(o)).toBe(c.a.addr);
    // No POST reached the api twice; one in flight on B may have reached it without an answer.
    expect(upstreamPosts).toBeGreaterThanOrEqual(load.accepted.length);
    expect(upstreamPosts).toBeLessThanOrEqual(
      load.accepted.length + failed.filter((f) => f.what.startsWith("POST")).length,
    );
    await c.b.start();
  }, 120_000);
});
