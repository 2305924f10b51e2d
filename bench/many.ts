/**
 * `npm run bench -- many`: what a client's size costs the locations dashboard. The demo client (14
 * locations) against the same client with 286 more buildings (API_EXTRA_LOCATIONS=286, api/config.ts): HTML
 * bytes of the dashboard's pages and the web process's CPU per page (from /proc, the api in a process of its
 * own), plus the shell on a location's page. Goals (issue 17): ≤ 100 KiB of HTML and ≤ 2× the web CPU of
 * the 14-location dashboard. Nothing here asserts (tests/ops/many-locations.test.ts does): it reports.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import readline from "node:readline";

const DANA = "dana@harborcoffee.test";

async function freePort() {
  return new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** User + system CPU time of a process so far, in ms (Linux /proc; clock ticks of 10 ms). */
export function cpuMs(pid: number) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
}

/** The api (own process, `extra` more Harbor buildings) and the production web server in front of it. */
export async function startManyStack(extra: number) {
  const api = spawn(process.execPath, ["--import", "tsx", path.resolve("bench/many-api.ts")], {
    env: { ...process.env, API_EXTRA_LOCATIONS: String(extra), LOG_LEVEL: "silent", NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const apiUrl = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: api.stdout! });
    lines.once("line", (l) => resolve((JSON.parse(l) as { url: string }).url));
    api.once("exit", (code) => reject(new Error(`bench api exited (${code})`)));
  });
  const port = await freePort();
  const web: ChildProcess = spawn(process.execPath, [path.resolve("dist/server.js")], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      API_URL: apiUrl,
      SESSION_SECRET: "bench-secret-0123456789abcdef0123456789abcdef",
      LOG_LEVEL: "silent",
      QUIET_BANNER: "true",
      LOGIN_RATE_LIMIT_PER_ACCOUNT: "100000",
      LOGIN_RATE_LIMIT_PER_ACCOUNT_IP: "100000",
      LOGIN_OPTIONS_RATE_LIMIT_PER_IP: "100000",
      LOGIN_RATE_LIMIT_PER_IP: "100000",
      SHED_MAX_IN_FLIGHT: "100000",
      SHED_MAX_EVENT_LOOP_DELAY_MS: "0",
    },
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const login = await fetch(`${url}/login?email=${encodeURIComponent(DANA)}`, {
    method: "POST",
    body: new URLSearchParams({ intent: "password", email: DANA, password: "demo-pass-2024", next: "/" }),
    redirect: "manual",
  });
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.includes("session="))!
    .split(";")[0];
  return {
    url,
    cookie,
    webPid: web.pid!,
    stop: async () => {
      await stopChild(web);
      await stopChild(api);
    },
  };
}

export type ManyRow = { page: string; locations: number; htmlBytes: number; cpuMsPerPage: number };

/** HTML bytes and web CPU ms per page: `requests` sequential GETs of each path after a warm-up. */
export async function measureMany(opts: { requests?: number; warmup?: number } = {}): Promise<ManyRow[]> {
  const requests = opts.requests ?? Number(process.env.BENCH_MANY_REQUESTS ?? 200);
  const warmup = opts.warmup ?? 30;
  const pages = [
    { name: "dashboard", path: "/locations" },
    { name: "dashboard, search", path: "/locations?q=harbor+coffee&sort=lastBill&dir=desc" },
    { name: "dashboard, page 3", path: "/locations?page=3" },
    { name: "control room (shell)", path: "/locations/104/control" },
    { name: "accounts", path: "/accounts" },
    { name: "accounts, page 4", path: "/accounts?page=4" },
    { name: "compliance report", path: "/override-report?period=month&start=2026-10-01" },
    { name: "compliance report, page 4", path: "/override-report?period=month&start=2026-10-01&page=4" },
  ];
  const rows: ManyRow[] = [];
  for (const extra of [0, 286]) {
    const s = await startManyStack(extra);
    try {
      for (const p of pages) {
        if (extra === 0 && /page=[34]/.test(p.path)) continue;
        const get = async () => {
          const res = await fetch(`${s.url}${p.path}`, {
            headers: { cookie: s.cookie, "accept-encoding": "identity" },
          });
          if (res.status !== 200) throw new Error(`${p.path}: HTTP ${res.status}`);
          return (await res.arrayBuffer()).byteLength;
        };
        for (let i = 0; i < warmup; i++) await get();
        const before = cpuMs(s.webPid);
        let bytes = 0;
        for (let i = 0; i < requests; i++) bytes = await get();
        rows.push({
          page: p.name,
          locations: 14 + extra,
          htmlBytes: bytes,
          cpuMsPerPage: (cpuMs(s.webPid) - before) / requests,
        });
      }
    } finally {
      await s.stop();
    }
  }
  return rows;
}

/** Prints the table (called from bench/run.ts for `npm run bench -- many` and `all`). */
export async function many() {
  const rows = await measureMany();
  const base = rows.find((r) => r.page === "dashboard" && r.locations === 14)!;
  const table = [
    ["page", "locations", "HTML KiB", "web CPU ms/page", "× 14-location dashboard CPU"],
    ...rows.map((r) => [
      r.page,
      String(r.locations),
      (r.htmlBytes / 1024).toFixed(1),
      r.cpuMsPerPage.toFixed(2),
      (r.cpuMsPerPage / base.cpuMsPerPage).toFixed(2),
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
  console.log("\n## A client's size: 14 vs 300 locations (web CPU from /proc, api in its own process)\n");
  console.log(table.map((r) => "| " + r.map((c, i) => c.padEnd(widths[i])).join(" | ") + " |").join("\n"));
  console.log(
    "\nGoals: the 300-location dashboard ≤ 100 KiB of HTML and ≤ 2× the 14-location one's web CPU.",
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve("bench/many.ts")) await many();
