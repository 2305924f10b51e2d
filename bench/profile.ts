/**
 * `npx tsx bench/profile.ts [path…]` (after `npm run build`): where the web process spends its CPU per page.
 * For each path (default: the privacy page and the locations dashboard) the production server runs under
 * `node --cpu-prof`, in front of the reference api in its own process, while autocannon asks for N pages
 * (BENCH_PAGES_N, default 1,500; 8 connections). Prints, per page, the busy CPU per request by package (self
 * time) and the share spent matching the route tree (React Router's matchRoutes, from every caller), and
 * keeps the .cpuprofile files (open them in Chrome DevTools) under PROFILE_DIR (default /tmp/energyops-profiles).
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

function analyse(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byOwner = new Map<string, number>();
  let busy = 0;
  let matching = 0;
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === "(idle)") continue;
    busy += us;
    const o = owner(node.callFrame.url, node.callFrame.functionName);
    byOwner.set(o, (byOwner.get(o) ?? 0) + us);
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur))
      if (byId.get(cur)!.callFrame.functionName === "matchRoutes") {
        matching += us;
        break;
      }
  }
  return { busy, matching, byOwner };
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
    const web = await startServer(0, { apiUrl, nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
    const headers = { cookie: web.cookie };
    await autocannon({ url: `${web.url}${page}`, connections: 8, amount: 50, headers });
    const result = await autocannon({ url: `${web.url}${page}`, connections: 8, amount: N, headers });
    await web.stop();
    const file = fs.readdirSync(dir).find((f) => f.endsWith(".cpuprofile"))!;
    const { busy, matching, byOwner } = analyse(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")));
    // The profile covers start-up and sign-in too: per-request figures are upper bounds.
    const per = (us: number) => (us / 1000 / N).toFixed(3);
    const rows: (string | number)[][] = [["self time of", "ms/request", "share"]];
    for (const [o, us] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 15))
      rows.push([o, per(us), `${((100 * us) / busy).toFixed(0)}%`]);
    console.log(
      `\n## ${page}: ${per(busy)} ms busy per request (${N} requests, ${result.non2xx} not 2xx); ` +
        `route-tree matching (matchRoutes) ${per(matching)} ms (${((100 * matching) / busy).toFixed(0)}%)\n`,
    );
    console.log(table(rows));
    console.log(`\nprofile: ${path.join(dir, file)}`);
  }
} finally {
  await stopChild(api);
  fs.rmSync(tmp, { recursive: true, force: true });
}
