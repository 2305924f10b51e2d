/**
 * lib/zoned against @date-fns/tz (ADR 0023): the schedule-compliance report's month of hourly points (744) for
 * one thermostat, each a wall-clock hour turned into an instant and read back as calendar fields, the way
 * `features/compliance/compliance.ts` builds its series. "new": instants not seen before (memo empty for
 * them); "again": the same month viewed again. Medians of 40 rounds, in one process.
 *
 *   npx tsx bench/zoned.ts
 */
import { TZDate } from "@date-fns/tz";
import { zonedParts, zonedTime } from "~/lib/zoned";

const TZ = "America/Los_Angeles";
const HOURS = 24 * 31;

function ours(offset: number) {
  let sum = 0;
  for (let i = 0; i < HOURS; i++) {
    const p = zonedParts(zonedTime(TZ, 2026, 10, 1, i + offset), TZ);
    sum += p.hour + p.day;
  }
  return sum;
}

function library(offset: number) {
  let sum = 0;
  for (let i = 0; i < HOURS; i++) {
    const p = new TZDate(new TZDate(2026, 9, 1, i + offset, 0, TZ).getTime(), TZ);
    sum += p.getHours() + p.getDate();
  }
  return sum;
}

if (ours(0) !== library(0)) throw new Error("lib/zoned and @date-fns/tz read the month differently");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs: Record<string, number[]> = {};
const time = (name: string, f: () => unknown) => {
  const t = performance.now();
  f();
  (runs[name] ??= []).push(performance.now() - t);
};
for (let k = 1; k <= 40; k++) {
  time("lib/zoned, new month", () => ours(k * HOURS));
  time("lib/zoned, same month again", () => ours(0));
  time("@date-fns/tz, new month", () => library(k * HOURS));
  time("@date-fns/tz, same month again", () => library(0));
}
for (const [name, xs] of Object.entries(runs)) console.log(`${name}: ${median(xs).toFixed(2)} ms`);
