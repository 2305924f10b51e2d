import { formatLocalTime } from "~/lib/local-time";
import { formatZonedClock, formatZonedMediumDate, HOME_TIMEZONE, zonedParts } from "~/lib/zoned";
import type { CardTimes, ThermostatInfo } from "./thermostats";

// Apart from thermostats.ts so the browser's control room does not load a timezone into Intl: the loader
// writes the times out (controlRoomView) and the cards read them (timesFormatter). One cached
// Intl.DateTimeFormat per zone writes them: two TZDates and two date-fns formats per time were a few percent
// of the control room's server CPU.

/** A timestamp in New York time, e.g. "Mar 3, 2026, 4:05 PM ET": the spec's "last seen" time. */
export function formatNewYork(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  const p = zonedParts(ms, HOME_TIMEZONE);
  return `${formatZonedMediumDate(p)}, ${formatZonedClock(p)} ET`;
}

/**
 * The instants the control room's cards write out, written by the server (rule card-times, docs/rules.md):
 * "last seen" in New York time, as the spec asks; a change's send time and a grid event's start in the
 * building's own timezone, labelled with its zone, in the same words as Grid Services (one formatter,
 * app/lib/local-time.ts), so an Austin café's receipt reads its own 10:34 AM CST and a Seattle event reads the
 * same on both pages. The browser then hydrates the cards without loading a timezone into Intl.
 */
export function cardTimesOf(
  items: Pick<ThermostatInfo, "state" | "thermostatAction" | "dispatch">[],
  timezone: string | null | undefined,
): CardTimes {
  const times: CardTimes = { lastSeen: {}, local: {} };
  for (const { state, thermostatAction, dispatch } of items) {
    const seen = state.lastSeen;
    const text = seen && !(seen in times.lastSeen) ? formatNewYork(seen) : null;
    if (seen && text) times.lastSeen[seen] = text;
    for (const iso of [thermostatAction?.createdAt, dispatch?.startTime]) {
      if (!iso || iso in times.local || Number.isNaN(Date.parse(iso))) continue;
      times.local[iso] = formatLocalTime(iso, timezone);
    }
  }
  return times;
}
