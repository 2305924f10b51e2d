import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  answeredBy,
  missingTools,
  sessionOn,
  startCluster,
  type Cluster,
  type WebInstance,
} from "../scale/cluster";
import { DANA, PAGES } from "../support/pages";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { CONTROL, settingsForms, startLoad, type Load, type Sample } from "./load";

/**
 * Dependency faults with the real parts, under load: redis-server, the reference api as its own process
 * (its database on disk, so it survives a restart as a real api's would), two production web instances and
 * Debian's nginx in front (tests/scale/cluster.ts), which keeps each session on one instance; the load uses
 * one session on each. Each scenario injects one fault while a steady mix of page views, sign-ins,
 * readiness probes and idempotent thermostat changes runs, then proves: (a) no web
 * process exited, (b) no request waited past UPSTREAM_TIMEOUT_MS + a margin, (c) sign-in works during the
 * fault (or, without the api, fails at once) and after it, (d) each instance's /readyz says what is true,
 * during and after, (e) every change sent during the fault was applied exactly once, read from the api's
 * own database: a change not accepted is resent with its submission id until it is, and where a scenario
 * says so every accepted change is clicked a second time at once. A summary (faults, requests, worst
 * answer, statuses) is printed at the end. Run by `npm run test:faults` after `npm run build`;
 * FAULTS_DEBUG=<dir> writes each scenario's timeline there.
 */
const missing = missingTools();
if (missing) console.warn(`fault suite skipped: ${missing}`);

/**
 * Short, so that a request waiting on a dead upstream shows quickly; the bound of (b) is this + MARGIN_MS. Not
 * shorter: on the 2-core machine shared with other work (load average 20 and more while five sessions test), a
 * healthy api can take seconds to answer a sign-in, and 2 s made a sign-in fail now and then (502).
 */
const UPSTREAM_TIMEOUT_MS = 4_000;
/** Rendering and scheduling on a shared 2-core machine, on top of the upstream time-out. */
const MARGIN_MS = 6_000;
const WORST_ALLOWED_MS = UPSTREAM_TIMEOUT_MS + MARGIN_MS;
/**
 * A Redis outage lasts longer than the bound, so that a request waiting on Redis until it returns shows as
 * too slow instead of slipping under the bound.
 */
const REDIS_OUTAGE_MS = WORST_ALLOWED_MS + 1_000;
/** Readiness caches its checks for 1 s and each check may take 1 s: the truth is due within this. */
const READINESS_LAG_MS = 2_500;
const THERMOSTATS = ["1011", "1012"];
/** Roastery Floor, a thermostat of location 104 that the load leaves alone (its changes are the scenario's own). */
const SPARE = "1010";

let c: Cluster;
/** The api's mail server (SMTP_URL): a real SMTP server the mail scenario takes down. */
let smtp: TestSmtp;
/** Dana's sessions whose cookies nginx sends to instance A and to instance B (the load uses both). */
let cookies: string[];
let dir: string;
let dbFile: string;

type Readiness = { status: string; checks: { api: string; redis: string } };
const readinessOf = (s: Sample): Readiness | null => {
  try {
    return JSON.parse(s.body) as Readiness;
  } catch {
    return null;
  }
};

async function readyz(instance: WebInstance) {
  const res = await fetch(`${instance.url}/readyz`, { signal: AbortSignal.timeout(5_000) });
  return { status: res.status, body: (await res.json()) as Readiness };
}

async function until(what: string, ok: () => Promise<boolean> | boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (
    !(await Promise.resolve()
      .then(ok)
      .catch((error: unknown) => {
        last = error;
        return false;
      }))
  ) {
    if (/exited/.test(String(last))) throw last as Error;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${String(last ?? "")})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sleepUntil = (t: number) => sleep(Math.max(0, t - Date.now()));
const bothReady = async () =>
  (await Promise.all([c.a, c.b].map((i) => readyz(i)))).every(
    (r) => r.status === 200 && r.body.status === "ready",
  );

/** The api's thermostat actions created after `afterId` for `thermostats` (its database, read-only). */
function actionsSince(afterId: number, thermostats = THERMOSTATS) {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `SELECT id, thermostat_id FROM thermostat_actions WHERE id > ? AND thermostat_id IN (${thermostats.map(() => "?").join(",")}) ORDER BY id`,
      )
      .all(afterId, ...thermostats) as { id: number; thermostat_id: number }[];
  } finally {
    db.close();
  }
}
/**
 * Two cool setpoints for a thermostat's changes: inside the device's limits and both unlike its current setting.
 * Read from the api's database, which the changes never move: the suite's api keeps every command pending for an
 * hour (tests/scale/api-process.ts), so the device's own setting stays as seeded. (The load used to add 1 or 2
 * to the value its form showed, which is the latest change ASKED for: each scenario started where the last had
 * stopped, and after a few scenarios Warehouse, seeded at 76 °F, asked for 91 °F, above its 90 °F limit, and
 * every try was rightly refused with a 400.)
 */
function changeSetpoints(thermostatId: string): [number, number] {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const t = db
      .prepare(
        "SELECT cool_setpoint_f AS cool, min_setpoint_f AS min, max_setpoint_f AS max FROM thermostats WHERE id = ?",
      )
      .get(Number(thermostatId)) as { cool: number; min: number; max: number };
    return t.cool - 2 >= t.min ? [t.cool - 1, t.cool - 2] : [t.cool + 1, t.cool + 2];
  } finally {
    db.close();
  }
}

function lastActionId() {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT COALESCE(MAX(id), 0) AS id FROM thermostat_actions").get() as { id: number })
      .id;
  } finally {
    db.close();
  }
}

/** Every scenario's figures, for the summary printed at the end (and quoted in the README). */
const summary: { fault: string; requests: number; worstMs: number; statuses: Record<string, number> }[] = [];

type Run = {
  load: Load;
  faultStart: number;
  faultEnd: number;
  recoveredAt: number;
  during: Sample[];
  after: Sample[];
  firstAction: number;
  exitsBefore: number[];
};

/**
 * The common frame: a healthy cluster, load, `inject` (which returns once the fault is over, and has checked
 * readiness while it lasted), both instances ready again, two more seconds of load, then the checks every
 * fault shares: no process exited, no answer slower than the bound, everything accepted applied exactly once.
 */
async function underLoad(
  fault: string,
  /** Injects the fault and ends it; answers when the fault ended, if before it returns (Redis launched again). */
  inject: (faultStart: number) => Promise<number | void>,
  { repeat = false }: { repeat?: boolean } = {},
): Promise<Run> {
  const firstAction = lastActionId();
  const exitsBefore = [c.a.exits.length, c.b.exits.length];
  const load = await startLoad(c, [c.a, c.b], {
    cookies,
    thermostats: THERMOSTATS,
    setpoints: Object.fromEntries(THERMOSTATS.map((t) => [t, changeSetpoints(t)])),
    clientTimeoutMs: WORST_ALLOWED_MS + 5_000,
    maxRequests: 3_000,
    maxMs: 60_000,
    repeat,
  });
  let faultStart = 0;
  let faultEnd = 0;
  let recoveredAt = 0;
  try {
    await until("load", () => load.samples.filter((s) => s.ok).length >= 10);
    faultStart = Date.now();
    faultEnd = (await inject(faultStart)) ?? Date.now();
    await until("both instances ready again", bothReady, 30_000);
    recoveredAt = Date.now();
    // Two more seconds of load, and then until every kind of request has been sent and answered after the
    // recovery (a sign-in under way at the recovery can take longer than two seconds on a busy machine; the
    // checks below need one sent after it, not the luck of one fitting in).
    await sleep(2_000);
    await until("a page view, a sign-in and each instance's readiness after the recovery", () => {
      const after = load.between(recoveredAt).filter((x) => x.ms >= 0 && x.at + x.ms <= Date.now());
      return (
        after.some((x) => x.kind === "page") &&
        after.some((x) => x.kind === "signin") &&
        [c.a, c.b].every((i) =>
          after.some(
            (x) =>
              x.what === `GET /readyz ${i.name}` &&
              x.at >= recoveredAt + 1_000 &&
              x.status === 200 &&
              readinessOf(x)?.status === "ready",
          ),
        )
      );
    });
  } finally {
    await load.stop();
  }
  const statuses: Record<string, number> = {};
  for (const s of load.samples) {
    const key = s.stale ? "stale keep-alive" : String(s.status);
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  const worstMs = Math.max(...load.samples.map((s) => s.ms));
  summary.push({ fault, requests: load.samples.length, worstMs, statuses });
  const slow = load.samples.filter((s) => s.ms > WORST_ALLOWED_MS);
  const repeats = load.submissions.filter((s) => s.repeatActionId !== undefined);
  // FAULTS_DEBUG=<dir>: each scenario's timeline (every request, ms from the fault) for a failing run's diagnosis.
  if (process.env.FAULTS_DEBUG)
    fs.writeFileSync(
      path.join(process.env.FAULTS_DEBUG, `${fault.replace(/\W+/g, "-")}.log`),
      [
        `fault ${faultEnd - faultStart} ms, ready again at +${recoveredAt - faultStart} ms`,
        ...load.samples.map(
          (s) =>
            `${s.at - faultStart} +${s.ms} ${s.status} ${s.what} ${s.error ?? ""} ${s.kind === "readyz" ? s.body : ""}`,
        ),
      ].join("\n"),
    );
  console.log(
    `${fault}: ${load.samples.length} requests, worst ${worstMs} ms, statuses ${JSON.stringify(statuses)}; ` +
      `fault ${faultEnd - faultStart} ms, ready again ${recoveredAt - faultEnd} ms later; ` +
      `${load.submissions.length} changes, ${load.submissions.filter((s) => s.statuses.length > 1).length} resent` +
      (repeat ? `, ${repeats.length} clicked twice` : ""),
  );

  // (a) Both web processes are still the ones that started: none exited.
  expect({ A: c.a.alive, B: c.b.alive }).toEqual({ A: true, B: true });
  expect([c.a.exits.length, c.b.exits.length]).toEqual(exitsBefore);
  // (b) Nothing waited past the upstream time-out plus the margin.
  expect(slow.map((s) => `${s.what} ${s.status} ${s.ms} ms ${s.error ?? ""}`)).toEqual([]);
  // (e) Every change was accepted in the end, each by exactly one api action, and no action is unaccounted.
  const notAccepted = load.submissions.filter((s) => s.actionId === null);
  expect(notAccepted.map((s) => `${s.thermostatId} ${s.statuses.join(",")}`)).toEqual([]);
  // A second click answers the first one's action (the api's database below shows it made no other): on the
  // instance that ran the first one (its own memory knows it whatever Redis does), then on the other one.
  const doubled = (sameInstance: boolean) =>
    repeats
      .filter((s) => (s.acceptedBy === s.repeatedBy) === sameInstance && s.repeatActionId !== s.actionId)
      .map((s) => `action ${s.actionId} (${s.acceptedBy}) then ${s.repeatActionId} (${s.repeatedBy})`);
  expect(doubled(true), "second clicks on the same instance").toEqual([]);
  expect(
    doubled(false),
    `second clicks on the other instance (${repeats.filter((s) => s.acceptedBy !== s.repeatedBy).length} of ${repeats.length})`,
  ).toEqual([]);
  const accepted = load.submissions.map((s) => s.actionId);
  expect(new Set(accepted).size).toBe(accepted.length);
  expect(actionsSince(firstAction).map((a) => a.id)).toEqual(
    [...(accepted as number[])].sort((x, y) => x - y),
  );
  expect(load.submissions.length).toBeGreaterThanOrEqual(2);

  return {
    load,
    faultStart,
    faultEnd,
    recoveredAt,
    during: load.between(faultStart, faultEnd),
    after: load.between(recoveredAt),
    firstAction,
    exitsBefore,
  };
}

/** Each instance's readiness while the fault lasts: polled directly until it admits `check` is failing. */
async function readinessAdmits(check: "api" | "redis") {
  for (const instance of [c.a, c.b]) {
    await until(
      `${instance.name}'s /readyz to report ${check} failing`,
      async () => {
        if (!instance.alive)
          throw new Error(`web ${instance.name} exited: ${JSON.stringify(instance.exits)}`);
        const r = await readyz(instance);
        return r.body.checks[check] === "failing" && r.body.status !== "ready";
      },
      READINESS_LAG_MS + 2_000,
    );
  }
}

/**
 * Starts Redis again and answers the instant it was launched: the fault's end. `c.redis.start()` returns once
 * Redis answers, so a readiness probe between the two truthfully says Redis is back; that is not the outage.
 */
async function redisBack() {
  const launched = Date.now();
  await c.redis.start();
  return launched;
}

/**
 * Readiness samples of the load: none answered while the fault lasted says "ready" once the fault has had
 * time to show (an answer that came after the fault ended may say ready: a frozen Redis answers the queued
 * PING the moment it is continued).
 */
function readinessTruthful(run: Run, check: "api" | "redis") {
  const lying = run.load
    .between(run.faultStart + READINESS_LAG_MS, run.faultEnd)
    .filter((s) => s.kind === "readyz" && s.at + s.ms < run.faultEnd)
    .filter((s) => {
      const r = readinessOf(s);
      return s.status === 0 || !r || r.status === "ready" || r.checks[check] !== "failing";
    });
  expect(lying.map((s) => `${s.what} ${s.status} ${s.body}`)).toEqual([]);
  // After: every probe from a readiness cache period after both were seen ready answers with its checks, and each
  // instance says ready again in them. Not every single probe: on the shared 2-core machine (load average 15 to
  // 25 while other sessions test) a check can miss its own limit (1 s for the api, 250 ms for a Redis command)
  // once, and readiness then truthfully reports that dependency slow; `until(bothReady)` has already required
  // both instances ready.
  const after = run.load.between(run.recoveredAt + 1_000).filter((s) => s.kind === "readyz");
  expect(after.length).toBeGreaterThan(0);
  expect(after.filter((s) => !readinessOf(s)).map((s) => `${s.what} ${s.status} ${s.error ?? ""}`)).toEqual(
    [],
  );
  for (const instance of [c.a, c.b]) {
    const own = after.filter((s) => s.what === `GET /readyz ${instance.name}`);
    expect(
      own.some((s) => s.status === 200 && readinessOf(s)?.status === "ready"),
      `${instance.name} ready after ${check} came back: ${own.map((s) => s.body).join(" ")}`,
    ).toBe(true);
  }
}

/** While Redis is away the site keeps working: every page, sign-in and change answered as usual. */
function servedThroughout(run: Run) {
  const failed = run.load.samples.filter((s) => s.kind !== "readyz" && !s.ok && !s.stale);
  expect(failed.map((s) => `${s.what} ${s.status} ${s.error ?? ""}`)).toEqual([]);
  const signIns = (xs: Sample[]) => xs.filter((s) => s.kind === "signin");
  expect(signIns(run.during).length).toBeGreaterThan(0);
  expect(signIns(run.after).length).toBeGreaterThan(0);
}

/** The api action a thermostat change's redirect names (`?watch=<thermostat>:<action>`), or null. */
const actionOf = (location: string | null) => {
  const watch = /watch=\d+%3A(\d+)/.exec(location ?? "");
  return watch ? Number(watch[1]) : null;
};

/**
 * A form POST straight to one instance, bypassing nginx (as nginx would send it: its own connection, the
 * public Host and scheme in the forwarded headers).
 */
function postDirect(instance: WebInstance, p: string, cookie: string, body: string) {
  return new Promise<{ status: number; location: string | null }>((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: instance.port,
        method: "POST",
        path: p,
        agent: false,
        timeout: WORST_ALLOWED_MS,
        headers: {
          cookie,
          host: "localhost",
          "x-forwarded-proto": "https",
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, location: (res.headers.location as string) ?? null }),
        );
      },
    );
    req.on("timeout", () => req.destroy(new Error("client timeout")));
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * While Redis is away, one change on the spare thermostat, clicked twice through nginx, then the same
 * submission sent straight to the OTHER instance. The first two are answered by the instance that took the
 * first (one cookie, one instance, whose memory knows the submission); the third reaches an instance that never
 * saw the submission and cannot ask Redis, so it sends it upstream again, with the same Idempotency-Key: the
 * api answers it with the first change. (Before the key, this was the deployment's documented limit: a second
 * change.) Only a client that bypasses nginx, or a repeat after its instance died, gets there.
 */
async function clickTwiceThenBypass() {
  const cookie = cookies[0];
  const f = (await settingsForms(c, cookie, [SPARE]))[SPARE];
  const body = new URLSearchParams({
    thermostatId: SPARE,
    tab: f.tab,
    submissionId: randomUUID(),
    mode: "cool",
    coolSetpointF: String(changeSetpoints(SPARE)[0]),
    heatSetpointF: f.heat,
    intent: "save",
  });
  const post = () => c.request(CONTROL, { method: "POST", headers: { cookie }, body });
  const first = await post();
  const again = await post();
  const other = answeredBy(first) === c.a.addr ? c.b : c.a;
  const bypass = await postDirect(other, CONTROL, cookie, body.toString());
  return {
    first: { by: answeredBy(first), action: actionOf(first.location) },
    again: { by: answeredBy(again), action: actionOf(again.location) },
    bypass: { by: other.addr, action: actionOf(bypass.location) },
  };
}

/** Brings back whatever a failed scenario left down, so that each scenario starts from a healthy cluster. */
async function heal() {
  if (!c.redis.child || c.redis.child.exitCode !== null || c.redis.child.signalCode !== null) {
    await c.redis.start();
  } else c.redis.child.kill("SIGCONT");
  if (!c.api.alive) await c.api.start();
  for (const instance of [c.a, c.b]) if (!instance.alive) await instance.start({ until: "healthz" });
  await until("a healthy cluster", bothReady, 30_000);
}

/** The api's outbox rows after `afterId` (its database, read-only). */
function outboxSince(afterId: number) {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT id, status, message_id FROM outbox WHERE id > ? ORDER BY id").all(afterId) as {
      id: number;
      status: string;
      message_id: string;
    }[];
  } finally {
    db.close();
  }
}

describe.skipIf(!!missing)("dependency faults under load (two instances, nginx, Redis, the api)", () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "faults-"));
    dbFile = path.join(dir, "api.sqlite");
    smtp = await startSmtp();
    // The api process takes its settings from the environment, as a deployed one does.
    process.env.SMTP_URL = smtp.url;
    process.env.MAIL_FROM = "EnergyOps <alerts@energyops.test>";
    c = await startCluster(
      { UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS) },
      {
        portBase: Number(process.env.FAULTS_PORT_BASE ?? 4620),
        apiDbFile: dbFile,
        // The api's test hooks: its fault point after commit (api/lib/fault-points.ts).
        apiEnv: { ENABLE_TEST_HOOKS: "true" },
      },
    );
    cookies = [(await sessionOn(c, c.a.addr, DANA)).cookie, (await sessionOn(c, c.b.addr, DANA)).cookie];
    // Seeding the api's database file (a million history rows) and starting five processes: on the shared
    // 2-core machine at a load average of 20 this once took longer than two minutes.
  }, 300_000);

  beforeEach(async () => {
    await heal();
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
    await smtp?.stop();
    delete process.env.SMTP_URL;
    delete process.env.MAIL_FROM;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    if (summary.length) {
      const requests = summary.reduce((n, s) => n + s.requests, 0);
      const statuses: Record<string, number> = {};
      for (const s of summary)
        for (const [k, v] of Object.entries(s.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
      console.log(
        `fault suite: ${summary.length} faults injected, ${requests} requests, worst answer ` +
          `${Math.max(...summary.map((s) => s.worstMs))} ms (bound ${WORST_ALLOWED_MS} ms), statuses ` +
          `${JSON.stringify(statuses)}\n` +
          summary.map((s) => `  ${s.fault}: ${s.requests} requests, worst ${s.worstMs} ms`).join("\n"),
      );
    }
  });

  it("the api killed (SIGKILL) and restarted: pages answer their error state with 502/503 at once, then recover", async () => {
    const run = await underLoad(
      "api SIGKILL + restart",
      async () => {
        await c.api.stop("SIGKILL");
        await readinessAdmits("api");
        await sleep(2_000);
        await c.api.start();
      },
      { repeat: true },
    );
    readinessTruthful(run, "api");
    // While the api was away: every page view and sign-in that failed answered 502 or 503 (a monitor sees an
    // outage), a page view with its screen's error text; none hung (checked above).
    const failed = run.during.filter((s) => s.kind !== "readyz" && !s.ok && !s.stale);
    expect(failed.length).toBeGreaterThan(0);
    for (const s of failed) expect([502, 503], `${s.what} ${s.status} ${s.error ?? ""}`).toContain(s.status);
    for (const s of failed.filter((x) => x.kind === "page" && x.status === 502)) {
      // The screen's own error text, or the spec's global error when a layout's call failed first.
      const texts = [
        PAGES.find((x) => s.what === `GET ${x.path}`)?.errorText,
        "We're sorry. An error has occurred.",
      ];
      const shown = texts.filter((t) => t && s.body.includes(t.replace(/'/g, "&#x27;")));
      expect(shown, `${s.what}: the screen's error text`).not.toEqual([]);
    }
    // After: everything works again, sign-in included.
    const after = run.after.filter((s) => s.kind !== "readyz" && !s.stale);
    expect(after.filter((s) => !s.ok).map((s) => `${s.what} ${s.status}`)).toEqual([]);
    expect(after.some((s) => s.kind === "signin")).toBe(true);
  }, 90_000);

  it("a change the api committed just before it died (its fault point) is applied once when sent again", async () => {
    // Deterministic: the api's test-hook fault point (api/lib/fault-points.ts) commits the change, then the api
    // SIGKILLs itself instead of answering; the load's random kill only sometimes lands in that window.
    const cookie = cookies[0];
    const before = lastActionId();
    const f = (await settingsForms(c, cookie, [SPARE]))[SPARE];
    const body = new URLSearchParams({
      thermostatId: SPARE,
      tab: f.tab,
      submissionId: randomUUID(),
      mode: "cool",
      coolSetpointF: String(changeSetpoints(SPARE)[1]),
      heatSetpointF: f.heat,
      intent: "save",
    });
    const armed = await fetch(`${c.api.url}/dev/faults/after-commit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "POST", path: `^/thermostats/${SPARE}/settings$`, mode: "exit" }),
    });
    expect(armed.status).toBe(200);
    const died = new Promise((r) => c.api.child!.once("exit", r));
    const first = await c.request(CONTROL, { method: "POST", headers: { cookie }, body });
    await died;
    // The api made the change and died before saying so: the web tier answers its error state (with the api
    // down the page is the outage's; tests/reliability/uncertain-write.test.ts and the e2e spec show the card's
    // message when only the answer was lost).
    const made = actionsSince(before, [SPARE]).map((a) => a.id);
    expect(made).toHaveLength(1);
    expect(first.status).toBe(502);
    await c.api.start();
    await until("both instances ready again", bothReady, 30_000);
    // The same button again: the api answers with the change it made; nothing is made twice.
    const again = await c.request(CONTROL, { method: "POST", headers: { cookie }, body });
    expect({ status: again.status, action: actionOf(again.location) }).toEqual({
      status: 302,
      action: made[0],
    });
    expect(actionsSince(before, [SPARE]).map((a) => a.id)).toEqual(made);
  }, 60_000);

  it("nginx reloaded (nginx -s reload) under load: no request fails", async () => {
    const run = await underLoad(
      "nginx reload",
      async () => {
        c.nginx.reload();
        await sleep(3_000);
        c.nginx.reload();
        await sleep(2_000);
      },
      { repeat: true },
    );
    // nginx's documented reload: old workers finish their requests and close their idle keep-alive
    // connections; a request sent on one at that instant gets no answer and is sent again by the client on
    // a new connection (the driver does, as browsers do). Nothing else may fail, and nothing may be lost.
    const failed = run.load.samples.filter((s) => !s.ok && !s.stale);
    expect(failed.map((s) => `${s.what} ${s.status} ${s.error ?? ""}`)).toEqual([]);
    const stale = run.load.samples.filter((s) => s.stale);
    // At most one per loop through nginx (two of pages, one of sign-ins, two of changes) and reload.
    expect(stale.length).toBeLessThanOrEqual(2 * 5);
    expect(run.during.filter((s) => s.kind === "signin" && s.ok).length).toBeGreaterThan(0);
  }, 90_000);

  it("Redis shut down (SHUTDOWN NOSAVE) and restarted on the same port", async () => {
    const run = await underLoad("Redis SHUTDOWN NOSAVE + restart", async (t0) => {
      await c.redis.shutdownNosave();
      await readinessAdmits("redis");
      await sleepUntil(t0 + REDIS_OUTAGE_MS);
      return redisBack();
    });
    readinessTruthful(run, "redis");
    servedThroughout(run);
  }, 90_000);

  it("Redis killed (SIGKILL) and restarted on the same port", async () => {
    const run = await underLoad("Redis SIGKILL + restart", async (t0) => {
      await c.redis.signal("SIGKILL");
      await readinessAdmits("redis");
      await sleepUntil(t0 + REDIS_OUTAGE_MS);
      return redisBack();
    });
    readinessTruthful(run, "redis");
    servedThroughout(run);
  }, 90_000);

  it("Redis frozen (SIGSTOP) for a few seconds, then continued (SIGCONT)", async () => {
    const run = await underLoad("Redis SIGSTOP + SIGCONT", async (t0) => {
      await c.redis.signal("SIGSTOP");
      await readinessAdmits("redis");
      await sleepUntil(t0 + REDIS_OUTAGE_MS);
      await c.redis.signal("SIGCONT");
    });
    readinessTruthful(run, "redis");
    servedThroughout(run);
  }, 90_000);

  it("a change clicked twice (the same submission id) while Redis is down is applied once", async () => {
    // While Redis is away each instance knows only the submissions it took itself. nginx keeps each
    // session on one instance (docs/deploy.md), and a double click sends the same cookie twice, so the
    // second click reaches the instance that took the first and is answered with its action.
    const spareBefore = lastActionId();
    let probe: Awaited<ReturnType<typeof clickTwiceThenBypass>> | undefined;
    const run = await underLoad(
      "Redis SIGKILL + restart, every change clicked twice",
      async (t0) => {
        await c.redis.signal("SIGKILL");
        await readinessAdmits("redis");
        probe = await clickTwiceThenBypass();
        // Still inside the outage: the probe's answers came from memory, not from Redis.
        expect(c.redis.child?.signalCode).toBe("SIGKILL");
        await sleepUntil(t0 + REDIS_OUTAGE_MS);
        return redisBack();
      },
      { repeat: true },
    );
    servedThroughout(run);
    // The load's sessions put changes on both instances, and every second click was answered by the
    // instance that took the first (underLoad has checked each was applied once, in the api's database).
    const repeats = run.load.submissions.filter((s) => s.repeatActionId !== undefined);
    expect(new Set(repeats.map((s) => s.acceptedBy))).toEqual(new Set([c.a.addr, c.b.addr]));
    expect(
      repeats.filter((s) => s.repeatedBy !== s.acceptedBy).map((s) => `${s.acceptedBy} then ${s.repeatedBy}`),
    ).toEqual([]);
    // The probe during the outage: through nginx, one instance and one action; straight to the other
    // instance, which sends it upstream again, the same action (the api's Idempotency-Key answers it).
    const { first, again, bypass } = probe!;
    expect(first.action).not.toBeNull();
    expect(again).toEqual(first);
    expect(bypass.by).not.toBe(first.by);
    expect(bypass.action).toBe(first.action);
    expect(actionsSince(spareBefore, [SPARE]).map((a) => a.id)).toEqual([first.action]);
  }, 90_000);

  it("web instances started while Redis's port is closed, Redis started later", async () => {
    for (const instance of [c.a, c.b]) expect(await instance.stop("SIGTERM")).toBe(0);
    await c.redis.stop();
    for (const instance of [c.a, c.b]) await instance.start({ until: "healthz" });
    const run = await underLoad("web started without Redis, Redis started later", async (t0) => {
      await readinessAdmits("redis");
      await sleepUntil(t0 + REDIS_OUTAGE_MS);
      return redisBack();
    });
    readinessTruthful(run, "redis");
    servedThroughout(run);
  }, 120_000);
  it("the mail server down under load, then back: the site is served and every email written meanwhile arrives once", async () => {
    const before = outboxSince(0).at(-1)?.id ?? 0;
    const people = ["sam@harborcoffee.test", "priya@harborcoffee.test", "tomas@harborcoffee.test"];
    const requests: { status: number; ms: number }[] = [];
    const run = await underLoad("SMTP down + back", async () => {
      await smtp.setMode("down");
      for (const email of people) {
        const started = Date.now();
        const r = await postDirect(
          c.a,
          `/login?email=${encodeURIComponent(email)}`,
          "",
          new URLSearchParams({ intent: "request-code", email, next: "/" }).toString(),
        );
        requests.push({ status: r.status, ms: Date.now() - started });
      }
      await sleep(3_000);
      await smtp.setMode("accept");
    });
    servedThroughout(run);
    // Each code request was answered as usual (the email written, not waited for) within the bound.
    expect(requests.filter((r) => r.status !== 200 || r.ms > WORST_ALLOWED_MS)).toEqual([]);
    const written = outboxSince(before);
    expect(written).toHaveLength(people.length);
    // Their first tries met a closed port; their retries (5–10 s later) find the server back.
    await until(
      "every email written during the outage delivered",
      () => outboxSince(before).every((r) => r.status === "sent"),
      30_000,
    );
    await sleep(1_000);
    expect(written.map((r) => smtp.withMessageId(r.message_id).length)).toEqual(people.map(() => 1));
  }, 120_000);
});
