/**
 * What a grid event measured and earned at one location (rules grid-cbl, grid-event-reduction,
 * grid-event-earnings, grid-season-total; docs/rules.md), from 15-minute demand data.
 *
 * The method is Con Edison's commercial demand-response Customer Baseline Load (CBL, the "average day" CBL of
 * its Commercial System Relief and Distribution Load Relief programs): the baseline of an event hour is the
 * average load of that hour on the highest 5 of the 10 preceding eligible weekdays; event days are not
 * eligible. Weekend events use ConEd's weekend CBL: the highest 2 of the 3 preceding like days (Saturdays for
 * a Saturday). Our decisions where the method leaves room (docs/rules.md says each one):
 * - a day is eligible only when its data covers every 15-minute interval of the event hours (a gap makes the
 *   day ineligible instead of lowering its average); the search looks back at most CBL_LOOKBACK_DAYS days;
 * - the demo data has no holiday calendar: the caller passes the days to exclude (the location's event days);
 *   holidays would go in the same set;
 * - fewer eligible days than the pool (10, or 3) still make a baseline from the highest 5 (or 2) of those
 *   found; fewer than 5 (or 2) make none ("not enough days");
 * - ConEd's optional weather adjustment is not applied.
 *
 * Times are the location's local wall-clock time as epoch seconds read as if UTC (how usage_intervals stores
 * them), so a day is 86,400 seconds and a date is `YYYY-MM-DD` of that instant.
 */

/** Seconds in one demand interval. */
export const INTERVAL_S = 900;
const DAY_S = 86_400;
/** How far back (calendar days before the event) eligible days are looked for. */
export const CBL_LOOKBACK_DAYS = 30;

export const WEEKDAY_CBL = { pool: 10, pick: 5 } as const;
export const WEEKEND_CBL = { pool: 3, pick: 2 } as const;

/** A day of the look-back with its average load over the event's hours. */
export type CblDay = { date: string; averageKw: number };

export type Baseline =
  | {
      kind: "baseline";
      /** The CBL over the event hours: the average of the days used. */
      kw: number;
      method: "weekday" | "weekend";
      /** The eligible days found (most recent first), each with its average over the event hours. */
      eligible: CblDay[];
      /** The days the baseline averages: the highest of `eligible`. */
      used: CblDay[];
    }
  | { kind: "not_enough_days"; method: "weekday" | "weekend"; eligible: CblDay[] };

export const dateOf = (wallS: number) => new Date(wallS * 1000).toISOString().slice(0, 10);
const weekdayOf = (wallS: number) => new Date(wallS * 1000).getUTCDay();
const isWeekend = (day: number) => day === 0 || day === 6;

/** The average load of the window [startS, endS), or null when any interval is missing. */
export function windowAverageKw(load: ReadonlyMap<number, number>, startS: number, endS: number) {
  let sum = 0;
  let n = 0;
  for (let ts = startS; ts < endS; ts += INTERVAL_S) {
    const kw = load.get(ts);
    if (kw === undefined) return null;
    sum += kw;
    n += 1;
  }
  return n === 0 ? null : sum / n;
}

/**
 * The customer baseline load of an event window [startS, endS) (rule grid-cbl): the days before the event of
 * the same kind (weekdays for a weekday event, the same weekend day for a weekend one), most recent first, not
 * in `excludedDates`, with complete data over the same hours; the first 10 (or 3) of them; the highest 5 (or
 * 2) by their average over those hours; the baseline is the average of those.
 */
export function customerBaseline(input: {
  startS: number;
  endS: number;
  load: ReadonlyMap<number, number>;
  excludedDates: ReadonlySet<string>;
}): Baseline {
  const { startS, endS, load, excludedDates } = input;
  const eventDay = weekdayOf(startS);
  const weekend = isWeekend(eventDay);
  const method = weekend ? "weekend" : "weekday";
  const { pool, pick } = weekend ? WEEKEND_CBL : WEEKDAY_CBL;
  const eligible: CblDay[] = [];
  for (let back = 1; back <= CBL_LOOKBACK_DAYS && eligible.length < pool; back++) {
    const from = startS - back * DAY_S;
    const day = weekdayOf(from);
    if (weekend ? day !== eventDay : isWeekend(day)) continue;
    const date = dateOf(from);
    if (excludedDates.has(date)) continue;
    const averageKw = windowAverageKw(load, from, endS - back * DAY_S);
    if (averageKw === null) continue;
    eligible.push({ date, averageKw });
  }
  if (eligible.length < pick) return { kind: "not_enough_days", method, eligible };
  // Highest first; a tie goes to the more recent day (the order `eligible` is in).
  const used = eligible
    .map((d, i) => ({ d, i }))
    .sort((a, b) => b.d.averageKw - a.d.averageKw || a.i - b.i)
    .slice(0, pick)
    .map((x) => x.d);
  const kw = used.reduce((s, d) => s + d.averageKw, 0) / used.length;
  return { kind: "baseline", kw, method, eligible, used };
}

export type EventMeasure =
  | {
      kind: "measured";
      baseline: Extract<Baseline, { kind: "baseline" }>;
      /** Average load over the event hours. */
      actualKw: number;
      /** Baseline − actual (negative when the load rose). */
      kwReduced: number;
      /** kW reduced × the event's hours. */
      kwhReduced: number;
      hours: number;
    }
  /** The event hours themselves lack data (a gap or no stored usage): no figure, say so. */
  | { kind: "no_data" }
  | { kind: "not_enough_days"; baseline: Extract<Baseline, { kind: "not_enough_days" }>; actualKw: number };

/**
 * What an event measured at a location (rule grid-event-reduction): the actual average kW over the event
 * hours (every interval needed: otherwise "no data"), the CBL over the same hours, kW reduced = CBL − actual,
 * kWh reduced = kW reduced × hours (the same as the sum over intervals of (CBL − load) × ¼ h).
 */
export function measureEvent(input: {
  startS: number;
  endS: number;
  load: ReadonlyMap<number, number>;
  excludedDates: ReadonlySet<string>;
}): EventMeasure {
  const actualKw = windowAverageKw(input.load, input.startS, input.endS);
  if (actualKw === null) return { kind: "no_data" };
  const baseline = customerBaseline(input);
  if (baseline.kind === "not_enough_days") return { kind: "not_enough_days", baseline, actualKw };
  const hours = (input.endS - input.startS) / 3600;
  const kwReduced = baseline.kw - actualKw;
  return { kind: "measured", baseline, actualKw, kwReduced, kwhReduced: kwReduced * hours, hours };
}

/** A program's rates, in cents: reservation per pledged kW-month, performance per kWh reduced. */
export type ProgramRates = { reservationCentsPerKwMonth: number; performanceCentsPerKwh: number };

export type Earnings = { reservationCents: number; performanceCents: number; totalCents: number };

/**
 * The estimated earnings of an event at a location (rule grid-event-earnings), in whole cents:
 * - performance: the performance rate × the kWh reduced;
 * - reservation: the month's reservation payment is the rate × the kW the location delivered (ConEd pays the
 *   pledged kW scaled by the performance in the month's events; we take the delivered kW as the pledge), spread
 *   evenly over the month's events at that location: rate × kW reduced ÷ `eventsInMonth` (the location's
 *   events that took part in the same local calendar month, this one included).
 * A reduction below zero earns nothing (never a negative amount).
 */
export function eventEarnings(
  m: { kwReduced: number; kwhReduced: number },
  rates: ProgramRates,
  eventsInMonth: number,
): Earnings {
  const kw = Math.max(0, m.kwReduced);
  const kwh = Math.max(0, m.kwhReduced);
  const reservationCents = Math.round((rates.reservationCentsPerKwMonth * kw) / Math.max(1, eventsInMonth));
  const performanceCents = Math.round(rates.performanceCentsPerKwh * kwh);
  return { reservationCents, performanceCents, totalCents: reservationCents + performanceCents };
}

/**
 * A season's (or any period's) total (rule grid-season-total): the events that took part (each counted once,
 * internal tests not counted), the sum of their earnings and of their kWh reduced (a negative reduction counts
 * as zero, as it earns nothing). An event without a figure counts as an event and adds nothing.
 */
export function seasonTotal(events: { earnings: Earnings | null; kwhReduced: number | null }[]): {
  events: number;
  totalCents: number;
  kwhReduced: number;
} {
  let totalCents = 0;
  let kwhReduced = 0;
  for (const e of events) {
    totalCents += e.earnings?.totalCents ?? 0;
    kwhReduced += Math.max(0, e.kwhReduced ?? 0);
  }
  return { events: events.length, totalCents, kwhReduced };
}

/** The highest indoor temperature of a thermostat during the event against its setpoint: degrees above it. */
export const degreesOverSetpoint = (maxIndoorF: number | null, setpointF: number | null) =>
  maxIndoorF === null || setpointF === null ? null : Math.round((maxIndoorF - setpointF) * 10) / 10;
