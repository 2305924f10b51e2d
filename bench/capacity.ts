/**
 * `npm run bench -- capacity`: signed-in pages a second per core through the deployment's nginx with two web
 * instances (docs/deploy.md): nginx (TLS, its configuration from tests/scale/nginx.ts: compression at nginx,
 * session affinity) in front of two production servers (HTTP_COMPRESSION=off, TRUST_PROXY=1), both in front of
 * one reference api in a process of its own. SESSIONS sign-ins of Dana spread the sessions over both instances
 * (nginx hashes on the session cookie); autocannon asks through nginx for a mix of signed-in pages (a document
 * and the `.data` navigations a person makes: dashboard, control room, spending, usage, accounts, settings) at
 * 16 connections, gzip accepted, BENCH_CAPACITY_PAGES pages (default 1,200) after a warm-up.
 * CPU from /proc: the two web processes, nginx (master and workers) and the api. Pages a second per core is
 * pages ÷ CPU seconds: of the web tier alone, and of the web tier with nginx (what a deployment's web hosts
 * spend; the api is the upstream's, not ours). From that: the cores 10,000 signed-in users at one page per 10 s
 * (1,000 pages a second) need, at 70 % utilisation (headroom for peaks and GC). The machine is shared: the
 * figure is this machine's, under its load; a quiet host does more.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { Agent, fetch as undiciFetch } from "undici";
import { cpuMs, firstJsonLine, median, startServer, stopChild, table } from "./server";
import { nginxInFront } from "./slow3g";

const PAGES = Number(process.env.BENCH_CAPACITY_PAGES ?? 1200);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const SESSIONS = 16;
const DANA = "dana@harborcoffee.test";
const USERS = 10_000;
const SECONDS_PER_PAGE = 10;
const UTILISATION = 0.7;

const today = new Date().toISOString().slice(0, 10);
const r = (...ids: string[]) => `_routes=${["root", ...ids.map((id) => `routes/_app.${id}`)].join(",")}`;
/** A person's pages: one document, then links (`.data`), as the browser asks for them. */
const MIX = [
  "/locations",
  "/locations/101/control.data",
  `/locations/101/spending.data?${r("locations.$locationId.spending")}`,
  `/locations/101/usage/demand.data?period=month&start=${today.slice(0, 7)}-01&${r("locations.$locationId.usage.$usageType")}`,
  "/locations.data",
  `/accounts.data?${r("accounts")}`,
  `/settings.data?${r("settings")}`,
];

/** The pids of a process and its children (nginx's master and workers). */
function withChildren(pid: number): number[] {
  try {
    const kids = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    return [pid, ...kids.map(Number)];
  } catch {
    return [pid];
  }
}
const cpuOf = (pids: number[]) =>
  pids.reduce((sum, p) => {
    try {
      return sum + cpuMs(p);
    } catch {
      return sum; // a worker that exited
    }
  }, 0);

/** A sign-in through nginx (its test certificate), so the session cookie is the one nginx's affinity reads. */
async function signInAt(url: string) {
  const login = await undiciFetch(`${url}/login?email=${encodeURIComponent(DANA)}`, {
    dispatcher: new Agent({ connect: { rejectUnauthorized: false } }),
    method: "POST",
    body: new URLSearchParams({ intent: "password", email: DANA, password: "demo-pass-2024", next: "/" }),
    redirect: "manual",
  });
  return login.headers
    .getSetCookie()
    .find((c) => c.includes("session="))!
    .split(";")[0];
}

export type Capacity = {
  perCoreWeb: number;
  perCoreWebNginx: number;
  coresWeb: number;
  coresWebNginx: number;
};

export async function capacity(): Promise<Capacity> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-capacity-"));
  const api = spawn(process.execPath, ["--import", "tsx", path.resolve("bench/api-process.ts")], {
    env: { ...process.env, NODE_ENV: "production", DATA_DIR: tmp },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const stops: (() => Promise<void>)[] = [];
  try {
    const { url: apiUrl } = await firstJsonLine<{ url: string }>(api);
    const env = { HTTP_COMPRESSION: "off", TRUST_PROXY: "1" };
    const webs = [await startServer(0, { apiUrl, env }), await startServer(0, { apiUrl, env })];
    for (const w of webs) stops.push(w.stop);
    const front = await nginxInFront(
      webs.map((w) => w.url.replace("http://", "")),
      "h1",
    );
    stops.push(front.stop);
    const cookies = await Promise.all(Array.from({ length: SESSIONS }, () => signInAt(front.url)));
    // Every connection walks the mix, each request with the next session: both instances get pages.
    const requests = cookies.flatMap((cookie, i) =>
      MIX.map((_, j) => ({
        method: "GET",
        path: MIX[(i + j) % MIX.length],
        headers: { cookie, "accept-encoding": "gzip" },
      })),
    );
    // Pages a second per core come from CPU time, not wall time: autocannon ends a run of `amount` requests on its
    // once-a-second tick, so its pages a second round to whole seconds (1,200 pages read 300 a second).
    const run = async (amount: number) =>
      autocannon({ url: front.url, connections: 16, amount, requests, timeout: 60 });
    await run(Math.min(600, PAGES));
    const nginxPids = () => withChildren(front.pid);
    const rows: (string | number)[][] = [
      ["round", "web CPU ms/page", "nginx CPU ms/page", "api CPU ms/page", "instances' split"],
    ];
    const perWeb: number[] = [];
    const perWebNginx: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const pidsN = nginxPids();
      const before = { w: webs.map((w) => cpuMs(w.pid)), n: cpuOf(pidsN), a: cpuMs(api.pid!) };
      const res = await run(PAGES);
      const w = webs.map((x, i) => cpuMs(x.pid) - before.w[i]);
      const n = cpuOf(pidsN) - before.n;
      const a = cpuMs(api.pid!) - before.a;
      if (res.non2xx || res.errors) throw new Error(`capacity: ${res.non2xx} not 2xx, ${res.errors} errors`);
      const pages = res.requests.total || PAGES;
      const web = w[0] + w[1];
      perWeb.push(pages / (web / 1000));
      perWebNginx.push(pages / ((web + n) / 1000));
      rows.push([
        round + 1,
        (web / pages).toFixed(2),
        (n / pages).toFixed(2),
        (a / pages).toFixed(2),
        `${((100 * w[0]) / web).toFixed(0)} % / ${((100 * w[1]) / web).toFixed(0)} %`,
      ]);
    }
    const need = USERS / SECONDS_PER_PAGE;
    const result: Capacity = {
      perCoreWeb: median(perWeb),
      perCoreWebNginx: median(perWebNginx),
      coresWeb: need / median(perWeb) / UTILISATION,
      coresWebNginx: need / median(perWebNginx) / UTILISATION,
    };
    console.log(
      `\n## Capacity through nginx, two web instances (${SESSIONS} sessions, 16 connections, ${PAGES} pages a round; a mix of ${MIX.length} signed-in pages)\n`,
    );
    console.log(table(rows));
    console.log(
      `\nPages a second per core (median of ${ROUNDS}): ${result.perCoreWeb.toFixed(0)} (web processes), ` +
        `${result.perCoreWebNginx.toFixed(0)} (web processes and nginx). ${USERS.toLocaleString("en-US")} users at one page per ` +
        `${SECONDS_PER_PAGE} s = ${need} pages/s: ${result.coresWeb.toFixed(1)} cores of web processes, ` +
        `${result.coresWebNginx.toFixed(1)} with nginx, at ${UTILISATION * 100} % utilisation.`,
    );
    return result;
  } finally {
    for (const stop of stops.reverse()) await stop();
    await stopChild(api);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
