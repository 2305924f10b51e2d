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
