import { prng } from "../../lib/prng";
import type { SeedContext } from "./context";
import { gridLoadEffects } from "./grid";
import { HARBOR_BUILDINGS } from "./ids";
import { offsetMinutes, wallInstants } from "../../lib/wall-clock";

/** The one Harbor location without stored usage (available_usage false). */
export const NO_USAGE_BUILDING = 107;
export const USAGE_DAYS = 396; // 13 months
const STEP = 900; // 15 minutes in seconds

/** Climate per building: latitude, annual mean °F, seasonal amplitude °F, load scale. */
export const CLIMATE: Record<number, { lat: number; mean: number; amp: number; scale: number }> = {
  101: { lat: 47.6, mean: 53, amp: 13, scale: 1.25 },
  102: { lat: 47.6, mean: 53, amp: 13, scale: 0.9 },
  103: { lat: 47.7, mean: 52, amp: 13, scale: 1.0 },
  104: { lat: 37.8, mean: 58, amp: 6, scale: 1.6 },
  105: { lat: 30.3, mean: 69, amp: 17, scale: 1.1 },
  106: { lat: 41.9, mean: 51, amp: 23, scale: 1.0 },
  107: { lat: 41.9, mean: 51, amp: 23, scale: 0.5 },
  108: { lat: 39.7, mean: 51, amp: 21, scale: 0.95 },
  109: { lat: 40.7, mean: 56, amp: 20, scale: 1.05 },
  110: { lat: 40.7, mean: 56, amp: 20, scale: 0.85 },
  111: { lat: 40.7, mean: 55, amp: 20, scale: 0.9 },
  112: { lat: 42.4, mean: 52, amp: 21, scale: 1.15 },
  113: { lat: 33.7, mean: 63, amp: 17, scale: 1.0 },
  114: { lat: 25.8, mean: 77, amp: 8, scale: 1.2 },
};

/** Smooth deterministic day-to-day weather noise (a sum of slow sinusoids with building phases). */
function weatherNoise(building: number, dayNumber: number) {
  const p = building * 1.7;
  return (
    4 * Math.sin(dayNumber / 3.1 + p) +
    3 * Math.sin(dayNumber / 7.3 + p * 2) +
    2 * Math.sin(dayNumber / 1.7 + p * 3)
  );
}

/**
 * Outdoor temperature (°F) at a local wall-clock time (epoch seconds as if UTC): season by day of year
 * (coldest mid-January), a diurnal swing peaking mid-afternoon, and smooth weather noise.
 */
export function outdoorTemperature(building: number, localTs: number) {
  const c = CLIMATE[building] ?? CLIMATE[101];
  const dayNumber = Math.floor(localTs / 86400);
  const d = new Date(localTs * 1000);
  const doy =
    (Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(d.getUTCFullYear(), 0, 1)) /
    86400000;
  const hour = d.getUTCHours() + d.getUTCMinutes() / 60;
  const seasonal = c.mean - c.amp * Math.cos((2 * Math.PI * (doy - 15)) / 365);
  const diurnal = (6 + c.amp / 5) * Math.sin((2 * Math.PI * (hour - 9)) / 24);
  return seasonal + diurnal + weatherNoise(building, dayNumber);
}

/** Coffee shops are open 6am–8pm local time. */
export const isOpen = (hour: number) => hour >= 6 && hour < 20;

/** Indoor temperature (°F): held near 71 while open, drifting toward outdoor when closed. */
export function indoorTemperature(outdoor: number, hour: number, jitter: number) {
  const setpoint = 71;
  const coupling = isOpen(hour) ? 0.06 : 0.3;
  return Math.min(88, Math.max(52, setpoint + coupling * (outdoor - setpoint) + jitter));
}

/** Demand (kW): refrigeration base load, opening hours load with a morning espresso peak, HVAC by outdoor temperature. */
export function demandKw(building: number, hour: number, outdoor: number, weekday: number, jitter: number) {
  const c = CLIMATE[building] ?? CLIMATE[101];
  const base = 4.5;
  let load = base;
  if (isOpen(hour)) {
    const peak = Math.exp(-((hour - 8) ** 2) / 2) * 9;
    const lunch = Math.exp(-((hour - 12.5) ** 2) / 1.5) * 4;
    load += 11 + peak + lunch + (weekday === 0 || weekday === 6 ? 2 : 0);
    const hvac = Math.max(0, outdoor - 68) * 0.45 + Math.max(0, 60 - outdoor) * 0.3;
    load += hvac;
  } else {
    load += Math.max(0, outdoor - 75) * 0.1 + Math.max(0, 45 - outdoor) * 0.12;
  }
  return Math.max(1, load * c.scale * (1 + jitter));
}

/** Deterministic gaps per building: [start day offset from the end, length in 15-minute intervals]. */
export function gapsFor(building: number): [number, number][] {
  const r = prng(5030 + building);
  return [
    [Math.floor(r() * 20) + 5, 8 + Math.floor(r() * 24)], // a few hours in the last month
    [Math.floor(r() * 100) + 60, 96 * 2], // two whole days
    [Math.floor(r() * 100) + 200, 4 + Math.floor(r() * 8)], // an hour or two
  ];
}

/** Local midnight (wall clock, epoch seconds) of the first day of stored usage, and the end (exclusive). */
export function usageRange(today: Date) {
  const end = Math.floor(today.getTime() / 1000); // today 00:00 local wall clock: data through yesterday
  return { start: end - USAGE_DAYS * 86400, end };
}

/**
 * 15-minute usage for 13 months for every Harbor location except one: about half a million rows,
 * written with one prepared statement inside the seed's transaction (a second or two). The grid events of
 * the demo (api/db/seed/grid.ts#gridLoadEffects) shape their hours: load shed while thermostats take part,
 * added while they precool, and one event's hours left without data.
 */
export function seedUsage(ctx: SeedContext) {
  const { db, today } = ctx;
  const rand = prng(5031);
  const insert = db.prepare(
    "INSERT INTO usage_intervals (building_id, ts, fold, kwh, kw, indoor_f, outdoor_f) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const zoneOf = db.prepare("SELECT timezone FROM buildings WHERE id = ?");
  const { start, end } = usageRange(today);
  const grid = gridLoadEffects(today);
  for (const building of HARBOR_BUILDINGS) {
    if (building === NO_USAGE_BUILDING) continue;
    const zone = (zoneOf.get(building) as { timezone: string } | undefined)?.timezone ?? "America/New_York";
    const occurrences = wallOccurrences(zone);
    const deltas = grid.deltas.get(building);
    const skip = new Set<number>(grid.gaps.get(building));
    for (const [daysBack, length] of gapsFor(building)) {
      const from = end - daysBack * 86400 + 9 * 3600;
      for (let i = 0; i < length; i++) skip.add(from + i * STEP);
    }
    for (let ts = start; ts < end; ts += STEP) {
      const j1 = rand() - 0.5;
      const j2 = rand() - 0.5;
      if (skip.has(ts)) continue;
      const d = new Date(ts * 1000);
      const hour = d.getUTCHours() + d.getUTCMinutes() / 60;
      const outdoor = outdoorTemperature(building, ts);
      const kw = Math.max(
        1,
        demandKw(building, hour, outdoor, d.getUTCDay(), j1 * 0.16) + (deltas?.get(ts) ?? 0),
      );
      const indoor = indoorTemperature(outdoor, hour, j2 * 0.8);
      // A time the clocks skip has no interval; one they go back over has two, its second (fold 1) a little
      // different (23 hours on the spring day, 25 on the autumn day).
      const times = occurrences(ts);
      for (let fold = 0; fold < times; fold++) {
        const k = fold === 0 ? kw : demandKw(building, hour, outdoor, d.getUTCDay(), -j1 * 0.16);
        insert.run(
          building,
          ts,
          fold,
          Math.round(k * 0.25 * 1000) / 1000,
          Math.round(k * 100) / 100,
          Math.round(indoor * 10) / 10,
          Math.round(outdoor * 10) / 10,
        );
      }
    }
  }
}

/**
 * How many times each wall-clock time (epoch seconds as if UTC) happens in a timezone: 1, or 0 / 2 on the days
 * the clocks change. One look-up per local day; the few days with a change are read per interval.
 */
function wallOccurrences(zone: string) {
  const days = new Map<number, boolean>();
  return (wall: number) => {
    const day = wall - (wall % 86400);
    let changes = days.get(day);
    if (changes === undefined) {
      changes = offsetMinutes(zone, (day - 43200) * 1000) !== offsetMinutes(zone, (day + 129600) * 1000);
      days.set(day, changes);
    }
    return changes ? wallInstants(wall, zone).length : 1;
  };
}
