/**
 * `npx tsx bench/browser-profile.ts [path…]` (after `npm run build`): where the browser spends its main thread
 * while a page loads, under the bench's slow-4G profile (4× CPU). For each path (signed in as the demo's
 * owner; default: spending and usage) it records a V8 CPU profile from navigation until the page has been quiet
 * for 2 s, then prints the long tasks and the sampled time per script and per function (self time, at 4×).
 * Keeps the .cpuprofile files (open them in Chrome DevTools) under PROFILE_DIR (default /tmp/energyops-profiles).
 * BENCH_PROFILE_RUNS (default 3) loads are profiled per page; the tables sum them.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { signIn, slow4g, startServer, table } from "./server";

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const OUT = process.env.PROFILE_DIR ?? "/tmp/energyops-profiles";
const RUNS = Number(process.env.BENCH_PROFILE_RUNS ?? 3);
const paths = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ["/locations/105/spending", "/locations/105/usage/electricity"];

const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, "") || "(native)";

function bump(map: Map<string, number>, key: string, ms: number) {
  map.set(key, (map.get(key) ?? 0) + ms);
}

const top = (map: Map<string, number>, n: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);

fs.mkdirSync(OUT, { recursive: true });
const s = await startServer(0);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless=new", "--no-sandbox", "--disable-gpu"],
});
try {
  for (const p of paths) {
    const byUrl = new Map<string, number>();
    const byFn = new Map<string, number>();
    const tasks: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      const ctx = await browser.newContext();
      await signIn(ctx, s.url);
      const page = await ctx.newPage();
      const cdp = await slow4g(ctx, page);
      await page.addInitScript(() => {
        const w = window as unknown as { __long: [number, number][] };
        w.__long = [];
        new PerformanceObserver((l) =>
          l.getEntries().forEach((e) => w.__long.push([e.startTime, e.duration])),
        ).observe({ type: "longtask", buffered: true });
      });
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
      await page.goto(`${s.url}${p}`, { waitUntil: "load", timeout: 60_000 });
      await page.waitForTimeout(2500);
      const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: Profile };
      const long = await page.evaluate(() => (window as unknown as { __long: [number, number][] }).__long);
      tasks.push(long.map(([t, d]) => `${t.toFixed(0)}+${d.toFixed(0)}`).join(" "));
      const file = path.join(OUT, `browser-${p.replace(/\W+/g, "_")}-${run}.cpuprofile`);
      fs.writeFileSync(file, JSON.stringify(profile));
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      profile.samples.forEach((id, i) => {
        const n = byId.get(id)!;
        const ms = (profile.timeDeltas[i] ?? 0) / 1000;
        if (n.callFrame.functionName === "(idle)" || n.callFrame.functionName === "(program)") return;
        bump(byUrl, short(n.callFrame.url), ms);
        bump(
          byFn,
          `${n.callFrame.functionName || "(anonymous)"} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}:${n.callFrame.columnNumber + 1}`,
          ms,
        );
      });
      await ctx.close();
    }
    console.log(`\n## ${p}: long tasks (start+duration ms, per load)\n`);
    for (const t of tasks) console.log(`- ${t || "none"}`);
    console.log(`\n### Self time by script, sum of ${RUNS} loads (ms, sampled at 4× CPU)\n`);
    console.log(table([["script", "ms"], ...top(byUrl, 15).map(([k, v]) => [k, v.toFixed(1)])]));
    console.log(`\n### Self time by function, top 25\n`);
    console.log(table([["function", "ms"], ...top(byFn, 25).map(([k, v]) => [k, v.toFixed(1)])]));
  }
  console.log(`\nprofiles: ${OUT}`);
} finally {
  await browser.close();
  await s.stop();
}
