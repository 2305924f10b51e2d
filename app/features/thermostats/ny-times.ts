import { formatZonedClock, formatZonedMediumDate, HOME_TIMEZONE, zonedParts } from "~/lib/zoned";
import type { ThermostatInfo } from "./thermostats";

// Apart from thermostats.ts so the browser's control room does not load the New York timezone into Intl:
// the loader writes the times out (controlRoomView) and the cards read them (timesFormatter). One cached
// Intl.DateTimeFormat (app/lib/zoned.ts) writes them: two TZDates and two date-fns formats per time were a
// few percent of the control room's server CPU.

/** A timestamp in New York time, e.g. "Mar 3, 2026, 4:05 PM ET". */
export function formatNewYork(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  const p = zonedParts(ms, HOME_TIMEZONE);
  return `${formatZonedMediumDate(p)}, ${formatZonedClock(p)} ET`;
}

/**
 * The instants the control room's cards write out (last seen, a change's send time, a grid event's start),
 * written by the server: the browser then hydrates the cards without loading the New York time zone
 * into Intl and running date-fns over it (the costliest part of the cards' hydration).
 */
export function nyTimesOf(
  items: Pick<ThermostatInfo, "state" | "thermostatAction" | "dispatch">[],
): Record<string, string> {
  const times: Record<string, string> = {};
  for (const { state, thermostatAction, dispatch } of items)
    for (const iso of [state.lastSeen, thermostatAction?.createdAt, dispatch?.startTime]) {
      const text = iso && !(iso in times) ? formatNewYork(iso) : null;
      if (iso && text) times[iso] = text;
    }
  return times;
}
