import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startApi, type RunningApi } from "../../api/server";
import { TEST_CLOCK_START } from "../support/clock";
import { freePort } from "../support/stack";
import { WEB_SERVER } from "../../shared/build-output.mjs";

/**
 * The built production server (`dist/server.js`) as a child process in front of a real api (fresh in-memory
 * seeded database) that can answer every call after a fixed latency: a slow upstream for the overload suite.
 * Both clocks start at the test servers' instant (`env.CLOCK_START` chooses another), so every server sees the
 * same demo, seeded once per run and copied after (SEED_CACHE_DIR, api/db/seed/snapshot.ts).
 */
export async function startServerChild({
  apiLatencyMs = 0,
  env = {},
  nodeArgs = [],
  embeddedApi = false,
}: { apiLatencyMs?: number; env?: Record<string, string>; nodeArgs?: string[]; embeddedApi?: boolean } = {}) {
  const clockStart = env.CLOCK_START ?? TEST_CLOCK_START;
  // The embedded api (a worker thread of the server, as `npm start` runs it) or one in this process.
  const api: RunningApi | null = embeddedApi
    ? null
    : await startApi({
        port: 0,
        dbFile: ":memory:",
        quiet: true,
        latencyMs: apiLatencyMs,
        thermostatActionDelayMs: 1000,
        clockStart,
      });
  const embedded = embeddedApi
    ? {
        API_URL: "",
        API_PORT: String(await freePort()),
        API_LATENCY_MS: String(apiLatencyMs),
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "server-child-")),
      }
    : {};
  const port = await freePort();
  const logs: string[] = [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, path.resolve(WEB_SERVER)], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      API_URL: api?.url ?? "",
      SESSION_SECRET: "server-child-secret-0123456789abcdef0123456789",
      LOG_LEVEL: "warn",
      QUIET_BANNER: "true",
      LOGIN_RATE_LIMIT_PER_ACCOUNT: "100000",
      LOGIN_RATE_LIMIT_PER_IP: "100000",
      CLOCK_START: clockStart,
      ...embedded,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => logs.push(String(d)));
  child.stderr!.on("data", (d) => logs.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error(`web server exited: ${logs.join("")}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`web server did not start: ${logs.join("")}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    logs,
    /** The child's resident set size in MB, from /proc. */
    rssMb() {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
    },
    async stop() {
      // A child killed by a signal has no exit code, only a signal code: it has exited all the same.
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      await api?.close();
      if (embedded.DATA_DIR) fs.rmSync(embedded.DATA_DIR, { recursive: true, force: true });
    },
  };
}
