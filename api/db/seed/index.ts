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
];

export function todayUtc(now = clock.now()) {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Seeds the demo data once: a database that already has clients is left alone. */
export function seedIfEmpty(db: DB, opts: { now?: Date; staffEmailDomain: string }) {
  const { n } = db.prepare("SELECT count(*) AS n FROM clients").get() as { n: number };
  if (n > 0) return false;
  const now = opts.now ?? clock.now();
  const ctx: SeedContext = {
    db,
    now,
    today: todayUtc(now),
    rand: prng(20240816),
    staffEmailDomain: opts.staffEmailDomain,
  };
  db.transaction(() => {
    for (const seed of seeds) seed(ctx);
  })();
  return true;
}
