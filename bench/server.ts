import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { WEB_SERVER } from "../shared/build-output.mjs";

export const DANA = "dana@harborcoffee.test";

export async function freePort() {
  return new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Waits for a child's first stdout line that is JSON (the helper processes announce their address so). */
export function firstJsonLine<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    let buf = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buf += chunk.toString();
      const line = buf.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve(JSON.parse(line) as T);
    });
    child.once("exit", (code) => reject(new Error(`process exited (${code}) before it listened`)));
  });
}

/** utime + stime of a process so far, in ms (Linux /proc; USER_HZ is 100, so 10 ms ticks). */
export function cpuMs(pid: number) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
}

/**
 * The built tree whose product the benches run: BENCH_TREE (a checkout of another commit, built, e.g. a
 * `git worktree` of the commit before a piece of work, for before/after figures from one sitting), or this one.
 */
export const benchTree = () => path.resolve(process.env.BENCH_TREE ?? ".");

/**
 * The production server (WEB_SERVER, dist/server.js, of `cwd`, default `benchTree()`) signed in as Dana: with the embedded api
 * (fresh database) and an optional upstream latency, or in front of an api of its own (`apiUrl`, then the web
 * process runs alone).
 */
export async function startServer(
  latencyMs: number,
  opts: { apiUrl?: string; nodeArgs?: string[]; env?: Record<string, string>; cwd?: string } = {},
) {
  const port = await freePort();
  const apiPort = await freePort();
  const dataDir = fs.mkdtempSync("/tmp/bench-data-");
  const child: ChildProcess = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), path.resolve(opts.cwd ?? benchTree(), WEB_SERVER)],
    {
      cwd: opts.cwd ?? benchTree(),
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        API_PORT: String(apiPort),
        ...(opts.apiUrl ? { API_URL: opts.apiUrl } : {}),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        SESSION_SECRET: "bench-secret-0123456789abcdef0123456789abcdef",
        LOG_LEVEL: "silent",
        QUIET_BANNER: "true",
        API_LATENCY_MS: String(latencyMs),
        // The benchmark divides Server-Timing by the upstream latency; production servers do not send it by default.
        SERVER_TIMING: "true",
        LOGIN_RATE_LIMIT_PER_ACCOUNT: "100000",
        LOGIN_RATE_LIMIT_PER_ACCOUNT_IP: "100000",
        LOGIN_OPTIONS_RATE_LIMIT_PER_IP: "100000",
        LOGIN_RATE_LIMIT_PER_IP: "100000",
        // Throughput measures capacity: load shedding off (tests/reliability/overload.test.ts covers it).
        SHED_MAX_IN_FLIGHT: "100000",
        SHED_MAX_EVENT_LOOP_DELAY_MS: "0",
        ...opts.env,
      },
      stdio: "ignore",
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 1200; i++) {
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
    /** The embedded api's base URL (its demo outbox, and its test hooks when `ENABLE_TEST_HOOKS` is set). */
    api: `http://127.0.0.1:${apiPort}/api`,
    cookie,
    pid: child.pid!,
    stop: async () => {
      await stopChild(child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs a browser context in through the login form post (the browser stores the __Host- cookie itself). */
export async function signIn(ctx: import("@playwright/test").BrowserContext, url: string) {
  const res = await ctx.request.post(`${url}/login?email=${encodeURIComponent(DANA)}`, {
    form: { intent: "password", email: DANA, password: "demo-pass-2024", next: "/" },
    maxRedirects: 0,
  });
  if (res.status() !== 302) throw new Error(`bench sign-in failed: ${res.status()}`);
}

/**
 * Lighthouse's mobile profile on a page, cold: cache off, slow 4G (562.5 ms RTT, 1.44 Mbps down, 675 kbps up)
 * and a 4x CPU slowdown. Returns the page's CDP session (its network domain enabled).
 */
export async function slow4g(
  ctx: import("@playwright/test").BrowserContext,
  page: import("@playwright/test").Page,
) {
  const cdp = await ctx.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 562.5,
    downloadThroughput: (1.44 * 1024 * 1024) / 8,
    uploadThroughput: (675 * 1024) / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  return cdp;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const table = (rows: (string | number)[][]) => {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => "| " + r.map((c, i) => String(c).padEnd(widths[i])).join(" | ") + " |").join("\n");
};
