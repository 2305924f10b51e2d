import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSentryReceiver, type SentryEvent } from "../support/sentry-receiver";
import { fuzzCase, type CaseOptions, type FuzzCase } from "./arbitraries";
import { abbreviate, describeCase } from "./describe";
import { routePatterns, validSegmentValues, type RoutePattern } from "./manifest";
import { sendRaw, type RawAnswer } from "./raw-http";
import { startFuzzTarget, toRawRequest, type FuzzTarget } from "./target";

/**
 * A generative hostile-request suite: for every route of the built manifest (and the server's own endpoints)
 * and every method, generated paths, queries, headers, bodies and sessions. Each answer must arrive within a
 * second, never be a 5xx (the api behind is healthy: no 5xx can be the dependency's), the server process must
 * stay alive with its memory bounded, and no error report may reach Sentry.
 *
 * `npm run test:fuzz` runs with a fixed seed for FUZZ_SECONDS (default 80, split between the properties);
 * `FUZZ_SEED=random FUZZ_SECONDS=600 npm run test:fuzz` explores longer; a failure prints its seed and path,
 * and `FUZZ_PROPERTY=… FUZZ_SEED=… FUZZ_PATH=…` replays exactly the shrunk counter-example. The server trusts
 * its peer as a proxy (TRUST_PROXY=1, as behind nginx); `FUZZ_TRUST_PROXY=0` fuzzes one reached directly.
 */

const DEFAULT_SEED = 20261126;
const SEED =
  process.env.FUZZ_SEED === "random"
    ? (Date.now() ^ Math.floor(Math.random() * 2 ** 31)) | 0
    : Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);
const SECONDS = Number(process.env.FUZZ_SECONDS ?? 80);
const SHRINK_SECONDS = Number(process.env.FUZZ_SHRINK_SECONDS ?? 30);
const REPLAY_PATH = process.env.FUZZ_PATH;
const ONLY = process.env.FUZZ_PROPERTY;
/**
 * FUZZ_CONTINUE=1: do not stop at the first failure; sort every failure into a class (what failed and the
 * server's logged error) and keep the shortest example of each, so one run lists every class still open.
 */
const CONTINUE = process.env.FUZZ_CONTINUE === "1";
/** Every answer, whole, within this time (a per-request abort timer; a timeout is a failure). */
const ANSWER_MS = 1000;
/** Resident memory may grow this much over the warmed-up baseline (the heap is capped at 512 MB). */
const RSS_MARGIN_MB = 300;

const PROPERTIES: { name: string; options: CaseOptions }[] = [
  {
    name: "paths and queries",
    options: { hostilePaths: true, hostileQueries: true, hostileHeaders: false, bodies: "none" },
  },
  {
    name: "headers",
    options: { hostilePaths: false, hostileQueries: false, hostileHeaders: true, bodies: "mutations" },
  },
  {
    name: "form bodies",
    options: {
      hostilePaths: false,
      hostileQueries: false,
      hostileHeaders: false,
      bodies: "mutations",
      methods: ["POST", "PUT", "PATCH", "DELETE"],
    },
  },
  {
    name: "everything at once",
    options: { hostilePaths: true, hostileQueries: true, hostileHeaders: true, bodies: "any" },
  },
];
const selected = ONLY ? PROPERTIES.filter((p) => p.name === ONLY) : PROPERTIES;
if (selected.length === 0)
  throw new Error(`FUZZ_PROPERTY must be one of: ${PROPERTIES.map((p) => p.name).join(", ")}`);
const budgetMs = (SECONDS * 1000) / selected.length;

type Stats = {
  requests: number;
  statuses: Map<string, number>;
  worst: { ms: number; what: string };
  times: number[];
  rss: { baseline: number; peak: number; last: number };
};
const newStats = (): Stats => ({
  requests: 0,
  statuses: new Map(),
  worst: { ms: 0, what: "" },
  times: [],
  rss: { baseline: 0, peak: 0, last: 0 },
});

let patterns: RoutePattern[];
let valid: Map<string, string[]>;
let target: FuzzTarget;
let receiver: Awaited<ReturnType<typeof startSentryReceiver>>;
const total = newStats();
const summaries: string[] = [];
/** The current server process's resident memory once warmed up: the bound is measured from it. */
let baselineMb = 0;

/** Warms every route once (signed in), then takes the memory baseline the bound is measured against. */
async function warmUp(stats: Stats) {
  const cookie = await target.cookie("dana");
  for (const p of patterns) {
    const path = `/${p.segments
      .filter((s) => !s.endsWith("?"))
      .map((s) => (s === "*" ? "x" : s.startsWith(":") ? (valid.get(s.slice(1))?.[0] ?? "1") : s))
      .join("/")}`;
    await sendRaw(
      target.port,
      {
        method: "GET",
        target: path,
        headers: [
          ["Host", `127.0.0.1:${target.port}`],
          ["Cookie", cookie!],
        ],
      },
      10_000,
    );
  }
  baselineMb = target.rssMb();
  stats.rss.peak = Math.max(stats.rss.peak, baselineMb);
}

const statusLabel = (a: RawAnswer) =>
  a.timedOut ? "timeout" : a.status === null ? `no answer (${a.error})` : String(a.status);
const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

type FailureClass = { count: number; example: string };

/** The class of a failure: its first line and the first error the server logged while answering. */
function failureClass(error: Error, serverOutput: string) {
  const why = error.message
    .split("\n")[0]
    .replace(/\d+(?: MB| ms)/g, "N")
    .replace(/\(exit code.*$/, "(died)");
  const logged =
    /"err":"((?:[^"\\]|\\.){0,160})/.exec(serverOutput)?.[1] ??
    /(?:^|\n)(\w*Error: [^\n]{0,160})/.exec(serverOutput)?.[1];
  return logged ? `${why} — server logged: ${logged}` : why;
}

/** Sends one case and checks the properties; throws (a failing run) with what was sent and answered. */
async function check(
  c: FuzzCase,
  prop: number,
  stats: Stats,
  requestIds: Map<string, string>,
  classes?: Map<string, FailureClass>,
) {
  if (await target.ensureAlive()) await warmUp(stats);
  target.trimLogs();
  if (!classes) return checkOnce(c, prop, stats, requestIds);
  const outputBefore = target.outputLength();
  try {
    await checkOnce(c, prop, stats, requestIds);
  } catch (error) {
    const key = failureClass(error as Error, target.outputSince(outputBefore));
    const example = `${describeCase(c)}\n  → ${(error as Error).message.split("\n")[0]}`;
    const known = classes.get(key);
    if (!known || example.length < known.example.length)
      classes.set(key, { count: (known?.count ?? 0) + 1, example });
    else known.count++;
  }
}

async function checkOnce(c: FuzzCase, prop: number, stats: Stats, requestIds: Map<string, string>) {
  const requestId = `fuzz-${prop}-${stats.requests + 1}`;
  requestIds.set(requestId, describeCase(c));
  const raw = toRawRequest(c, target.port, requestId, await target.cookie(c.user));
  const answer = await sendRaw(target.port, raw, ANSWER_MS);
  for (const s of [stats, total]) {
    s.requests++;
    count(s.statuses, statusLabel(answer));
    s.times.push(answer.ms);
    if (answer.ms > s.worst.ms) s.worst = { ms: answer.ms, what: describeCase(c) };
  }
  target.observeSetCookie(c.user, answer.head);
  // A process that crashed while answering is seen dead a moment after the connection drops.
  if (answer.status === null) await new Promise((r) => setTimeout(r, 200));
  const sent = abbreviate(
    `${raw.method} ${raw.target}\n${raw.headers.map(([k, v]) => `${k}: ${v}`).join("\n")}`,
    1500,
  );
  const got = `${abbreviate(answer.head, 800)}\n\n${abbreviate(answer.bodySample, 400)}`;
  const fail = (why: string) => new Error(`${why}\n--- sent:\n${sent}\n--- answered:\n${got}`);
  const rss = target.rssMb();
  if (!target.alive() || Number.isNaN(rss)) throw fail(`the server process died (${target.death()})`);
  stats.rss.last = rss;
  stats.rss.peak = Math.max(stats.rss.peak, rss);
  total.rss.peak = Math.max(total.rss.peak, rss);
  if (answer.timedOut || answer.status === null) {
    // Slow for this request only, or stopped answering altogether (a blocked event loop)?
    if (!(await target.answers()))
      throw fail(`the server stopped answering (even /healthz) after this request`);
    if (answer.timedOut) throw fail(`no complete answer within ${ANSWER_MS} ms`);
    throw fail(`the connection closed without an answer (${answer.error})`);
  }
  if (answer.status >= 500)
    throw fail(`answered ${answer.status}: a 5xx caused by the request (the api is healthy)`);
  if (rss > baselineMb + RSS_MARGIN_MB)
    throw fail(
      `resident memory ${rss.toFixed(0)} MB, over the warmed-up ${baselineMb.toFixed(0)} MB + ${RSS_MARGIN_MB} MB`,
    );
}

function percentile(times: number[], p: number) {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function summary(name: string, s: Stats, seconds: number) {
  const statuses = [...s.statuses].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}×${v}`);
  return [
    `fuzz ${name}: ${s.requests} requests in ${seconds.toFixed(0)} s (seed ${SEED}); statuses ${statuses.join(" ")}`,
    `  answer time p50 ${percentile(s.times, 50).toFixed(0)} ms, p99 ${percentile(s.times, 99).toFixed(0)} ms, worst ${s.worst.ms.toFixed(0)} ms: ${s.worst.what.split("\n")[0]}`,
    `  server RSS ${s.rss.baseline.toFixed(0)} MB before → ${s.rss.last.toFixed(0)} MB after (peak ${s.rss.peak.toFixed(0)} MB); restarts so far ${target.restarts}`,
  ].join("\n");
}

/** Server-side error reports (browser reports forwarded by /client-errors are the endpoint's job). */
const serverEvents = () => receiver.events().filter((e: SentryEvent) => e.tags?.runtime !== "browser");

beforeAll(async () => {
  patterns = await routePatterns();
  valid = validSegmentValues(patterns);
  receiver = await startSentryReceiver();
  target = await startFuzzTarget({ SENTRY_DSN: receiver.dsn, SENTRY_ENVIRONMENT: "fuzz" });
  await warmUp(total);
  total.rss.baseline = baselineMb;
}, 120_000); // the server seeds its demo database and is warmed up before any property runs

afterAll(async () => {
  const rssNow = target?.alive() ? target.rssMb() : NaN;
  console.log(
    [
      ...summaries,
      `fuzz total: ${total.requests} requests, worst answer ${total.worst.ms.toFixed(0)} ms, p99 ${percentile(total.times, 99).toFixed(0)} ms; server RSS ${total.rss.baseline.toFixed(0)} MB at start, ${rssNow.toFixed(0)} MB at the end, peak ${total.rss.peak.toFixed(0)} MB; ${target?.restarts ?? 0} restarts`,
    ].join("\n"),
  );
  await target?.stop();
  await receiver?.close();
});

describe("hostile requests (generated)", () => {
  it("covers every route of the built manifest", () => {
    // The manifest is read, not listed: a new route file is fuzzed without anyone adding it here.
    expect(patterns.length).toBeGreaterThan(20);
    expect(patterns.map((p) => p.id)).toContain("routes/login");
  });

  selected.forEach((property, index) => {
    it(
      property.name,
      async () => {
        const stats = newStats();
        // The previous property's last request may have ended the server.
        if (await target.ensureAlive()) await warmUp(stats);
        stats.rss.baseline = target.rssMb();
        const requestIds = new Map<string, string>();
        const eventsBefore = serverEvents().length;
        const started = performance.now();
        const arbitrary = fuzzCase(patterns, valid, property.options).map((c) =>
          Object.assign(c, { [fc.toStringMethod]: () => describeCase(c) }),
        );
        const classes = CONTINUE ? new Map<string, FailureClass>() : undefined;
        // fast-check's time limit abandons a running predicate rather than stopping it: the last one is
        // awaited before anything else touches the server (else two restarts could race and orphan a child).
        let running: Promise<void> = Promise.resolve();
        const settled = () => running.catch(() => undefined);
        const prop = fc.asyncProperty(
          arbitrary,
          (c) => (running = check(c, index, stats, requestIds, classes)),
        );
        // Find (no shrinking, within the budget), then shrink within its own budget: replaying the failure's
        // path resumes from it. A replay (FUZZ_PATH) runs that one case.
        let result = await fc.check(prop, {
          seed: SEED,
          numRuns: REPLAY_PATH ? 1 : 10_000_000,
          path: REPLAY_PATH,
          endOnFailure: true,
          plugins: [fc.interruptAfterTimeLimit(budgetMs)],
        });
        await settled();
        if (result.failed && !REPLAY_PATH && result.counterexamplePath) {
          const shrunk = await fc.check(prop, {
            seed: SEED,
            path: result.counterexamplePath,
            plugins: [fc.interruptAfterTimeLimit(SHRINK_SECONDS * 1000)],
          });
          await settled();
          if (shrunk.failed) result = shrunk;
        }
        const seconds = (performance.now() - started) / 1000;
        // Error reports travel asynchronously: give the last ones a moment before counting them.
        await new Promise((r) => setTimeout(r, 1500));
        summaries.push(
          `${summary(property.name, stats, seconds)}\n  error reports received by the Sentry receiver: ${serverEvents().length - eventsBefore}`,
        );
        console.log(summaries.at(-1));
        if (classes?.size) {
          const list = [...classes].map(
            ([key, { count, example }]) => `■ ${key} (${count}×); shortest example:\n${example}`,
          );
          const message = `fuzz "${property.name}" (seed ${SEED}): ${classes.size} classes of failure\n${list.join("\n\n")}`;
          console.log(message);
          throw new Error(message);
        }
        if (result.failed) {
          const replay = `FUZZ_PROPERTY='${property.name}' FUZZ_SEED=${SEED} FUZZ_PATH='${result.counterexamplePath}' npm run test:fuzz`;
          const message = [
            `fuzz "${property.name}" failed (seed ${SEED}, path ${result.counterexamplePath}, after ${result.numRuns} runs and ${result.numShrinks} shrinks)`,
            `counter-example:\n${result.counterexample ? describeCase((result.counterexample as [FuzzCase])[0]) : "(none)"}`,
            `${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}`,
            `replay: ${replay}`,
          ].join("\n");
          console.log(message);
          throw new Error(message);
        }
        // No error report may name a fuzz request.
        const reported = serverEvents()
          .slice(eventsBefore)
          .map(
            (e) =>
              `${e.exception?.values?.[0]?.value ?? e.message}\n${requestIds.get(e.tags?.request_id ?? "") ?? `(request id ${e.tags?.request_id})`}`,
          );
        expect(reported, "no error report for a request-caused failure").toEqual([]);
      },
      (SECONDS / selected.length + SHRINK_SECONDS) * 1000 + 180_000,
    );
  });
});
