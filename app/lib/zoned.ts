/**
 * Wall-clock time in a building's timezone from one cached `Intl.DateTimeFormat` per timezone, without
 * @date-fns/tz. A TZDate looks its offset up again on every construction and every setter; the one-thermostat
 * page built ~200 of them per view (local midnights, tick labels, day labels), 2 ms of server CPU, and shipped
 * the library to the browser. tests/unit/zoned.test.ts compares these with TZDate and date-fns' format; ADR
 * 0023 keeps them, with the figures.
 */

import { MONTH_LONG } from "./dates";

export type ZonedParts = {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
  /** 0–23. */
  hour: number;
  minute: number;
  second: number;
  /** "Wednesday". */
  weekday: string;
  /** "October". */
  monthName: string;
};

/** The product's home timezone. */
export const HOME_TIMEZONE = "America/New_York";

const FIELDS: Intl.DateTimeFormatOptions = {
  weekday: "long",
  year: "numeric",
  month: "long",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
  hourCycle: "h23",
};

/**
 * The `Intl.DateTimeFormat` of a timezone for `fields`, built once into `formats` (building one costs far more
 * than using it). A timezone Intl does not know (a typo upstream) reads as the product's home timezone. Bounded:
 * timezones come from upstream data. The caller owns the cache, so that a module holding one does nothing when
 * it is imported (only an empty Map): a page whose browser code reaches this module without calling it ships
 * none of it.
 */
export function formatterIn(
  formats: Map<string, Intl.DateTimeFormat>,
  fields: Intl.DateTimeFormatOptions,
  timeZone: string,
): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-US", { ...fields, timeZone });
    } catch (e) {
      if (!(e instanceof RangeError) || timeZone === HOME_TIMEZONE) throw e;
      f = formatterIn(formats, fields, HOME_TIMEZONE);
    }
    if (formats.size >= 500) formats.clear();
    formats.set(timeZone, f);
  }
  return f;
}

const formats = new Map<string, Intl.DateTimeFormat>();
const formatOf = (timeZone: string) => formatterIn(formats, FIELDS, timeZone);

/**
 * What instants read as, by timezone: the same days and ticks come back on every view of a month, and a
 * `formatToParts` call costs several microseconds. Bounded.
 */
const read = new Map<string, ZonedParts>();

/** The local calendar fields of an instant in a timezone. */
export function zonedParts(ms: number, timeZone: string): ZonedParts {
  const key = `${timeZone} ${ms}`;
  let parts = read.get(key);
  if (!parts) {
    parts = Object.freeze(readParts(ms, timeZone));
    if (read.size >= 20_000) read.clear();
    read.set(key, parts);
  }
  return parts;
}

/** `zonedParts` without keeping the answer: for instants read once (a CSV of every reading). */
export function readParts(ms: number, timeZone: string): ZonedParts {
  const p: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of formatOf(timeZone).formatToParts(ms)) p[type] = value;
  const monthName = p.month ?? "January";
  return {
    year: Number(p.year),
    month: MONTH_LONG.indexOf(monthName) + 1,
    day: Number(p.day),
    // Some engines write midnight as "24" even with h23.
    hour: Number(p.hour) % 24,
    minute: Number(p.minute),
    second: Number(p.second),
    weekday: p.weekday ?? "",
    monthName,
  };
}

/** The timezone's offset from UTC at an instant, in ms (east positive). */
function offsetAt(ms: number, timeZone: string) {
  const p = zonedParts(ms, timeZone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a local wall-clock time names in a timezone. Fields overflow like `Date.UTC`'s (day 32 is the
 * next month's 1st, hour 30 the next day's 6:00). A time skipped by a DST change moves forward by the change,
 * as TZDate does; a repeated one is its first occurrence.
 */
export function zonedTime(
  timeZone: string,
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const before = offsetAt(wall - 86_400_000, timeZone);
  const after = offsetAt(wall + 86_400_000, timeZone);
  const first = wall - before;
  // No change of offset within a day either side: the wall time names exactly one instant.
  if (before === after) return first;
  // Across a change, the earlier offset names the first occurrence of a repeated time. A skipped time reads
  // back with neither offset: `first` is then the time moved forward by the change.
  if (offsetAt(first, timeZone) === before) return first;
  const second = wall - after;
  return offsetAt(second, timeZone) === after ? second : first;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** "Oct 1": a tick label. */
export const formatZonedDay = (p: ZonedParts) => `${p.monthName.slice(0, 3)} ${p.day}`;

/** "Oct 1, 6 AM": a 6-hour tick label. */
export const formatZonedDayHour = (p: ZonedParts) =>
  `${formatZonedDay(p)}, ${p.hour % 12 || 12} ${p.hour < 12 ? "AM" : "PM"}`;

/** "Oct 1, 2026". */
export const formatZonedMediumDate = (p: ZonedParts) => `${formatZonedDay(p)}, ${p.year}`;

/** "4:05 PM". */
export const formatZonedClock = (p: ZonedParts) =>
  `${p.hour % 12 || 12}:${pad(p.minute)} ${p.hour < 12 ? "AM" : "PM"}`;

/** "Wednesday, October 1, 2026". */
export const formatZonedLongDate = (p: ZonedParts) => `${p.weekday}, ${p.monthName} ${p.day}, ${p.year}`;

/** "2026-10-01". */
export const formatZonedIsoDate = (p: ZonedParts) => `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;

/** "2026-10-01 06:30". */
export const formatZonedIsoMinute = (p: ZonedParts) =>
  `${formatZonedIsoDate(p)} ${pad(p.hour)}:${pad(p.minute)}`;

const zoneNames = new Map<string, { generic: Intl.DateTimeFormat; short: Intl.DateTimeFormat }>();

/**
 * How a building's timezone is named next to a time or an axis (rule zone-label, docs/rules.md): its short
 * generic name where it has one ("ET", "CT", "MT", "PT", "AKT", "HST", "MST" for Arizona), as the control
 * room writes New York time ("ET"); otherwise its short name at that instant ("GMT+1", "UTC"). No timezone, or
 * one the runtime does not know, is the product's home timezone.
 */
export function zoneLabel(timeZone: string | null | undefined, atMs: number): string {
  const zone = timeZone || HOME_TIMEZONE;
  let f = zoneNames.get(zone);
  if (!f) {
    try {
      f = {
        generic: new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "shortGeneric" }),
        short: new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "short" }),
      };
    } catch (e) {
      if (!(e instanceof RangeError) || zone === HOME_TIMEZONE) throw e;
      return zoneLabel(HOME_TIMEZONE, atMs);
    }
    // Bounded: timezones come from upstream data.
    if (zoneNames.size >= 500) zoneNames.clear();
    zoneNames.set(zone, f);
  }
  const name = (fmt: Intl.DateTimeFormat) =>
    fmt.formatToParts(atMs).find((p) => p.type === "timeZoneName")?.value ?? "";
  // "ET", but not "Germany Time" or "GMT+1" (which shifts with the clocks): then the instant's own name.
  const generic = name(f.generic);
  return /^[A-Z]{2,4}$/.test(generic) ? generic : name(f.short);
}

/**
 * A time zone's calendar date at an instant, as midnight UTC of that date (rule location-today, docs/rules.md):
 * a location's "today" is its own date, not the UTC one. At 7 PM on Nov 30 in Seattle (03:00 UTC on Dec 1) it is
 * still Nov 30 there. No time zone, or one the runtime does not know, is the product's home time zone.
 */
export function zonedDate(ms: number, timeZone: string | null | undefined): Date {
  const p = zonedParts(ms, timeZone || HOME_TIMEZONE);
  return new Date(Date.UTC(p.year, p.month - 1, p.day));
}
