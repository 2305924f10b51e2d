/**
 * `npm run bench`: round trips per page, throughput, JavaScript weight, slow-network LCP/CLS, CPU per page.
 * Prints tables a person can compare run to run. Nothing here asserts: benchmarks report.
 * Usage: npm run bench [-- roundtrips|throughput|weight|lcp|cpu|many|overload|slow3g|capacity|goals]   (default: all; run `npm run build` first)
 * `goals`: the CPU goals read from the floors, in one run (cpu, many, capacity, then which goal holds).
 * BENCH_TREE=<dir>: measure the product built in another checkout (its dist/ and public/build) with this bench.
 */
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { chromium } from "@playwright/test";
import { WEB_SERVER } from "../shared/build-output.mjs";
import { cpu } from "./cpu";
import { BENCH_PAGES } from "./pages";
import { benchTree, median, signIn, slow4g, startServer, table } from "./server";
import { weightFromManifest } from "./weight";

const which = process.argv[2] ?? "all";

async function roundTrips() {
  const LATENCY = 200;
  const s = await startServer(LATENCY);
  const rows: (string | number)[][] = [["page", "server ms (Server-Timing)", "outside ms", "round trips"]];
  try {
    for (const p of BENCH_PAGES.filter((p) => p.rt)) {
      const server: number[] = [];
      const outside: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        const res = await fetch(`${s.url}${p.path}`, {
          headers: p.auth ? { cookie: s.cookie } : {},
          redirect: "manual",
        });
        await res.text();
        outside.push(performance.now() - t);
        const total = /total;dur=([\d.]+)/.exec(res.headers.get("server-timing") ?? "");
        server.push(total ? Number(total[1]) : NaN);
      }
      const srv = median(server);
      rows.push([p.name, srv.toFixed(0), median(outside).toFixed(0), (srv / LATENCY).toFixed(2)]);
    }
  } finally {
    await s.stop();
  }
  console.log(`\n## Upstream round trips per page (API_LATENCY_MS=${LATENCY}; median of 3)\n`);
  console.log(table(rows));
}

async function throughput() {
  const s = await startServer(0);
  const rows: (string | number)[][] = [["page", "requests/s", "p50 ms", "p99 ms", "errors", "non-2xx"]];
  try {
    for (const p of BENCH_PAGES.filter((p) => p.throughput)) {
      const result = await autocannon({
        url: `${s.url}${p.path}`,
        connections: 32,
        duration: Number(process.env.BENCH_DURATION ?? 20),
        headers: p.auth ? { cookie: s.cookie } : {},
      });
      rows.push([
        p.name,
        result.requests.average.toFixed(0),
        result.latency.p50,
        result.latency.p99,
        result.errors,
        result.non2xx,
      ]);
    }
  } finally {
    await s.stop();
  }
  console.log("\n## Throughput (autocannon, 32 connections, latency 0)\n");
  console.log(table(rows));
}

async function weight() {
  const forRoutes = weightFromManifest(benchTree());
  const s = await startServer(0);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless=new", "--no-sandbox", "--disable-gpu"],
  });
  const rows: (string | number)[][] = [
    [
      "page",
      "manifest KiB gz",
      "Chromium KiB (transferred)",
      "JS on the wire KiB (with headers)",
      "script requests",
      "target KiB",
    ],
  ];
  try {
    for (const p of BENCH_PAGES) {
      const ctx = await browser.newContext();
      if (p.auth) await signIn(ctx, s.url);
      const page = await ctx.newPage();
      let bytes = 0;
      let wire = 0;
      let scripts = 0;
      const routeIds = new Set<string>();
      const sized: Promise<void>[] = [];
      page.on("response", (r) => {
        if (r.request().resourceType() !== "script" && !r.url().endsWith(".js")) return;
        scripts++;
        sized.push(
          r
            .request()
            .sizes()
            .then(
              (sizes) => {
                bytes += sizes.responseBodySize;
                wire += sizes.responseBodySize + sizes.responseHeadersSize;
              },
              () => undefined,
            ),
        );
      });
      await page.goto(`${s.url}${p.path}`, { waitUntil: "networkidle" });
      await Promise.all(sized);
      const ids = await page.evaluate(() =>
        Object.keys((window as unknown as { __remixRouteModules?: object }).__remixRouteModules ?? {}),
      );
      ids.forEach((id) => routeIds.add(id));
      const target = p.chart ? 200 : p.name.startsWith("login") || p.emailLink ? 100 : 200;
      rows.push([
        p.name,
        (forRoutes([...routeIds]) / 1024).toFixed(1),
        (bytes / 1024).toFixed(1),
        (wire / 1024).toFixed(1),
        scripts,
        target,
      ]);
      await ctx.close();
    }
  } finally {
    await browser.close();
    await s.stop();
  }
  console.log("\n## JavaScript per route on a cold visit (gzip)\n");
  console.log(table(rows));
}

/**
 * Slow 4G (Lighthouse's mobile profile) on a cold cache, median of 5: LCP, CLS (max), Total Blocking Time
 * (long tasks after First Contentful Paint: the time each spends over 50 ms, summed, until the page has been
 * quiet for 2 s after load) and the JavaScript on the wire (script requests and their encoded bytes, headers
 * included, as the browser's network stack counted them). `BENCH_LCP_ONLY=<regexp>` picks pages by name.
 */
async function lcp() {
  const only = process.env.BENCH_LCP_ONLY ? new RegExp(process.env.BENCH_LCP_ONLY) : null;
  const pages = BENCH_PAGES.filter((p) => (p.lcp || p.auth) && (!only || only.test(p.name)));
  const s = await startServer(0);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless=new", "--no-sandbox", "--disable-gpu"],
  });
  const rows: (string | number)[][] = [
    [
      "page",
      "LCP ms (median of 5)",
      "CLS (max of 5)",
      "TBT ms (median of 5)",
      "JS requests",
      "JS KiB on the wire",
    ],
  ];
  try {
    for (const p of pages) {
      const lcps: number[] = [];
      const clss: number[] = [];
      const tbts: number[] = [];
      const jsRequests: number[] = [];
      const jsBytes: number[] = [];
      for (let run = 0; run < 5; run++) {
        const ctx = await browser.newContext();
        if (p.auth) await signIn(ctx, s.url);
        const page = await ctx.newPage();
        const cdp = await slow4g(ctx, page);
        const scripts = new Set<string>();
        let wire = 0;
        cdp.on("Network.requestWillBeSent", (e) => {
          if (e.type === "Script") scripts.add(e.requestId);
        });
        cdp.on("Network.loadingFinished", (e) => {
          if (scripts.has(e.requestId)) wire += e.encodedDataLength;
        });
        await page.addInitScript(() => {
          const w = window as unknown as { __lcp: number; __cls: number; __long: [number, number][] };
          w.__lcp = 0;
          w.__cls = 0;
          w.__long = [];
          new PerformanceObserver((l) => l.getEntries().forEach((e) => (w.__lcp = e.startTime))).observe({
            type: "largest-contentful-paint",
            buffered: true,
          });
          new PerformanceObserver((l) =>
            l.getEntries().forEach((e) => {
              const shift = e as PerformanceEntry & { value: number; hadRecentInput: boolean };
              if (!shift.hadRecentInput) w.__cls += shift.value;
            }),
          ).observe({ type: "layout-shift", buffered: true });
          new PerformanceObserver((l) =>
            l.getEntries().forEach((e) => w.__long.push([e.startTime, e.duration])),
          ).observe({ type: "longtask", buffered: true });
        });
        await page.goto(`${s.url}${p.path}`, { waitUntil: "load", timeout: 60_000 });
        // Quiet for 2 s: no long task has started in the last 2 s (at most 15 s).
        for (let waited = 0; waited < 15_000; waited += 500) {
          await page.waitForTimeout(500);
          const quiet = await page.evaluate(() => {
            const long = (window as unknown as { __long: [number, number][] }).__long;
            const last = long.length ? long[long.length - 1][0] + long[long.length - 1][1] : 0;
            return performance.now() - last > 2000;
          });
          if (quiet && waited >= 1500) break;
        }
        const m = await page.evaluate(() => {
          const w = window as unknown as { __lcp: number; __cls: number; __long: [number, number][] };
          const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0;
          // A task that straddles FCP counts only for its part after FCP (as Lighthouse does).
          const tbt = w.__long.reduce((sum, [start, duration]) => {
            const end = start + duration;
            const after = Math.min(duration, end - fcp);
            return after > 50 ? sum + after - 50 : sum;
          }, 0);
          return { lcp: w.__lcp, cls: w.__cls, tbt };
        });
        lcps.push(m.lcp);
        clss.push(m.cls);
        tbts.push(m.tbt);
        jsRequests.push(scripts.size);
        jsBytes.push(wire);
        await ctx.close();
      }
      rows.push([
        p.name,
        median(lcps).toFixed(0),
        Math.max(...clss).toFixed(3),
        median(tbts).toFixed(0),
        median(jsRequests),
        (median(jsBytes) / 1024).toFixed(1),
      ]);
    }
  } finally {
    await browser.close();
    await s.stop();
  }
  console.log("\n## Slow 4G (562.5 ms RTT, 1.44 Mbps, 4x CPU), cold cache\n");
  console.log(table(rows));
}

if (!fs.existsSync(path.join(benchTree(), WEB_SERVER))) {
  console.error("Run `npm run build` first.");
  process.exit(1);
}
if (process.env.BENCH_TREE) console.log(`The product measured: the tree at ${benchTree()} (BENCH_TREE).`);
if (which === "all" || which === "roundtrips") await roundTrips();
if (which === "all" || which === "weight") await weight();
if (which === "all" || which === "lcp") await lcp();
if (which === "all" || which === "throughput") await throughput();
if (which === "all" || which === "cpu") await cpu();
if (which === "all" || which === "many") await (await import("./many")).many();
if (which === "all" || which === "overload") await (await import("./overload")).overload();
if (which === "all" || which === "slow3g") await (await import("./slow3g")).slow3g();
if (which === "capacity") await (await import("./capacity")).capacity();
if (which === "goals") await goals();

/** The goals of docs/benchmarks.md ("The floors") read from one run, each said to hold or not. */
async function goals() {
  const floors = await cpu();
  const size = await (await import("./many")).many();
  const cap = await (await import("./capacity")).capacity();
  const holds = (ok: boolean) => (ok ? "holds" : "does not hold");
  const rows: (string | number)[][] = [["goal", "measured", "verdict"]];
  for (const p of floors.pages)
    rows.push([
      `${p.name} ≤ 1.25 × (static floor + its data floor)`,
      `${p.ratio.toFixed(2)}×`,
      holds(p.ratio <= 1.25),
    ]);
  const big = size.find((r) => r.page === "dashboard" && r.locations >= 300);
  if (big)
    rows.push([
      "300-location dashboard ≤ 2 × the 14-location one's CPU",
      `${big.timesBase.toFixed(2)}×`,
      holds(big.timesBase <= 2),
    ]);
  rows.push([
    "pages a second per core through nginx, two instances (web processes / with nginx)",
    `${cap.perCoreWeb.toFixed(0)} / ${cap.perCoreWebNginx.toFixed(0)}`,
    `10,000 users at a page per 10 s: ${cap.coresWeb.toFixed(1)} / ${cap.coresWebNginx.toFixed(1)} cores`,
  ]);
  console.log("\n## Goals read from the floors (this run)\n");
  console.log(table(rows));
}
