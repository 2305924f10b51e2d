import { spawn, spawnSync } from "node:child_process";
import net from "node:net";
import { freePort } from "./stack";

/**
 * A real redis-server for the suites that prove state shared between web instances (REDIS_URL): installed
 * by scripts/ensure-redis.sh as root; where it cannot be, those suites are skipped with a message.
 */
export function redisAvailable(what: string): boolean {
  const ok = spawnSync("sh", ["-c", "command -v redis-server"]).status === 0;
  if (!ok) console.warn(`redis-server is not installed: skipping ${what} (scripts/ensure-redis.sh).`);
  return ok;
}

async function waitForPort(port: number) {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("redis-server did not start");
}

/** A redis-server on a free loopback port, nothing persisted; `stop` ends it. */
export async function startRedis() {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  await waitForPort(port);
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") };
}

function spawnRedis(port: number) {
  return spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
}

/**
 * A redis-server the outage tests can take away: `shutdownNosave()` (what `redis-cli shutdown nosave`, an
 * operator or a managed failover does), `freeze()`/`thaw()` (SIGSTOP/SIGCONT: connections stay open, nothing
 * answers), `restart()` on the same port (empty, as after a failover). `port` may name a port nothing
 * listens on yet (a server started while Redis is unreachable), then `restart()` starts it the first time.
 */
export async function controllableRedis(opts: { port?: number; started?: boolean } = {}) {
  const port = opts.port ?? (await freePort());
  let child: ReturnType<typeof spawnRedis> | undefined;
  const start = async () => {
    child = spawnRedis(port);
    await waitForPort(port);
  };
  if (opts.started !== false) await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    /** Sends SHUTDOWN NOSAVE on a connection of its own, and resolves once the server has exited. */
    async shutdownNosave() {
      const c = child;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((r) => c.once("exit", r));
      const socket = net.connect(port, "127.0.0.1", () =>
        socket.write("*2\r\n$8\r\nSHUTDOWN\r\n$6\r\nNOSAVE\r\n"),
      );
      socket.on("error", () => undefined);
      await exited;
      socket.destroy();
    },
    restart: start,
    freeze: () => child?.kill("SIGSTOP"),
    thaw: () => child?.kill("SIGCONT"),
    stop() {
      child?.kill("SIGCONT");
      child?.kill("SIGTERM");
    },
  };
}
