/**
 * `npm run bench -- many`: what a client's size costs the locations dashboard. The demo client (14
 * locations) against the same client with 286 more buildings (API_EXTRA_LOCATIONS=286, api/config.ts): HTML
 * bytes of the dashboard's pages and the web process's CPU per page (from /proc, the api in a process of its
 * own), plus the shell on a location's page. Goals: ≤ 100 KiB of HTML and ≤ 2× the web CPU of
 * the 14-location dashboard. Nothing here asserts (tests/ops/many-locations.test.ts does): it reports.
 *
 */
import { spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { cpuMs, median, startServer, stopChild } from "./server";

/** The api (own process, `extra` more Harbor buildings) and the production web server in front of it. */
export async function startManyStack(extra: number, env: Record<string, string> = {}) {
  const api = spawn(process.execPath, ["--import", "tsx", path.resolve("bench/many-api.ts")], {
    env: { ...process.env, API_EXTRA_LOCATIONS: String(extra), LOG_LEVEL: "silent", NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const apiUrl = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: api.stdout! });
    lines.once("line", (l) => resolve((JSON.parse(l) as { url: string }).url));
    api.once("exit", (code) => reject(new Error(`bench api exited (${code})`)));
  });
  const web = await startServer(0, { apiUrl, env });
  // A returning visitor's cookies: the session and the `styles` cookie a first visit gets, which says the
  // stylesheets are cached (a first visit also carries them inline, ~24 KiB of HTML). The goals are about the
  // pages people see every day, so the bench measures those (as tests/ops/many-locations.test.ts does).
  const first = await fetch(`${web.url}/privacy-policy`, { headers: { cookie: web.cookie } });
  await first.text();
  const styles = /(?:^|,\s*)(styles=[^;,]+)/.exec(first.headers.get("set-cookie") ?? "")?.[1];
  if (!styles) throw new Error("no styles cookie on a first visit");
  return {
    url: web.url,
    cookie: web.cookie,
    returning: `${web.cookie}; ${styles}`,
    webPid: web.pid,
    stop: async () => {
      await web.stop();
      await stopChild(api);
    },
  };
}

export type ManyRow = {
  page: string;
  locations: number;
  htmlBytes: number;
  cpuMsPerPage: number;
  /** Web CPU ÷ the 14-location dashboard's, measured in the same round (median). */
  timesBase: number;
};

/**
 * HTML bytes and web CPU ms per page: `requests` sequential GETs of each path, in BENCH_ROUNDS rounds (default
 * 3). Both clients' stacks run together and each page is measured on one, then the other, so that a ratio
 * compares figures taken minutes apart at most, not a whole run apart: this machine's speed drifts.
 */
export async function measureMany(opts: { requests?: number; warmup?: number } = {}): Promise<ManyRow[]> {
  const requests = opts.requests ?? Number(process.env.BENCH_MANY_REQUESTS ?? 200);
  // A page's first hundreds of answers run while V8 is still compiling its code: 30 warm-up requests left the
  // first page measured in each stack (the dashboard, the goal's baseline) 20–30 % dearer than the same code
  // warm. Every page is measured warm.
  const warmup = opts.warmup ?? Number(process.env.BENCH_MANY_WARMUP ?? 300);
  const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
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
  const stacks: { extra: number; s: Awaited<ReturnType<typeof startManyStack>> }[] = [];
  try {
    for (const extra of [0, 286]) stacks.push({ extra, s: await startManyStack(extra) });
    const seen = new Map<string, { row: Omit<ManyRow, "cpuMsPerPage" | "timesBase">; cpu: number[] }>();
    for (let round = 0; round < rounds; round++)
      for (const p of pages)
        for (const { extra, s } of stacks) {
          if (extra === 0 && /page=[34]/.test(p.path)) continue;
          const get = async () => {
            const res = await fetch(`${s.url}${p.path}`, {
              headers: { cookie: s.returning, "accept-encoding": "identity" },
            });
            if (res.status !== 200) throw new Error(`${p.path}: HTTP ${res.status}`);
            return (await res.arrayBuffer()).byteLength;
          };
          for (let i = 0; i < (round === 0 ? warmup : 20); i++) await get();
          const before = cpuMs(s.webPid);
          let bytes = 0;
          for (let i = 0; i < requests; i++) bytes = await get();
          const key = `${extra} ${p.name}`;
          const entry = seen.get(key) ?? {
            row: { page: p.name, locations: 14 + extra, htmlBytes: bytes },
            cpu: [],
          };
          entry.cpu.push((cpuMs(s.webPid) - before) / requests);
          seen.set(key, entry);
        }
    return [...seen.values()]
      .sort((a, b) => a.row.locations - b.row.locations)
      .map(({ row, cpu }) => {
        const base = seen.get("0 dashboard")!.cpu;
        return {
          ...row,
          cpuMsPerPage: median(cpu),
          timesBase: median(cpu.map((c, round) => c / base[round])),
        };
      });
  } finally {
    for (const { s } of stacks) await s.stop();
  }
}

/** Prints the table (called from bench/run.ts for `npm run bench -- many` and `all`). */
export async function many() {
  const rows = await measureMany();
  const table = [
    ["page", "locations", "HTML KiB", "web CPU ms/page", "× 14-location dashboard CPU"],
    ...rows.map((r) => [
      r.page,
      String(r.locations),
      (r.htmlBytes / 1024).toFixed(1),
      r.cpuMsPerPage.toFixed(2),
      r.timesBase.toFixed(2),
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
  console.log(
    "\n## A client's size: 14 vs 300 locations (a returning visitor's pages; web CPU from /proc, api in its own process; median of the rounds)\n",
  );
  console.log(table.map((r) => "| " + r.map((c, i) => c.padEnd(widths[i])).join(" | ") + " |").join("\n"));
  console.log(
    "\nGoals: the 300-location dashboard ≤ 100 KiB of HTML and ≤ 2× the 14-location one's web CPU.",
  );
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve("bench/many.ts")) await many();
