import { TZDate } from "@date-fns/tz";

/**
 * Local wall-clock times of a building (epoch seconds as if UTC, usage_intervals' `ts`) and the instants they
 * name, across changes of clocks. Most wall-clock times name one instant; on the day the clocks go
 * forward an hour names none (2:00–2:59 AM in the US), and on the day they go back an hour names two (1:00–1:59
 * AM): the first has fold 0, the second fold 1 (migration 086).
 */

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The UTC offset (minutes, east positive) of a timezone at an instant (epoch ms). */
export function offsetMinutes(timeZone: string, utcMs: number) {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    offsetFormatters.set(timeZone, f);
  }
  const name = f.formatToParts(new Date(utcMs)).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!m) return 0;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** "2026-11-01T01:00:00-07:00": a wall-clock time with the offset it has at that instant. */
export function isoWithOffset(wall: number, offset: number) {
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${new Date(wall * 1000).toISOString().slice(0, 19)}${sign}${hh}:${mm}`;
}

/**
 * The instants (epoch seconds) a wall-clock time names, earliest first: one; none when the clocks skip it;
 * two when they go back over it (fold 0, then fold 1).
 */
export function wallInstants(wall: number, timeZone: string): number[] {
  const before = offsetMinutes(timeZone, (wall - 86400) * 1000);
  const after = offsetMinutes(timeZone, (wall + 86400) * 1000);
  const candidates = before === after ? [before] : [before, after];
  return candidates
    .map((offset) => ({ offset, at: wall - offset * 60 }))
    .filter(({ offset, at }) => offsetMinutes(timeZone, at * 1000) === offset)
    .map(({ at }) => at)
    .sort((a, b) => a - b);
}

/** The first instant of a wall-clock time; a skipped one moves forward by the change (as TZDate does). */
export function wallToInstant(wall: number, timeZone: string) {
  const found = wallInstants(wall, timeZone);
  if (found.length) return found[0];
  return wall - offsetMinutes(timeZone, (wall - 86400) * 1000) * 60;
}

/** A wall-clock time with its offset, as ISO 8601 (its first occurrence when the clocks go back over it). */
export function wallClockIso(wall: number, timeZone: string) {
  const at = wallToInstant(wall, timeZone);
  return isoWithOffset(wall, offsetMinutes(timeZone, at * 1000));
}

export type Instant = {
  /** Epoch seconds. */
  at: number;
  /** Its local wall-clock time (epoch seconds as if UTC). */
  wall: number;
  /** 1 for the second occurrence of a repeated wall-clock time, else 0. */
  fold: 0 | 1;
  /** Its UTC offset, in minutes. */
  offset: number;
};

/**
 * The instants from one local midnight (a wall-clock time) to another, every `step` seconds, with their
 * wall-clock times: 23 hours on the day the clocks go forward, 25 on the day they go back. A day without a
 * change of clocks costs two offset look-ups.
 */
export function instantsBetween(
  startWall: number,
  endWall: number,
  step: number,
  timeZone: string,
): Instant[] {
  const out: Instant[] = [];
  for (let day = startWall; day < endWall; day += 86400) {
    const from = wallToInstant(day, timeZone);
    const to = wallToInstant(Math.min(day + 86400, endWall), timeZone);
    const first = offsetMinutes(timeZone, from * 1000);
    const last = offsetMinutes(timeZone, (to - 1) * 1000);
    for (let at = from; at < to; at += step) {
      if (first === last) {
        out.push({ at, wall: at + first * 60, fold: 0, offset: first });
        continue;
      }
      const offset = offsetMinutes(timeZone, at * 1000);
      // Within an hour after the clocks went back, this wall-clock time has already been lived once.
      const fold = offset < offsetMinutes(timeZone, (at - 3600) * 1000) ? 1 : 0;
      out.push({ at, wall: at + offset * 60, fold, offset });
    }
  }
  return out;
}

/**
 * An instant as a location's local wall-clock time, in epoch seconds read as if UTC: how usage_intervals
 * stores its 15-minute intervals (api/db/migrations/030_usage.ts), so an event's hours can be looked up there.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string) {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formats.set(timeZone, f);
  }
  return f;
}

/** `ms` (an instant) as wall-clock epoch seconds in `timeZone` (New York for an unknown zone). */
export function wallClockSeconds(ms: number, timeZone: string | null | undefined): number {
  let f: Intl.DateTimeFormat;
  try {
    f = format(timeZone || "America/New_York");
  } catch {
    f = format("America/New_York");
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) / 1000;
}

/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
export function localDate(instantMs: number, timeZone: string): string {
  const t = new TZDate(instantMs, timeZone);
  return `${t.getFullYear()}-${padTwo(t.getMonth() + 1)}-${padTwo(t.getDate())}`;
}

const padTwo = (n: number) => String(n).padStart(2, "0");
