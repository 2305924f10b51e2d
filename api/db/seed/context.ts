import type { DB } from "..";
import type { Rand } from "../../lib/prng";

export type SeedContext = {
  db: DB;
  /** The api clock's "now" when seeding (api/lib/clock.ts): what must be under way, past or upcoming is relative to it. */
  now: Date;
  /** Today at 00:00 UTC (of `now`): dates of history (bills, usage, compliance) are relative to it. */
  today: Date;
  /** A deterministic PRNG; each area should make its own with `prng(<area seed>)` to stay independent. */
  rand: Rand;
  staffEmailDomain: string;
  /** API_EXTRA_LOCATIONS: more buildings for Harbor Coffee Co. (extra-locations.ts); 0 in the demo. */
  extraLocations?: number;
};

export const isoDate = (d: Date) => d.toISOString().slice(0, 10);
export const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);
