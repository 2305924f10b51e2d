/**
 * `npx tsx bench/profile.ts [path…]` (after `npm run build`): where the web process spends its CPU per page.
 * For each path (default: the privacy page and the locations dashboard) the production server runs in front of
 * the reference api in its own process. After a warm-up (BENCH_PROFILE_WARMUP pages, default 2,000), V8's
 * profiler records while autocannon asks for N pages (BENCH_PAGES_N, default 1,500; 8 connections), so start-up,
 * sign-in and code not yet optimised stay out (bench/cpu-profile-preload.mjs). The privacy page is asked for signed
 * out, as the bench's static floor is; every other page with a signed-in cookie. Prints, per page, the busy CPU per
 * request by package (self time) and the share spent matching the route tree (React Router's matchRoutes, from
 * every caller) and reading upstream answers (the api client's `readData` and `validate`: JSON parsing, camel-casing,
 * the demo transform and the schemas' check, with every callee, zod included), and keeps the .cpuprofile files (open them in Chrome DevTools) under PROFILE_DIR (default
 * /tmp/energyops-profiles).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { firstJsonLine, startServer, stopChild, table } from "./server";

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const N = Number(process.env.BENCH_PAGES_N ?? 1500);
const WARMUP = Number(process.env.BENCH_PROFILE_WARMUP ?? 2000);
const OUT = process.env.PROFILE_DIR ?? "/tmp/energyops-profiles";
const paths = process.argv.slice(2).length ? process.argv.slice(2) : ["/privacy-policy", "/locations"];

/** The package (or node: module, or file of ours) a frame belongs to. */
function owner(url: string, fn: string) {
  if (!url) return fn.startsWith("(") ? fn : `native ${fn}`;
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const parts = url.slice(nm + 13).split("/");
    return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith("node:internal/deps/undici")) return "node: undici (fetch, Request, Headers)";
  if (url.startsWith("node:internal/webstreams")) return "node: web streams";
  if (url.startsWith("node:internal/modules")) return "node: module loading (start-up)";
  if (url.startsWith("node:")) return "node: other (http, net, streams, timers, events…)";
  return path.relative(process.cwd(), new URL(url.split("?")[0]).pathname);
}

/** The api client's functions that read an answer (app/server/upstream/api-client.server.ts). */
const ANSWER_READING = new Set(["readData", "validate"]);

function profilerFrame(id: number, byId: Map<number, ProfileNode>, parent: Map<number, number>) {
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur))
    if (byId.get(cur)!.callFrame.url.endsWith("cpu-profile-preload.mjs")) return true;
  return false;
}

function analyse(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byOwner = new Map<string, number>();
  let busy = 0;
  let matching = 0;
  let answers = 0;
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === "(idle)") continue;
    // The profiler's own start and stop (bench/cpu-profile-preload.mjs) are not the page's.
    if (profilerFrame(id, byId, parent)) continue;
    busy += us;
    const o = owner(node.callFrame.url, node.callFrame.functionName);
    byOwner.set(o, (byOwner.get(o) ?? 0) + us);
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur))
      if (byId.get(cur)!.callFrame.functionName === "matchRoutes") {
        matching += us;
        break;
      }
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur))
      if (
        ANSWER_READING.has(byId.get(cur)!.callFrame.functionName) ||
        owner(byId.get(cur)!.callFrame.url, "") === "zod"
      ) {
        answers += us;
        break;
      }
  }
  return { busy, matching, answers, byOwner };
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-profile-"));
fs.mkdirSync(OUT, { recursive: true });
const api = spawn(process.execPath, ["--import", "tsx", path.resolve("bench/api-process.ts")], {
  env: { ...process.env, NODE_ENV: "production", DATA_DIR: tmp },
  stdio: ["ignore", "pipe", "inherit"],
});
try {
  const { url: apiUrl } = await firstJsonLine<{ url: string }>(api);
  for (const page of paths) {
    const dir = fs.mkdtempSync(path.join(OUT, "page-"));
    const file = "warm.cpuprofile";
    const web = await startServer(0, {
      apiUrl,
      nodeArgs: ["--import", path.resolve("bench/cpu-profile-preload.mjs")],
      env: { PROFILE_FILE: path.join(dir, file) },
    });
    // The bench measures the static floor signed out (bench/cpu.ts): so does a profile of the privacy page.
    const headers: Record<string, string> = page === "/privacy-policy" ? {} : { cookie: web.cookie };
    await autocannon({ url: `${web.url}${page}`, connections: 8, amount: WARMUP, headers });
    process.kill(web.pid, "SIGUSR2");
    await new Promise((r) => setTimeout(r, 200));
    const result = await autocannon({ url: `${web.url}${page}`, connections: 8, amount: N, headers });
    process.kill(web.pid, "SIGUSR2");
    for (let i = 0; i < 100 && !fs.existsSync(path.join(dir, file)); i++)
      await new Promise((r) => setTimeout(r, 100));
    await web.stop();
    const { busy, matching, answers, byOwner } = analyse(
      JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")),
    );
    const per = (us: number) => (us / 1000 / N).toFixed(3);
    const rows: (string | number)[][] = [["self time of", "ms/request", "share"]];
    for (const [o, us] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 15))
      rows.push([o, per(us), `${((100 * us) / busy).toFixed(0)}%`]);
    console.log(
      `\n## ${page}: ${per(busy)} ms busy per request (${N} requests, ${result.non2xx} not 2xx); ` +
        `route-tree matching (matchRoutes) ${per(matching)} ms (${((100 * matching) / busy).toFixed(0)}%); ` +
        `reading upstream answers ${per(answers)} ms (${((100 * answers) / busy).toFixed(1)}%)\n`,
    );
    console.log(table(rows));
    console.log(`\nprofile: ${path.join(dir, file)}`);
  }
} finally {
  await stopChild(api);
  fs.rmSync(tmp, { recursive: true, force: true });
}
