import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createApiApp } from "./app";
import { apiConfigFromEnv } from "./config";
import { openDb, type DB } from "./db";
import { seedIfEmpty } from "./db/seed";
import { openSeededDb, type SeededFrom } from "./db/seed/snapshot";
import type { ApiConfig, ApiDeps } from "./lib/http";
import { now as clockNow, setClockStart } from "./lib/clock";
import { startDelivery, type Delivery, type DeliveryOptions } from "./mail/delivery";
import { startSimulators } from "./simulators";
import { startNotificationScheduler } from "./mail/scheduler";
import { applyPendingArcadiaEvents } from "./domain/arcadia-events";
import { connectVerdictHook } from "./mail/connect-verdict";

export type StartApiOptions = Partial<ApiConfig> & {
  port: number;
  host?: string;
  /** A file path, or ":memory:". */
  dbFile: string;
  seed?: boolean;
  log?: ApiDeps["log"];
  /** Tuning of the delivery loop (tests); it runs only with `smtp`. */
  delivery?: DeliveryOptions;
};

export type RunningApi = {
  server: http.Server;
  db: DB;
  url: string;
  deps: ApiDeps;
  /** The loop delivering the outbox through the mail server, when `SMTP_URL` (config `smtp`) is set. */
  delivery?: Delivery;
  close: () => Promise<void>;
};

/** The api's settings: the environment's (api/config.ts), with the caller's options over them. */
function configFor(opts: Partial<ApiConfig> & { log?: ApiDeps["log"] }): ApiConfig {
  return {
    ...apiConfigFromEnv(),
    webBaseUrl: "http://localhost:3000",
    ...Object.fromEntries(
      Object.entries(opts).filter(([k, v]) => v !== undefined && k !== "log" && k !== "delivery"),
    ),
  } as ApiConfig;
}

export function createDeps(db: DB, opts: Partial<ApiConfig> & { log?: ApiDeps["log"] }): ApiDeps {
  return depsWith(db, configFor(opts), opts.log);
}

function depsWith(db: DB, config: ApiConfig, logOption: ApiDeps["log"] | undefined): ApiDeps {
  const log =
    logOption ??
    ((msg: string, data?: Record<string, unknown>) => {
      if (!config.quiet) console.log(JSON.stringify({ level: "info", service: "api", msg, ...data }));
    });
  return { db, config, log };
}

/**
 * Opens the database and seeds the demo when it is empty. A clock with a fixed start seeds at that instant
 * (not a few milliseconds after it), so every api started at the same instant writes the same demo, and with
 * SEED_CACHE_DIR it is seeded once and loaded from its snapshot after (api/db/seed/snapshot.ts).
 */
function openDatabase(opts: StartApiOptions, config: ApiConfig): { db: DB; seeded: SeededFrom | null } {
  if (opts.seed === false || !config.demoData) return { db: openDb(opts.dbFile), seeded: null };
  const seed = {
    now: config.clockStart ? new Date(config.clockStart) : clockNow(),
    staffEmailDomain: config.staffEmailDomain,
    extraLocations: config.extraLocations,
  };
  if (config.seedCacheDir) {
    const { db, from } = openSeededDb(opts.dbFile, { ...seed, cacheDir: config.seedCacheDir });
    return { db, seeded: from === "existing" ? null : from };
  }
  const db = openDb(opts.dbFile);
  return { db, seeded: seedIfEmpty(db, seed) ? "seed" : null };
}

/** Opens and seeds the database, then listens. */
export async function startApi(opts: StartApiOptions): Promise<RunningApi> {
  if (opts.dbFile !== ":memory:") fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
  const config = configFor(opts);
  setClockStart(config.clockStart);
  const { db, seeded } = openDatabase(opts, config);
  const deps = depsWith(db, config, opts.log);
  if (seeded === "seed") deps.log("seeded demo data");
  if (seeded === "snapshot") deps.log("loaded the seeded demo data from its snapshot");
  const stopSimulators = startSimulators(deps);
  const stopNotifications = startNotificationScheduler(deps, deps.config.notificationIntervalMs);
  const server = http.createServer(createApiApp(deps));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  const url = `http://${opts.host ?? "127.0.0.1"}:${port}/api`;
  // No provider configured: the simulator app.ts mounted on this port is the provider (api/simulators/arcadia.ts).
  if (!deps.config.arcadia.apiUrl)
    deps.config.arcadia.apiUrl = `http://${opts.host ?? "127.0.0.1"}:${port}/arcadia-sim`;
  // Events received but not yet applied when the last process stopped.
  void applyPendingArcadiaEvents(deps, connectVerdictHook(deps)).catch((error: unknown) =>
    deps.log("arcadia webhook apply failed", { err: error instanceof Error ? error.message : String(error) }),
  );
  const delivery = deps.config.smtp ? startDelivery(deps, opts.delivery) : undefined;
  return {
    server,
    db,
    url,
    deps,
    delivery,
    close: () =>
      new Promise<void>((resolve) => {
        stopSimulators();
        stopNotifications();
        // Sends under way may finish (bounded) before the database closes; a row still unfinished is left
        // claimed, and sent after its lease by the next process.
        void (delivery?.stop() ?? Promise.resolve()).then(() => {
          server.closeAllConnections?.();
          server.close(() => {
            db.close();
            resolve();
          });
        });
      }),
  };
}
