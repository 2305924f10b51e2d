// `npm test`: every check CI runs, in groups. The steps of a parallel group run side by side (none of them
// measures answer times, and on two cores they finish sooner together than one after the other). The server
// suites (integration included) run in two lanes side by side, each lane one step at a time: each suite keeps
// one core busy, and their time bounds hold on a busy machine. Playwright runs alone: it keeps both cores busy.
//
// Runs every group in order and stops after the first group with a failing step (a sequential group or a lane
// stops at its failing step), exiting with that step's code. A step that runs alone streams its output as it
// comes; the steps of a parallel group or a lane are buffered and shown as each ends: the whole output of a
// failing step, and the closing lines of a passing test runner (CI reads them).
//
// Run a subset: TEST_STEPS=static,test:integration npm test (or `node scripts/test-all.mjs static servers`),
// by group or script name (`TEST_STEPS=lint,test:unit`). `--list` prints the groups. TEST_SERIAL=1 runs every
// step in turn (to compare, or on a machine with one core). The groups that run the built server build it
// first when `build` is not selected, so they never test an old dist/server.js.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";

const GROUPS = [
  // The unit tests run alone: a few compare thousands of generated values and have time-outs to keep.
  { name: "static", parallel: true, steps: ["typecheck", "lint", "format:check", "build"] },
  { name: "unit", steps: ["test:unit"] },
  // Two lanes side by side, each running its steps in turn: each of these suites keeps one core busy and leaves
  // the other idle (load average under 2 when run alone), and their time bounds allow for a busy machine (the
  // fault suite's were measured at load average 15 to 25). Balanced by their times (docs/testing.md).
  {
    name: "servers",
    needsBuild: true,
    lanes: [
      ["test:integration", "test:security", "test:faults"],
      ["test:reliability", "test:fuzz", "test:scale", "test:ops"],
    ],
  },
  { name: "e2e", needsBuild: true, steps: ["test:e2e"] },
].map((g) => (g.lanes ? { ...g, steps: g.lanes.flat() } : g));

/** Steps that measure nothing and have no time-out: they can wait for the CPU. */
const UNTIMED = new Set(["typecheck", "lint", "format:check", "build"]);

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const args = process.argv.slice(2);

if (args.includes("--list")) {
  for (const g of GROUPS)
    console.log(
      g.lanes
        ? `${g.name} (lanes side by side, each in turn): ${g.lanes.map((l) => l.join(", ")).join("  |  ")}`
        : `${g.name} (${g.parallel ? "side by side" : "in turn"}): ${g.steps.join(", ")}`,
    );
  process.exit(0);
}

/** The groups to run, each with only its selected steps, in the order of GROUPS. */
function selectedGroups() {
  const wanted = (args.length > 0 ? args : (process.env.TEST_STEPS ?? "").split(","))
    .map((s) => s.trim())
    .filter(Boolean);
  if (wanted.length === 0) return GROUPS;
  const known = new Set(GROUPS.flatMap((g) => [g.name, ...g.steps]));
  const unknown = wanted.filter((w) => !known.has(w));
  if (unknown.length > 0) {
    console.error(`test-all: unknown group or step: ${unknown.join(", ")} (see --list)`);
    process.exit(2);
  }
  const chosen = GROUPS.map((g) => ({
    ...g,
    steps: wanted.includes(g.name) ? g.steps : g.steps.filter((s) => wanted.includes(s)),
    lanes: g.lanes?.map((lane) => (wanted.includes(g.name) ? lane : lane.filter((s) => wanted.includes(s)))),
  })).filter((g) => g.steps.length > 0);
  const built = chosen.some((g) => g.steps.includes("build"));
  if (!built && chosen.some((g) => g.needsBuild)) chosen.unshift({ name: "build", steps: ["build"] });
  return chosen;
}

// One seed cache for the whole run (api/db/seed/snapshot.ts): every api the tests start, in the test processes
// or in the servers they start, loads a demo seeded with the same inputs from it instead of seeding again. Made
// fresh here and removed at the end, so no run sees a database seeded by older code. Playwright's servers do
// not get it (they seed once each and reset by POST /dev/reset).
const seedCacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "energyops-seed-cache-"));
const removeSeedCache = () => fs.rmSync(seedCacheDir, { recursive: true, force: true });
process.on("exit", removeSeedCache);

const running = new Set();
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  process.on(signal, () => {
    // Each step is a process group of its own (npm, sh, the runner and its workers): stop all of it.
    for (const child of running) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        child.kill(signal);
      }
    }
    process.exit(code);
  });
}

/** Runs `npm run <script>`; resolves with its exit code, duration and (when buffered) its output. */
function run(script, buffered) {
  const started = Date.now();
  return new Promise((resolve) => {
    // Side by side, a step with no time limit of its own yields the CPU to the unit tests, whose hang guard
    // (a per-test time-out) a busy machine could otherwise reach.
    const nice = buffered && UNTIMED.has(script) && process.platform !== "win32";
    const [command, ...rest] = nice ? ["nice", "-n", "10", "npm", "run", script] : ["npm", "run", script];
    const child = spawn(command, rest, {
      stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit",
      env: script === "test:e2e" ? process.env : { ...process.env, SEED_CACHE_DIR: seedCacheDir },
      detached: process.platform !== "win32",
    });
    running.add(child);
    let output = "";
    if (buffered) {
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
    }
    const done = (code) => {
      running.delete(child);
      resolve({ script, code, ms: Date.now() - started, output });
    };
    child.on("error", (e) => {
      output += `${e.message}\n`;
      done(127);
    });
    child.on("close", (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}

/** A passing test runner's closing lines: from its last summary block ("Test Files", "N passed (…)") on. */
function closingLines(output) {
  const lines = output.trimEnd().split("\n");
  const start = lines.findLastIndex((l) =>
    /^\s*Test Files\s|^\s+\d+ (passed|failed|flaky)\b/.test(stripVTControlCharacters(l)),
  );
  return start === -1 ? "" : lines.slice(start).join("\n");
}

const report = (r) =>
  console.log(`${r.code === 0 ? "✓" : "✗"} ${r.script}  ${seconds(r.ms)}  exit ${r.code}`);

/** A buffered step's output: all of it when it failed, a passing test runner's closing lines. */
function showBuffered(r) {
  if (r.code !== 0)
    console.log(`\n--- ${r.script} failed (exit ${r.code}); its output:\n${r.output.trimEnd()}`);
  else if (closingLines(r.output)) console.log(`\n--- ${r.script}:\n${closingLines(r.output)}`);
}

const results = [];
const startedAll = Date.now();
let failed = null;

const groups = selectedGroups();
for (const group of groups) {
  const parallel = group.parallel && group.steps.length > 1 && !process.env.TEST_SERIAL;
  const lanes = process.env.TEST_SERIAL ? [] : (group.lanes ?? []).filter((lane) => lane.length > 0);
  console.log(
    `\n=== ${group.name}: ${
      lanes.length > 1
        ? lanes.map((lane) => lane.join(" then ")).join("  |  ") + " (lanes side by side)"
        : group.steps.join(", ")
    }${parallel ? " (side by side)" : ""}`,
  );
  const groupStarted = Date.now();
  if (lanes.length > 1) {
    // Each lane runs its steps in turn and stops at its first failure; the other lane finishes. Each step's
    // output is shown when it ends: all of it when it failed, a test runner's closing lines when it passed.
    const laneResults = await Promise.all(
      lanes.map(async (lane) => {
        const done = [];
        for (const s of lane) {
          const r = await run(s, true);
          report(r);
          showBuffered(r);
          done.push(r);
          if (r.code !== 0) break;
        }
        return done;
      }),
    );
    results.push(...laneResults.flat());
  } else if (parallel) {
    const done = await Promise.all(
      group.steps.map((s) =>
        run(s, true).then((r) => {
          report(r);
          return r;
        }),
      ),
    );
    for (const r of done) showBuffered(r);
    results.push(...done);
  } else {
    for (const s of group.steps) {
      console.log(`\n--- ${s}`);
      const r = await run(s, false);
      report(r);
      results.push(r);
      if (r.code !== 0) break;
    }
  }
  console.log(`=== ${group.name}: ${seconds(Date.now() - groupStarted)}`);
  const failing = results.filter((r) => r.code !== 0);
  if (failing.length > 0) {
    failed = failing;
    break;
  }
}

console.log("\nstep                 time      exit");
for (const r of results) console.log(`${r.script.padEnd(20)} ${seconds(r.ms).padStart(8)}  ${r.code}`);
const total = seconds(Date.now() - startedAll);
if (failed) {
  const ran = new Set(results.map((r) => r.script));
  const notRun = groups.flatMap((g) => g.steps).filter((s) => !ran.has(s));
  console.log(
    `test-all: FAILED ${failed.map((r) => r.script).join(", ")} after ${total}` +
      (notRun.length > 0 ? `; not run: ${notRun.join(", ")}` : ""),
  );
  process.exit(failed[0].code || 1);
}
console.log(`test-all: ${results.length} steps passed in ${total}`);
