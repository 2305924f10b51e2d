import * as clock from "../lib/clock";
import { z } from "zod";
import { sessionRouter } from "../lib/auth";
import { buildingRoute } from "../lib/buildings";
import { type ApiDeps, parse, validationError } from "../lib/http";
import { isoDate } from "../lib/schemas";
import { instantsBetween, isoWithOffset, wallClockIso } from "../lib/wall-clock";

export const USAGE_PERIODS = ["quarter_hour", "hour", "day", "week", "month", "year"] as const;
export type UsagePeriod = (typeof USAGE_PERIODS)[number];

/** The longest range (days) each granularity answers, so that a single answer stays small. */
const MAX_DAYS: Record<UsagePeriod, number> = {
  quarter_hour: 31,
  hour: 93,
  day: 400,
  week: 800,
  month: 1500,
  year: 3700,
};
export const EARLIEST_DATE = "2021-01-01";

const usageQuery = z.object({
  start_date: isoDate,
  end_date: isoDate,
  period: z.enum(USAGE_PERIODS),
});

/** SQL for the start of the bucket that holds interval `ts` (local wall-clock epoch seconds). */
const BUCKET_SQL: Record<UsagePeriod, string> = {
  quarter_hour: "ts",
  hour: "ts - ts % 3600",
  day: "ts - ts % 86400",
  week: "ts - ts % 86400 - (((ts / 86400) + 3) % 7) * 86400",
  month: "CAST(strftime('%s', ts, 'unixepoch', 'start of month') AS INTEGER)",
  year: "CAST(strftime('%s', ts, 'unixepoch', 'start of year') AS INTEGER)",
};

/** The next bucket start after `ts` (wall-clock epoch seconds). */
export function nextBucket(ts: number, period: UsagePeriod) {
  const d = new Date(ts * 1000);
  switch (period) {
    case "quarter_hour":
      return ts + 900;
    case "hour":
      return ts + 3600;
    case "day":
      return ts + 86400;
    case "week":
      return ts + 7 * 86400;
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
    case "year":
      return Date.UTC(d.getUTCFullYear() + 1, 0, 1) / 1000;
  }
}

/** The bucket start holding `ts` (same rule as BUCKET_SQL, in JavaScript). */
export function bucketStart(ts: number, period: UsagePeriod) {
  const d = new Date(ts * 1000);
  switch (period) {
    case "quarter_hour":
      return ts - (ts % 900);
    case "hour":
      return ts - (ts % 3600);
    case "day":
      return ts - (ts % 86400);
    case "week":
      return ts - (ts % 86400) - ((Math.floor(ts / 86400) + 3) % 7) * 86400;
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
    case "year":
      return Date.UTC(d.getUTCFullYear(), 0, 1) / 1000;
  }
}

/** Today's date (YYYY-MM-DD) in a timezone. */
function localToday(timeZone: string) {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(clock.now());
}

type Row = { b: number; f: number; kwh: number; kw: number; indoor: number | null; outdoor: number | null };

/** Quarter hours and hours are instants: their buckets keep the two occurrences of a repeated hour apart. */
const SUB_DAY: ReadonlySet<UsagePeriod> = new Set(["quarter_hour", "hour"]);

const round = (v: number | null, digits: number) =>
  v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits;

/** Usage insights aggregated in SQL from the stored 15-minute intervals (docs/api/bills.md). */
export function usageRoutes(deps: ApiDeps) {
  const { r, db } = sessionRouter(deps, [
    "/insights/:buildingId/energy-consumption",
    "/insights/:buildingId/energy-demand",
    "/insights/:buildingId/available-usage",
  ]);

  r.get(
    "/insights/:buildingId/available-usage",
    buildingRoute(db, (building, req, res) => {
      const row = db
        .prepare("SELECT 1 AS x FROM usage_intervals WHERE building_id = ? LIMIT 1")
        .get(building.id);
      res.json({ available_usage: Boolean(row) });
    }),
  );

  for (const kind of ["consumption", "demand"] as const) {
    r.get(
      `/insights/:buildingId/energy-${kind}`,
      buildingRoute(db, (building, req, res) => {
        const q = parse(usageQuery, req.query, "query");
        const problems: { location: string; message: string }[] = [];
        if (q.start_date < EARLIEST_DATE)
          problems.push({ location: "start_date", message: `must not be before ${EARLIEST_DATE}` });
        if (q.end_date < q.start_date)
          problems.push({ location: "end_date", message: "must not be before start_date" });
        const startTs = Date.parse(`${q.start_date}T00:00:00Z`) / 1000;
        const endTs = Date.parse(`${q.end_date}T00:00:00Z`) / 1000 + 86400; // end date inclusive
        if ((endTs - startTs) / 86400 > MAX_DAYS[q.period]) {
          problems.push({
            location: "period",
            message: `${q.period} covers at most ${MAX_DAYS[q.period]} days`,
          });
        }
        if (problems.length) throw validationError({ query: problems });

        const subDay = SUB_DAY.has(q.period);
        const rows = db
          .prepare(
            `SELECT ${BUCKET_SQL[q.period]} AS b, ${subDay ? "fold" : "0"} AS f, SUM(kwh) AS kwh, MAX(kw) AS kw,
               AVG(indoor_f) AS indoor, AVG(outdoor_f) AS outdoor
             FROM usage_intervals WHERE building_id = ? AND ts >= ? AND ts < ? GROUP BY b, f ORDER BY b, f`,
          )
          .all(building.id, startTs, endTs) as Row[];
        const byBucket = new Map(rows.map((row) => [`${row.b} ${row.f}`, row]));
        // Every bucket of the range up to today, in order: a bucket without intervals is a gap (null).
        const todayTs = Date.parse(`${localToday(building.timezone)}T00:00:00Z`) / 1000;
        const last = Math.min(endTs, todayTs);
        const energy: { start_ts: string; value: number | null }[] = [];
        const indoor: typeof energy = [];
        const outdoor: typeof energy = [];
        const push = (start_ts: string, row: Row | undefined) => {
          energy.push({ start_ts, value: row ? round(kind === "consumption" ? row.kwh : row.kw, 2) : null });
          indoor.push({ start_ts, value: row ? round(row.indoor, 1) : null });
          outdoor.push({ start_ts, value: row ? round(row.outdoor, 1) : null });
        };
        if (subDay) {
          // Hours are instants labelled in the building's zone: 23 on the day the clocks go
          // forward (no 2:00 AM), 25 on the day they go back (1:00 AM twice, at two offsets).
          const step = q.period === "hour" ? 3600 : 900;
          for (const i of instantsBetween(startTs, Math.max(startTs, last), step, building.timezone))
            push(isoWithOffset(i.wall, i.offset), byBucket.get(`${i.wall} ${i.fold}`));
        } else {
          for (let b = bucketStart(startTs, q.period); b < last; b = nextBucket(b, q.period))
            push(wallClockIso(b, building.timezone), byBucket.get(`${b} 0`));
        }
        const energyKey = kind === "consumption" ? "energy_consumption" : "energy_demand";
        res.json({
          [energyKey]: { values: energy, units: kind === "consumption" ? "kWh" : "kW" },
          outdoor_temperatures: { values: outdoor, units: "°F" },
          indoor_temperatures: { values: indoor, units: "°F" },
        });
      }),
    );
  }

  return r;
}
