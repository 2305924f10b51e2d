/**
 * Times in a building's own timezone, labelled with the zone ("Nov 3, 2026, 2:00 PM PST"), written by the
 * server: grid event times (grid-services.server.ts) and the control room's receipts and event times
 * (features/thermostats/control-room.server.ts) go through this one formatter, so the same event reads the same on both
 * pages. The browser hydrates from these strings and never loads date-fns, @date-fns/tz or a timezone into Intl.
 *
 * One `Intl.DateTimeFormat` per timezone gives every part of a time in one call. It writes the same words as
 * date-fns did ("Nov 3, 2026" with `format(…, "MMM d, yyyy")`, "2:00 PM PST" with `format(…, "h:mm a")` plus the zone's
 * short name; tests/unit/grid-services.test.ts compares the two) at a fraction of the CPU: a grid page wrote 45
 * times through TZDate, whose offset lookups were a tenth of the page's server CPU.
 */

import { formatterIn, HOME_TIMEZONE } from "~/lib/zoned";

/** Every part of a time, with the zone's short name, in one call. */
const FIELDS: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  hour12: true,
  timeZoneName: "short",
};
const formats = new Map<string, Intl.DateTimeFormat>();
/** The formatter of a timezone. */
const formatOf = (timeZone: string) => formatterIn(formats, FIELDS, timeZone);

/**
 * The times already written, by timezone and instant: the same events come back on every page view (a page
 * shows 15 events, 45 times), and what a time reads as never changes. Bounded like the formatters.
 */
const written = new Map<string, [string, string]>();

/** A timestamp in the building's timezone as [date, time], e.g. ["Nov 3, 2026", "2:00 PM PST"]. */
export function localTimeParts(
  iso: string | null | undefined,
  timezone: string | null | undefined,
): [string, string] | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  const zone = timezone || HOME_TIMEZONE;
  const key = `${zone} ${ms}`;
  let parts = written.get(key);
  if (!parts) {
    const p: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
    for (const { type, value } of formatOf(zone).formatToParts(ms)) p[type] = value;
    const name = p.timeZoneName ? ` ${p.timeZoneName}` : "";
    parts = [`${p.month} ${p.day}, ${p.year}`, `${p.hour}:${p.minute} ${p.dayPeriod}${name}`];
    if (written.size >= 20_000) written.clear();
    written.set(key, parts);
  }
  return [parts[0], parts[1]];
}

/** A timestamp in the building's timezone, e.g. "Nov 3, 2026, 2:00 PM PST"; "—" without one. */
export function formatLocalTime(iso: string | null | undefined, timezone: string | null | undefined) {
  const parts = localTimeParts(iso, timezone);
  return parts ? parts.join(", ") : "—";
}
