import { priceMoney } from "./flag-price";
import { calendarDate } from "./missing-bill";
import { WEEKDAY_CBL, WEEKEND_CBL } from "./grid-performance";

/**
 * What the Grid Services page, its CSV and its head, and the results email the day after an event
 * (api/mail/notifications.ts#gridResultsEmail) say of what events measured and earned (rules grid-event-figures,
 * grid-thermostat-part, grid-season-headline, grid-results-day; docs/rules.md): one set of words for both. The
 * figures come from the api (api/domain/grid-performance.ts, the pure rules in shared/grid-performance.ts); this
 * module writes them in words on the server (money through Intl there), so the page hydrates from strings.
 */

/** An event's figures as the api answers them (camelCased). */
export type DispatchPerformance = {
  measurement: string;
  baselineKw: number | null;
  actualKw: number | null;
  kwReduced: number | null;
  kwhReduced: number | null;
  hours: number | null;
  cblMethod: string | null;
  cblDays: { date: string; averageKw: number; used: boolean }[];
  eventsInMonth: number;
  earnings: { reservationCents: number; performanceCents: number; totalCents: number } | null;
  program: ProgramView | null;
};

export type ProgramView = {
  name: string;
  utility: string;
  reservationCentsPerKwMonth: number;
  performanceCentsPerKwh: number;
  estimated: boolean;
};

/** An event's figures at its location, in words (the expanded row; the CSV's figure columns). */
export type LocationFiguresView = {
  measured: boolean;
  /** Why there is no figure (no data, not enough days, did not take part), when not measured. */
  note: string | null;
  baseline: string;
  actual: string;
  kwReduced: string;
  kwhReduced: string;
  earnings: string;
  /** How the earnings add up: "Reservation $25.20 ($18.00 × 4.20 kW ÷ 3 events this month) + performance …". */
  earningsDetail: string | null;
  /** The method in a sentence and each eligible day, the days used marked (shown on request). */
  method: string | null;
  days: { date: string; averageKw: string; used: boolean }[];
};

export const NO_DATA_NOTE = "No demand data for the event hours: no figure for this location.";
export const NOT_ENOUGH_DAYS_NOTE =
  "Not enough days with complete data before the event for a baseline: no figure for this location.";
export const OPTED_OUT_NOTE = "Opted out: nothing to measure.";
export const PENDING_NOTE = "Figures come after the event.";
export const NOT_MEASURED_NOTE = "The location did not take part: nothing to measure.";
export const INTERNAL_TEST_EARNINGS = "Not paid (internal test)";

export const kwText = (kw: number) => `${kw.toFixed(2)} kW`;
export const kwhText = (kwh: number) => `${kwh.toFixed(2)} kWh`;

/** The CBL method in a sentence (rule grid-cbl). */
export function cblMethodText(method: string | null) {
  if (method === "weekend")
    return `Baseline (Con Edison's customer baseline load, weekend): the average load over the same hours on the highest ${WEEKEND_CBL.pick} of the ${WEEKEND_CBL.pool} preceding like days (the same weekday), event days excluded; a day counts only with complete data.`;
  return `Baseline (Con Edison's customer baseline load): the average load over the same hours on the highest ${WEEKDAY_CBL.pick} of the ${WEEKDAY_CBL.pool} preceding weekdays, event days excluded; a day counts only with complete data.`;
}

const EMPTY = { baseline: "—", actual: "—", kwReduced: "—", kwhReduced: "—", earnings: "—" };

/**
 * An event's figures at its location in words (rule grid-event-figures): measured ones with the method and
 * the days used; otherwise a note saying why there is no figure (never a zero in place of a missing figure).
 */
export function locationFigures(
  status: string | null | undefined,
  internalTest: boolean,
  p: DispatchPerformance | null | undefined,
): LocationFiguresView {
  const days = (p?.cblDays ?? []).map((d) => ({
    date: calendarDate(d.date),
    averageKw: kwText(d.averageKw),
    used: d.used,
  }));
  const method = p?.cblMethod ? cblMethodText(p.cblMethod) : null;
  const none = (note: string): LocationFiguresView => ({
    measured: false,
    note,
    ...EMPTY,
    earningsDetail: null,
    method,
    days,
  });
  if (!p || p.measurement === "not_measured") {
    if (status === "OPT_OUT") return none(OPTED_OUT_NOTE);
    if (status === "PENDING") return none(PENDING_NOTE);
    return none(NOT_MEASURED_NOTE);
  }
  if (p.measurement === "no_data") return none(NO_DATA_NOTE);
  if (p.measurement !== "measured" || p.baselineKw === null || p.kwReduced === null || p.kwhReduced === null)
    return { ...none(NOT_ENOUGH_DAYS_NOTE), actual: p.actualKw === null ? "—" : kwText(p.actualKw) };
  const e = p.earnings;
  const program = p.program;
  const earningsDetail =
    e && program
      ? `Reservation ${priceMoney(e.reservationCents)} (${priceMoney(program.reservationCentsPerKwMonth)} per kW-month × ${kwText(Math.max(0, p.kwReduced))} ÷ ${p.eventsInMonth} ${p.eventsInMonth === 1 ? "event" : "events"} this month) + performance ${priceMoney(e.performanceCents)} (${priceMoney(program.performanceCentsPerKwh)} per kWh × ${kwhText(Math.max(0, p.kwhReduced))})`
      : null;
  return {
    measured: true,
    note: null,
    baseline: kwText(p.baselineKw),
    actual: p.actualKw === null ? "—" : kwText(p.actualKw),
    kwReduced: kwText(p.kwReduced),
    kwhReduced: kwhText(p.kwhReduced),
    earnings: e ? priceMoney(e.totalCents) : internalTest ? INTERNAL_TEST_EARNINGS : "—",
    earningsDetail,
    method,
    days,
  };
}

/**
 * The measured figures as label and value pairs, in the order the expanded row and the results email show them
 * (rule grid-event-figures); `key` names each for the page's test ids.
 */
export function figureRows(f: LocationFiguresView): { key: string; label: string; value: string }[] {
  return [
    { key: "baseline", label: "Baseline", value: f.baseline },
    { key: "actual", label: "Actual average", value: f.actual },
    { key: "reduced", label: "Reduced", value: `${f.kwReduced} · ${f.kwhReduced}` },
    { key: "earnings", label: "Estimated earnings", value: f.earnings },
  ];
}

/** A thermostat's part in an event as the api answers it (camelCased). */
export type ThermostatPartInput = {
  participatingMinutes?: number | null;
  wasOverridden?: boolean | null;
  overriddenAt?: string | null;
  overrideSetpoint?: number | null;
  targetSetpoint?: number | null;
  maxIndoorF?: number | null;
};

/**
 * A thermostat's part in an event (rule grid-thermostat-part): "Overrode at 2:48 PM PDT to 71°F" when the
 * person overrode it during the event, "Opted out" when it did not take part (the event opted out, or no
 * minutes), "Took part" in an event that took part, "Scheduled" before the event; `timeOf` writes an instant
 * in the building's zone. The highest indoor temperature reads against the event's setpoint.
 */
export function thermostatPart(
  status: string | null | undefined,
  t: ThermostatPartInput,
  timeOf: (iso: string) => string,
): { part: string; highest: string } {
  let part: string;
  if (status === "PENDING" && t.participatingMinutes == null) part = "Scheduled";
  else if (t.wasOverridden && t.overriddenAt)
    part = `Overrode at ${timeOf(t.overriddenAt)}${t.overrideSetpoint != null ? ` to ${t.overrideSetpoint}°F` : ""}`;
  else if (status === "OPT_OUT" || t.participatingMinutes === 0) part = "Opted out";
  else if (status === "SUCCESS") part = "Took part";
  else part = "—";
  let highest = "—";
  if (t.maxIndoorF != null) {
    highest = `${t.maxIndoorF}°F`;
    if (t.targetSetpoint != null) {
      const over = Math.round((t.maxIndoorF - t.targetSetpoint) * 10) / 10;
      highest +=
        over > 0
          ? ` (${over}° above the ${t.targetSetpoint}°F setpoint)`
          : ` (at or below the ${t.targetSetpoint}°F setpoint)`;
    }
  }
  return { part, highest };
}

/** The words of a period in the head: "this season", "this month", … or "from Jun 1, 2026 to Jul 1, 2026". */
export type PeriodWords = string;

/**
 * The page's head (rule grid-season-headline): "Earned an estimated $X this season from N events; Y kWh
 * reduced", for the events of the locations the person may see in the period shown.
 */
export function seasonHeadline(
  s: { earningsCents: number; events: number; kwhReduced: number },
  period: PeriodWords,
) {
  // Whole kWh once the total is large; below 100 kWh to the hundredth, as each location's figure is written (a
  // one-event email's total must not read "2 kWh" over a location's "1.53 kWh").
  const digits = Math.abs(s.kwhReduced) >= 100 ? 0 : 2;
  const kwh = s.kwhReduced.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return `Earned an estimated ${priceMoney(s.earningsCents)} ${period} from ${s.events} ${s.events === 1 ? "event" : "events"}; ${kwh} kWh reduced`;
}

/** The program line under the head: the rates named, as an estimate. */
export function programNote(program: ProgramView | null | undefined) {
  if (!program) return null;
  return `Estimated at ${program.utility}'s ${program.name} rates: ${priceMoney(program.reservationCentsPerKwMonth)} per kW-month reserved and ${priceMoney(program.performanceCentsPerKwh)} per kWh reduced${program.estimated ? ". These are our estimates, not a statement from the utility." : "."}`;
}
