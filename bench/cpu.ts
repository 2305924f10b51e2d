/**
 * `npm run bench -- cpu`: CPU time of the web process per answered page, against two floors measured in the same
 * run. The web and the reference api run as separate processes; each figure is utime+stime from /proc/<pid>/stat
 * over N pages (BENCH_PAGES_N, default 500) at 8 connections, after a short warm-up.
 *   - bare: express + React `renderToString` of the privacy page's HTML (floor-static.ts);
 *   - bare Remix: a Remix v2 app rendering the same elements through Remix's defaults (floor-remix.ts);
 *   - static floor: the product's own privacy page (no session, no upstream call);
 *   - data floor of a page: a bare Node server (floor-data.ts) making that page's upstream GETs, recorded from
 *     the product by a pass-through proxy, with the same api session, and answering their JSON.
 * A page's ratio is its web CPU ÷ (static floor + its data floor); the static floor's is ÷ bare Remix (the
 * framework the product is built on is part of its floor) and ÷ bare.
 *
 * This machine's speed drifts (by a third within minutes, on a shared host), so a ratio compares measurements
 * taken together: for each page, its static floor, its data floor and the page are measured back to back, in
 * BENCH_ROUNDS rounds (default 3), and the table shows the median of the rounds' ratios and of each figure.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import autocannon from "autocannon";
import { BENCH_PAGES } from "./pages";
import { startRemixFloor } from "./floor-remix";
import { cpuMs, firstJsonLine, median, startServer, stopChild, table } from "./server";

const N = Number(process.env.BENCH_PAGES_N ?? 500);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

/** `run` ROUNDS times; the median of each figure it returns, by name. */
async function rounds<K extends string>(run: () => Promise<Record<K, number>>) {
  const seen = new Map<K, number[]>();
  for (let r = 0; r < ROUNDS; r++)
    for (const [k, v] of Object.entries(await run()) as [K, number][])
      seen.set(k, [...(seen.get(k) ?? []), v]);
  return Object.fromEntries([...seen].map(([k, v]) => [k, median(v)])) as Record<K, number>;
}
const CONNECTIONS = 8;

/**
 * CPU ms per answered page of each process while `url` answers N pages (after a warm-up of 50). An answer shorter
 * on average than `minBytes` (headers included) counts as bad: a page that lost its body is cheap, not fast.
 */
async function measure(url: string, headers: Record<string, string>, pids: number[], minBytes = 0) {
  await autocannon({ url, connections: CONNECTIONS, amount: 50, headers });
  const before = pids.map(cpuMs);
  const result = await autocannon({ url, connections: CONNECTIONS, amount: N, headers });
  const after = pids.map(cpuMs);
  const answered = result.requests.total ?? N;
  const short = result.throughput.total / answered < minBytes ? answered : 0;
  return {
    perPage: after.map((a, i) => (a - before[i]) / answered),
    bad: result.errors + result.non2xx + short,
  };
}

type Recorded = { method: string; path: string; cookie?: string };

/** A pass-through proxy in front of the api that records each call by the X-Request-Id the web sent with it. */
function recordingProxy(apiUrl: string) {
  const target = new URL(apiUrl);
  const calls = new Map<string, Recorded[]>();
  const server = http.createServer((req, res) => {
    const id = String(req.headers["x-request-id"] ?? "");
    const list = calls.get(id) ?? [];
    list.push({ method: req.method!, path: req.url!, cookie: req.headers.cookie });
    calls.set(id, list);
    const up = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode!, r.headers);
        r.pipe(res);
      },
    );
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  return new Promise<{ url: string; calls: typeof calls; close: () => Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}${target.pathname}`,
        calls,
        close: () => {
          server.closeAllConnections();
          return new Promise((r) => server.close(() => r()));
        },
      });
    }),
  );
}

function node(script: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", path.resolve(script)], {
    env: { ...process.env, NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
}

/** Each signed-in page's ratio to its floors (median of the rounds), and the static floor's to bare Remix. */
export type CpuGoals = { pages: { name: string; ratio: number }[]; staticVsRemix: number };

export async function cpu(): Promise<CpuGoals> {
  const signedIn = BENCH_PAGES.filter((p) => p.auth);
  const privacy = BENCH_PAGES.find((p) => p.path === "/privacy-policy")!;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-cpu-"));
  const children: ChildProcess[] = [];
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const api = node("bench/api-process.ts", { DATA_DIR: tmp });
    children.push(api);
    const { url: apiUrl } = await firstJsonLine<{ url: string }>(api);

    // 1. Which upstream calls each page makes, its HTML, and a signed-in cookie (through a recording proxy).
    const proxy = await recordingProxy(apiUrl);
    const probe = await startServer(0, { apiUrl: proxy.url });
    const html = new Map<string, string>();
    const floorCalls: { url: string; cookie?: string }[][] = [];
    try {
      for (const [i, p] of [privacy, ...signedIn].entries()) {
        const id = `bench-probe-${i}-0000`;
        const res = await fetch(`${probe.url}${p.path}`, {
          headers: { "x-request-id": id, ...(p.auth ? { cookie: probe.cookie } : {}) },
          redirect: "manual",
        });
        if (res.status !== 200) throw new Error(`${p.name}: ${res.status}`);
        html.set(p.name, await res.text());
        const calls = proxy.calls.get(id) ?? [];
        if (calls.some((c) => c.method !== "GET"))
          throw new Error(`${p.name}: a page view that writes upstream`);
        floorCalls.push(calls.map((c) => ({ url: new URL(c.path, apiUrl).href, cookie: c.cookie })));
      }
    } finally {
      await probe.stop();
      await proxy.close();
    }
    const cookie = probe.cookie; // the same SESSION_SECRET opens it in the next server; the api session lives on

    // 2. The processes measured: the product (alone, in front of the api), the two floors.
    const web = await startServer(0, { apiUrl });
    stops.push(web.stop);
    fs.writeFileSync(path.join(tmp, "privacy.html"), html.get(privacy.name)!);
    fs.writeFileSync(path.join(tmp, "calls.json"), JSON.stringify(floorCalls));
    const bare = node("bench/floor-static.ts", { FLOOR_HTML: path.join(tmp, "privacy.html") });
    const data = node("bench/floor-data.ts", { FLOOR_CALLS: path.join(tmp, "calls.json") });
    const remix = startRemixFloor(path.join(tmp, "privacy.html"));
    children.push(bare, data, remix);
    const [{ port: barePort }, { port: dataPort }, { port: remixPort }] = await Promise.all([
      firstJsonLine<{ port: number }>(bare),
      firstJsonLine<{ port: number }>(data),
      firstJsonLine<{ port: number }>(remix),
    ]);

    const staticUrl = `${web.url}${privacy.path}`;
    const failures: string[] = [];
    const bad = (name: string, ...ms: { bad: number }[]) => {
      const n = ms.reduce((sum, m) => sum + m.bad, 0);
      if (n) failures.push(`${name}: ${n} answers not 2xx`);
    };
    // Warm every process on every page first. Measured after 50 warm-up requests, the static floor read 4.8 ms
    // when the same process answered it in 1.8 once the shared code (Remix, React) was optimised: a floor
    // measured cold is too high, and every ratio against it too low.
    const WARMUP = Number(process.env.BENCH_CPU_WARMUP ?? 500);
    const warm = (url: string, headers: Record<string, string> = {}, amount = WARMUP) =>
      autocannon({ url, connections: CONNECTIONS, amount, headers });
    // The bare floor is one small process that no other page warms: after 500 requests it still answered in 0.49
    // ms what it answers in 0.16 from its 2,000th on (2026-11-25), and the static floor's ratio read 2.1× bare
    // instead of 5×. It gets 5,000, and is measured again beside every page (below).
    await warm(`http://127.0.0.1:${barePort}/`, {}, Number(process.env.BENCH_CPU_BARE_WARMUP ?? 5000));
    await warm(`http://127.0.0.1:${remixPort}/`, {}, Number(process.env.BENCH_CPU_BARE_WARMUP ?? 5000));
    await warm(staticUrl);
    for (const [i, p] of signedIn.entries()) {
      await warm(`http://127.0.0.1:${dataPort}/${i + 1}`);
      await warm(`${web.url}${p.path}`, { cookie });
    }
    const staticBytes = Buffer.byteLength(html.get(privacy.name)!);
    /** Every round's bare floor and static floor, measured back to back: the static floor's row is their median. */
    const staticVsBare: { bare: number; remix: number; web: number }[] = [];
    const staticR = await rounds(async () => {
      const bareM = await measure(`http://127.0.0.1:${barePort}/`, {}, [bare.pid!]);
      const remixM = await measure(`http://127.0.0.1:${remixPort}/`, {}, [remix.pid!]);
      const staticM = await measure(staticUrl, {}, [web.pid, api.pid!], staticBytes);
      bad(privacy.name, bareM, remixM, staticM);
      staticVsBare.push({ bare: bareM.perPage[0], remix: remixM.perPage[0], web: staticM.perPage[0] });
      return { api: staticM.perPage[1] };
    });
    const kib = (s: string) => (Buffer.byteLength(s) / 1024).toFixed(1);
    const gzKib = (s: string) => (zlib.gzipSync(s).length / 1024).toFixed(1);
    const header = [
      "page",
      "web CPU ms/page",
      "ratio",
      "static floor ms/page",
      "data floor ms/page",
      "api CPU ms/page",
      "HTML KiB",
      "HTML KiB gz",
      "upstream GETs",
    ];
    const pageRows: (string | number)[][] = [];
    const ratios: CpuGoals["pages"] = [];
    for (const [i, p] of signedIn.entries()) {
      // The page and its two floors back to back, so that all three see the machine at the same speed.
      const r = await rounds(async () => {
        const bareM = await measure(`http://127.0.0.1:${barePort}/`, {}, [bare.pid!]);
        const remixM = await measure(`http://127.0.0.1:${remixPort}/`, {}, [remix.pid!]);
        const staticM = await measure(staticUrl, {}, [web.pid, api.pid!], staticBytes);
        staticVsBare.push({ bare: bareM.perPage[0], remix: remixM.perPage[0], web: staticM.perPage[0] });
        const floor = await measure(`http://127.0.0.1:${dataPort}/${i + 1}`, {}, [data.pid!, api.pid!]);
        const page = await measure(
          `${web.url}${p.path}`,
          { cookie },
          [web.pid, api.pid!],
          Buffer.byteLength(html.get(p.name)!) * 0.9,
        );
        bad(p.name, bareM, remixM, staticM, floor, page);
        return {
          web: page.perPage[0],
          static: staticM.perPage[0],
          floor: floor.perPage[0],
          api: page.perPage[1],
          ratio: page.perPage[0] / (staticM.perPage[0] + floor.perPage[0]),
        };
      });
      const h = html.get(p.name)!;
      ratios.push({ name: p.name, ratio: r.ratio });
      pageRows.push([
        p.name,
        r.web.toFixed(2),
        `${r.ratio.toFixed(2)}×`,
        r.static.toFixed(2),
        r.floor.toFixed(2),
        r.api.toFixed(2),
        kib(h),
        gzKib(h),
        floorCalls[i + 1].length,
      ]);
    }
    console.log(
      `\n## Server CPU per page (web and api as separate processes; ${N} pages a measurement, ${CONNECTIONS} connections; median of ${ROUNDS} rounds)\n`,
    );
    console.log(
      "ratio: web CPU ÷ (static floor + that page's data floor), each round's floors measured just before its page; the static floor's: ÷ the bare Remix app (goal ≤ 1.5×) and ÷ bare express.\n",
    );
    // The two floors' rows: the median of every round in which both were measured (the first rounds and one
    // beside each page), so that they see the machine at every speed it had during the run.
    const mid = (f: (x: (typeof staticVsBare)[number]) => number) => median(staticVsBare.map(f));
    const privacyHtml = html.get(privacy.name)!;
    const floorRows: (string | number)[][] = [
      [
        "bare express + renderToString (privacy HTML)",
        mid((x) => x.bare).toFixed(2),
        "—",
        "—",
        "—",
        "—",
        "—",
        "—",
        0,
      ],
      [
        "bare Remix v2 app (privacy elements, no middleware)",
        mid((x) => x.remix).toFixed(2),
        `${mid((x) => x.remix / x.bare).toFixed(2)}× bare`,
        "—",
        "—",
        "—",
        "—",
        "—",
        0,
      ],
      [
        "privacy policy (static floor)",
        mid((x) => x.web).toFixed(2),
        `${mid((x) => x.web / x.remix).toFixed(2)}× bare Remix, ${mid((x) => x.web / x.bare).toFixed(2)}× bare (${staticVsBare.length} rounds)`,
        "—",
        "—",
        staticR.api.toFixed(2),
        kib(privacyHtml),
        gzKib(privacyHtml),
        0,
      ],
    ];
    console.log(table([header, ...floorRows, ...pageRows]));
    if (failures.length) console.log(`\nNot every answer was 2xx: ${failures.join("; ")}`);
    return { pages: ratios, staticVsRemix: mid((x) => x.web / x.remix) };
  } finally {
    for (const stop of stops) await stop();
    for (const c of children) await stopChild(c);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
