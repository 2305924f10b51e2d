/**
 * `npx tsx bench/ab.ts <tree A> <tree B> [path…]`: web CPU per page of two builds of the product, side by side.
 * Each tree is a checkout that has been built (`npm run build`: its dist/ and build/; a `git worktree` of the
 * commit before a change, with node_modules linked, is the usual A). Both production servers run at once in front
 * of one reference api (its own process; API_EXTRA_LOCATIONS gives it a bigger client), signed in as Dana, and
 * each path is measured on A and B in alternating order, BENCH_ROUNDS times (default 7), BENCH_PAGES_N pages a
 * measurement (default 1,000; 8 connections) after a warm-up of BENCH_AB_WARMUP pages (default 1,500) on each.
 * The machine's speed drifts by a third within minutes: a change is judged by the median of the rounds' B ÷ A,
 * each ratio taken from two measurements seconds apart, not by two runs of the full bench.
 * Default paths: the privacy page (signed out, as the bench's static floor), the locations dashboard, and an in-app
 * navigation as a signed-in user makes it: the `.data` request of a link from one location's thermostats to its
 * bills. A path `A-path=>B-path` gives each tree its own URL: the `.data` URL names the routes whose loaders the
 * browser wants (`_routes`), which a tree's `shouldRevalidate` decides (BENCH_AB_NAV overrides the default
 * navigation pair; the path `navs` measures the `.data` request of every page's usual link).
 * BENCH_AB_NODE_ARGS_A / BENCH_AB_NODE_ARGS_B give one tree's server Node flags (e.g. a GC setting), so one tree
 * can be measured against itself with and without a flag.
 * Pages are asked for as a first visit (stylesheets inline); BENCH_AB_VISITOR=returning sends the cookie that says
 * the browser has the build's stylesheets cached, where a tree sets one.
 * Beside CPU, each measurement's page time under that load (8 connections) is kept: p50, p90 and p97.5 (autocannon
 * has no p95; those two bracket it), reported as the median of the rounds, for what a user would feel.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { cpuMs, firstJsonLine, median, startServer, stopChild, table } from "./server";

const [treeA, treeB, ...rest] = process.argv.slice(2);
if (!treeA || !treeB) {
  console.error("usage: npx tsx bench/ab.ts <tree A> <tree B> [path…]");
  process.exit(2);
}
// The `.data` requests of in-app links as a browser makes them (captured from Chromium on this build): the tree
// at 10dae8e reloads every loader on a link (no `_routes`); with the shell's and the location layout's
// shouldRevalidate only the page's loader and the root's run (the root's always does: it reads the flash toast).
// A link into a location from elsewhere loads its layouts on both trees. (The findings ledger is newer than that
// tree.)
const r = (...ids: string[]) => `?_routes=${["root", ...ids.map((id) => `routes/_app.${id}`)].join(",")}`;
// The usage page's default period: this month (the bench's api runs on the real clock).
const usage = `/locations/101/usage/demand.data?period=month&start=${new Date().toISOString().slice(0, 7)}-01`;
const NAVS: Record<string, string> = {
  "control → spending": `/locations/101/spending.data=>/locations/101/spending.data${r("locations.$locationId.spending")}`,
  "spending → usage": `${usage}=>${usage}&${r("locations.$locationId.usage.$usageType").slice(1)}`,
  "dashboard → control room": "/locations/101/control.data",
  "control room → dashboard": "/locations.data",
  "dashboard → accounts": `/accounts.data=>/accounts.data${r("accounts")}`,
  "dashboard → grid services": `/grid-services.data=>/grid-services.data${r("grid-services")}`,
  "dashboard → settings": `/settings.data=>/settings.data${r("settings")}`,
};
const NAV = process.env.BENCH_AB_NAV ?? NAVS["control → spending"];
// `navs` as a path stands for every navigation above.
const paths = (rest.length ? rest : ["/privacy-policy", "/locations", NAV]).flatMap((p) =>
  p === "navs" ? Object.values(NAVS) : [p],
);
/** The URL tree `i` (0: A, 1: B) is asked for, for a path that may be a pair `A-path=>B-path`. */
const urlOf = (p: string, i: number) => (p.includes("=>") ? p.split("=>")[i] : p);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 7));
const N = Number(process.env.BENCH_PAGES_N ?? 1000);
const WARMUP = Number(process.env.BENCH_AB_WARMUP ?? 1500);
const RETURNING = process.env.BENCH_AB_VISITOR === "returning";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-ab-"));
const api = spawn(process.execPath, ["--import", "tsx", path.resolve("bench/api-process.ts")], {
  env: { ...process.env, NODE_ENV: "production", DATA_DIR: tmp },
  stdio: ["ignore", "pipe", "inherit"],
});
const servers: Awaited<ReturnType<typeof startServer>>[] = [];
try {
  const { url: apiUrl } = await firstJsonLine<{ url: string }>(api);
  for (const [i, tree] of [treeA, treeB].entries()) {
    const nodeArgs = (process.env[`BENCH_AB_NODE_ARGS_${"AB"[i]}`] ?? "").split(" ").filter(Boolean);
    servers.push(await startServer(0, { apiUrl, cwd: path.resolve(tree), nodeArgs }));
  }
  // A returning visitor has the build's stylesheets cached: the cookie that says so comes with any page.
  const returning = await Promise.all(
    servers.map(async (s) =>
      RETURNING
        ? (
            (await fetch(`${s.url}/privacy-policy`)).headers
              .getSetCookie()
              .find((c) => c.startsWith("styles=")) ?? ""
          ).split(";")[0]
        : "",
    ),
  );
  const headersFor = (s: (typeof servers)[number], p: string): Record<string, string> => {
    const cookies = [p === "/privacy-policy" ? "" : s.cookie, returning[servers.indexOf(s)]].filter(Boolean);
    return cookies.length ? { cookie: cookies.join("; ") } : {};
  };
  type Measure = { cpu: number; p50: number; p90: number; p97_5: number; bytes: number };
  const run = async (s: (typeof servers)[number], p: string, amount: number): Promise<Measure> => {
    const before = cpuMs(s.pid);
    const r = await autocannon({
      url: `${s.url}${urlOf(p, servers.indexOf(s))}`,
      connections: 8,
      amount,
      headers: headersFor(s, p),
      // A shared machine under load can pass autocannon's 10 s default on a long page.
      timeout: 60,
    });
    if (r.non2xx || r.errors) throw new Error(`${p}: ${r.non2xx} answers not 2xx, ${r.errors} errors`);
    const { p50, p90, p97_5 } = r.latency;
    const pages = r.requests.total || amount;
    // Bytes of the answer as sent (headers included, uncompressed: autocannon asks for no encoding).
    return { cpu: (cpuMs(s.pid) - before) / pages, p50, p90, p97_5, bytes: r.throughput.total / pages };
  };
  for (const p of paths) for (const s of servers) await run(s, p, WARMUP);

  const rows: (string | number)[][] = [
    ["path", "A ms/page", "B ms/page", "B ÷ A (median of rounds)", "rounds", "A KB/page", "B KB/page"],
  ];
  const times: (string | number)[][] = [
    ["path", "A p50 / p90 / p97.5 ms", "B p50 / p90 / p97.5 ms", "B ÷ A p97.5 (median of rounds)"],
  ];
  const spread = (ms: Measure[]) =>
    (["p50", "p90", "p97_5"] as const).map((k) => median(ms.map((m) => m[k])).toFixed(1)).join(" / ");
  for (const p of paths) {
    const a: Measure[] = [];
    const b: Measure[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Alternate which goes first, so neither always measures the machine a few seconds later.
      if (r % 2 === 0) {
        a.push(await run(servers[0], p, N));
        b.push(await run(servers[1], p, N));
      } else {
        b.push(await run(servers[1], p, N));
        a.push(await run(servers[0], p, N));
      }
    }
    const ratios = a.map((x, i) => b[i].cpu / x.cpu);
    rows.push([
      p,
      median(a.map((m) => m.cpu)).toFixed(3),
      median(b.map((m) => m.cpu)).toFixed(3),
      median(ratios).toFixed(3),
      ratios.map((x) => x.toFixed(2)).join(" "),
      (median(a.map((m) => m.bytes)) / 1000).toFixed(1),
      (median(b.map((m) => m.bytes)) / 1000).toFixed(1),
    ]);
    times.push([p, spread(a), spread(b), median(a.map((x, i) => b[i].p97_5 / x.p97_5)).toFixed(3)]);
  }
  console.log(
    `\n## A/B: web CPU ms/page (A: ${treeA}, B: ${treeB}; ${ROUNDS} rounds of ${N} pages; ${RETURNING ? "returning" : "first"} visit)\n`,
  );
  console.log(table(rows));
  console.log(`\n## A/B: page time under load (8 connections; median of the rounds)\n`);
  console.log(table(times));
} finally {
  for (const s of servers) await s.stop();
  await stopChild(api);
  fs.rmSync(tmp, { recursive: true, force: true });
}
