import { EARLIEST_CALENDAR_YEAR } from "~/lib/dates";
import { addDays, addMonths, mondayOf, parseYmd, todayYmd, ymd, type Period, type Today } from "./usage";

/**
 * The periods a usage chart may show (rule usage-period-range, docs/rules.md): from 2021 (the calendar's
 * earliest year) up to today, the same limits as the date picker. Starts are "YYYY-MM-DD": a day, the 1st of a
 * month, January 1st of a year.
 */
export type SteppedPeriod = Exclude<Period, "bill">;
export const isSteppedPeriod = (p: string | null): p is SteppedPeriod =>
  p === "day" || p === "week" || p === "month" || p === "year";

/** The first and the last allowed start of a period. */
export function periodBounds(period: SteppedPeriod, t: Today): { min: string; max: string } {
  const min = ymd(EARLIEST_CALENDAR_YEAR, 1, 1);
  if (period === "day") return { min, max: todayYmd(t) };
  // The first Monday of 2021 (the week of Dec 28, 2020 starts before the earliest year) to this week's.
  if (period === "week") return { min: ymd(EARLIEST_CALENDAR_YEAR, 1, 4), max: mondayOf(todayYmd(t)) };
  if (period === "month") return { min, max: ymd(t.y, t.m, 1) };
  return { min, max: ymd(t.y, 1, 1) };
}

/**
 * A hand-typed start outside the allowed range becomes the nearest allowed period's start: before 2021 → the
 * first, after today → the current one. Returns null when the start is inside the range or not a date at all
 * (those are the view's business: normalised or defaulted).
 */
export function clampStart(period: SteppedPeriod, start: string | null, t: Today): string | null {
  if (!parseYmd(start)) return null;
  const { min, max } = periodBounds(period, t);
  if (start! < min) return min;
  if (start! > todayYmd(t)) return max;
  return null;
}

/** The start of the previous (-1) or next (+1) period, or null past either end of the allowed range. */
export function stepStart(period: SteppedPeriod, start: string, dir: -1 | 1, t: Today): string | null {
  const p = parseYmd(start);
  if (!p) return null;
  const [y, m, d] = p;
  let next: string;
  if (period === "day") {
    const date = new Date(Date.UTC(y, m - 1, d + dir));
    next = ymd(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
  } else if (period === "week") {
    next = addDays(mondayOf(start), 7 * dir);
  } else if (period === "month") {
    const [ny, nm] = addMonths(y, m, dir);
    next = ymd(ny, nm, 1);
  } else {
    next = ymd(y + dir, 1, 1);
  }
  const { min, max } = periodBounds(period, t);
  return next < min || next > max ? null : next;
}
