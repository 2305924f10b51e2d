import * as clock from "../../lib/clock";
import type { DB } from "..";
import { prng } from "../../lib/prng";
import type { SeedContext } from "./context";
import { seedCore } from "./core";
import { seedDevices } from "./devices";
import { seedLocations } from "./locations";
import { seedThermostats } from "./thermostats";
import { seedBills } from "./bills";
import { seedUsage } from "./usage";
import { seedGrid } from "./grid";
import { seedCompliance } from "./compliance";
import { seedAccounts } from "./accounts";
import { seedExtraLocations } from "./extra-locations";

/** Every area's seed, in order. One line per area; each takes the same context. */
const seeds: ((ctx: SeedContext) => void)[] = [
  seedCore,
  seedDevices,
  seedLocations,
  seedThermostats,
  seedBills,
  seedUsage,
  seedGrid,
  seedCompliance,
  seedAccounts,
  // Last, and only with API_EXTRA_LOCATIONS: a large client for the bench (extra-locations.ts).
  seedExtraLocations,
];

export function todayUtc(now = clock.now()) {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * The seeds that write only history (13 months of 15-minute usage, half-hourly thermostat history): over a
 * million rows, most of a seed's time. Nothing writes these tables at runtime, and their rows depend on the
 * day only (`ctx.today`), so a reset on the day they were written keeps them.
 */
const HISTORY: { seed: (ctx: SeedContext) => void; tables: string[] }[] = [
  { seed: seedUsage, tables: ["usage_intervals"] },
  // The daily aggregates are written with the history (api/domain/schedule-compliance.ts).
  { seed: seedCompliance, tables: ["thermostat_history", "thermostat_history_daily"] },
];

/** Kept by a reset: the migrations' bookkeeping, who is signed in (a test's session outlives it), the mail log. */
const KEPT_BY_RESET = new Set(["schema_migrations", "sessions", "outbox"]);

/** The day (`todayUtc`, ISO) whose history each database holds, when this process wrote it. */
const historyDay = new WeakMap<DB, string>();

export type SeedOptions = { now?: Date; staffEmailDomain: string; extraLocations?: number };

const context = (db: DB, opts: SeedOptions): SeedContext => {
  const now = opts.now ?? clock.now();
  return {
    db,
    now,
    today: todayUtc(now),
    rand: prng(20240816),
    staffEmailDomain: opts.staffEmailDomain,
    extraLocations: opts.extraLocations ?? 0,
  };
};

/** Seeds the demo data once: a database that already has clients is left alone. */
export function seedIfEmpty(db: DB, opts: SeedOptions) {
  const { n } = db.prepare("SELECT count(*) AS n FROM clients").get() as { n: number };
  if (n > 0) return false;
  const ctx = context(db, opts);
  db.transaction(() => {
    for (const seed of seeds) seed(ctx);
  })();
  historyDay.set(db, ctx.today.toISOString());
  return true;
}

/**
 * Records that `db` holds the history of a seed at `opts.now` (a database loaded from a seed's snapshot,
 * api/db/seed/snapshot.ts), so that a reset on the same day keeps it as it would after `seedIfEmpty`.
 */
export function markHistoryWritten(db: DB, opts: SeedOptions) {
  historyDay.set(db, context(db, opts).today.toISOString());
}

/**
 * Puts the demo data back as a seed at `now` would write it (the test hook POST /dev/reset): every table is
 * emptied and seeded again, in one transaction, except those in KEPT_BY_RESET (sessions of users that no
 * longer exist are ended) and the history tables when this process wrote them on the same day (then a reset
 * takes a fraction of a second instead of seconds). Returns whether the history was written again.
 */
export function resetDemoData(db: DB, opts: SeedOptions) {
  const ctx = context(db, opts);
  const keepHistory = historyDay.get(db) === ctx.today.toISOString();
  const kept = new Set([...KEPT_BY_RESET, ...(keepHistory ? HISTORY.flatMap((h) => h.tables) : [])]);
  const skipped = new Set(keepHistory ? HISTORY.map((h) => h.seed) : []);
  const tables = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
      name: string;
    }[]
  )
    .map((t) => t.name)
    .filter((name) => !kept.has(name));
  // Rows are deleted in any order (foreign keys off), then every table written is checked before the commit.
  db.pragma("foreign_keys = OFF");
  try {
    db.transaction(() => {
      for (const table of tables) db.exec(`DELETE FROM "${table}"`);
      for (const seed of seeds) if (!skipped.has(seed)) seed(ctx);
      db.prepare("DELETE FROM sessions WHERE user_id NOT IN (SELECT id FROM users)").run();
      for (const table of [...tables, "sessions"]) {
        const broken = db.pragma(`foreign_key_check("${table}")`) as unknown[];
        if (broken.length > 0) throw new Error(`reset left ${broken.length} broken references in ${table}`);
      }
    })();
  } finally {
    db.pragma("foreign_keys = ON");
  }
  historyDay.set(db, ctx.today.toISOString());
  return { history: !keepHistory };
}
