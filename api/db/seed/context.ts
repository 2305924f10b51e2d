import type { DB } from "..";
import type { Rand } from "../../lib/prng";

export type SeedContext = {
  db: DB;
  /** Today at 00:00 UTC: every seeded date is relative to it, so the demo never goes stale. */
  today: Date;
  /** A deterministic PRNG; each area should make its own with `prng(<area seed>)` to stay independent. */
  rand: Rand;
  staffEmailDomain: string;
};

export const isoDate = (d: Date) => d.toISOString().slice(0, 10);
export const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);
