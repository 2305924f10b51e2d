import { describe, expect, it } from "vitest";
import {
  figureRows,
  locationFigures,
  programNote,
  seasonHeadline,
  thermostatPart,
  NO_DATA_NOTE,
  NOT_ENOUGH_DAYS_NOTE,
  OPTED_OUT_NOTE,
  INTERNAL_TEST_EARNINGS,
  type DispatchPerformance,
} from "../../shared/grid-figures";
import {
  dispatchCsvRows,
  gridSearch,
  parseGridState,
  periodKeyOf,
  periodWords,
  stateRange,
  type DispatchRow,
} from "~/features/grid-services/grid-services";

const program = {
  name: "Commercial System Relief Program",
  utility: "Con Edison",
  reservationCentsPerKwMonth: 1800,
  performanceCentsPerKwh: 100,
  estimated: true,
};
/** Worked example 1 of docs/rules.md (tests/unit/grid-performance.test.ts) as the api answers it. */
const measured: DispatchPerformance = {
  measurement: "measured",
  baselineKw: 22.2,
  actualKw: 18,
  kwReduced: 4.2,
  kwhReduced: 4.2,
  hours: 1,
  cblMethod: "weekday",
  cblDays: [
    { date: "2026-07-14", averageKw: 20, used: true },
    { date: "2026-07-10", averageKw: 18, used: false },
  ],
  eventsInMonth: 3,
  earnings: { reservationCents: 2520, performanceCents: 420, totalCents: 2940 },
  program,
};

describe("an event's figures at its location (rule grid-event-figures)", () => {
  it("writes the measured figures, how the earnings add up, the method and the days used", () => {
    const f = locationFigures("SUCCESS", false, measured);
    expect(f).toMatchObject({
      measured: true,
      note: null,
      baseline: "22.20 kW",
      actual: "18.00 kW",
      kwReduced: "4.20 kW",
      kwhReduced: "4.20 kWh",
      earnings: "$29.40",
      earningsDetail:
        "Reservation $25.20 ($18.00 per kW-month × 4.20 kW ÷ 3 events this month) + performance $4.20 ($1.00 per kWh × 4.20 kWh)",
    });
    expect(f.method).toContain("highest 5 of the 10 preceding weekdays");
    expect(f.days).toEqual([
      { date: "Jul 14, 2026", averageKw: "20.00 kW", used: true },
      { date: "Jul 10, 2026", averageKw: "18.00 kW", used: false },
    ]);
  });

  it("names the figures in the order the expanded row and the results email show them", () => {
    expect(figureRows(locationFigures("SUCCESS", false, measured))).toEqual([
      { key: "baseline", label: "Baseline", value: "22.20 kW" },
      { key: "actual", label: "Actual average", value: "18.00 kW" },
      { key: "reduced", label: "Reduced", value: "4.20 kW · 4.20 kWh" },
      { key: "earnings", label: "Estimated earnings", value: "$29.40" },
    ]);
  });

  it("says why there is no figure instead of a number", () => {
    expect(locationFigures("SUCCESS", false, { ...measured, measurement: "no_data" })).toMatchObject({
      measured: false,
      note: NO_DATA_NOTE,
      baseline: "—",
      earnings: "—",
    });
    expect(
      locationFigures("SUCCESS", false, { ...measured, measurement: "not_enough_days", baselineKw: null })
        .note,
    ).toBe(NOT_ENOUGH_DAYS_NOTE);
    expect(locationFigures("OPT_OUT", false, { ...measured, measurement: "not_measured" }).note).toBe(
      OPTED_OUT_NOTE,
    );
    expect(locationFigures("SUCCESS", true, { ...measured, earnings: null }).earnings).toBe(
      INTERNAL_TEST_EARNINGS,
    );
  });
});

describe("a thermostat's part in an event (rule grid-thermostat-part)", () => {
  const timeOf = () => "2:48 PM PDT";
  it("took part, opted out, overrode (when and to what), or is scheduled", () => {
    expect(
      thermostatPart("SUCCESS", { participatingMinutes: 120, targetSetpoint: 78, maxIndoorF: 77.4 }, timeOf),
    ).toEqual({
      part: "Took part",
      highest: "77.4°F (at or below the 78°F setpoint)",
    });
    expect(
      thermostatPart(
        "SUCCESS",
        {
          participatingMinutes: 48,
          wasOverridden: true,
          overriddenAt: "2026-07-14T21:48:00Z",
          overrideSetpoint: 73,
          targetSetpoint: 78,
          maxIndoorF: 79.3,
        },
        timeOf,
      ),
    ).toEqual({ part: "Overrode at 2:48 PM PDT to 73°F", highest: "79.3°F (1.3° above the 78°F setpoint)" });
    expect(thermostatPart("OPT_OUT", { participatingMinutes: 0 }, timeOf).part).toBe("Opted out");
    expect(thermostatPart("PENDING", {}, timeOf)).toEqual({ part: "Scheduled", highest: "—" });
  });
});

describe("the head (rule grid-season-headline)", () => {
  it("says what the period's events earned and reduced", () => {
    expect(seasonHeadline({ earningsCents: 207146, events: 30, kwhReduced: 215.23 }, "this season")).toBe(
      "Earned an estimated $2,071.46 this season from 30 events; 215 kWh reduced",
    );
    expect(seasonHeadline({ earningsCents: 0, events: 1, kwhReduced: 0 }, "this month")).toBe(
      "Earned an estimated $0.00 this month from 1 event; 0.00 kWh reduced",
    );
  });

  it("names the program and its rates as an estimate", () => {
    expect(programNote(program)).toBe(
      "Estimated at Con Edison's Commercial System Relief Program rates: $18.00 per kW-month reserved and $1.00 per kWh reduced. These are our estimates, not a statement from the utility.",
    );
    expect(programNote(null)).toBeNull();
  });
});

describe("the period (rule grid-period)", () => {
  const today = new Date(Date.UTC(2026, 10, 18));
  it("is this season by default, a named period like /findings, or a chosen range", () => {
    const season = parseGridState(new URLSearchParams("period=season&from=2026-01-01&to=2026-01-31"));
    expect(periodKeyOf(season)).toBe("season");
    expect(stateRange(season, today)).toEqual({ startDate: "2026-06-01", endDate: "2026-11-30" });
    expect(periodWords(season, stateRange(season, today))).toBe("this season");
    const month = parseGridState(new URLSearchParams("period=this-month&from=2026-01-01&to=2026-01-31"));
    expect(stateRange(month, today)).toEqual({ startDate: "2026-11-01", endDate: "2026-11-30" });
    expect(gridSearch(month)).toBe("?period=this-month");
    expect(stateRange(parseGridState(new URLSearchParams("period=last-month")), today)).toEqual({
      startDate: "2026-10-01",
      endDate: "2026-10-31",
    });
    const range = parseGridState(new URLSearchParams("period=range&from=2026-07-01&to=2026-07-31"));
    expect(periodKeyOf(range)).toBe("range");
    expect(periodWords(range, stateRange(range, today))).toBe("from Jul 1, 2026 to Jul 31, 2026");
  });

  it("shows this season with the reason when a chosen range is not taken", () => {
    const bad = parseGridState(new URLSearchParams("period=range&from=2026-07-31&to=2026-07-01"));
    expect(bad.rangeError).toEqual({
      message: "The range must start on or before its end.",
      from: "2026-07-31",
      to: "2026-07-01",
    });
    expect(stateRange(bad, today)).toEqual({ startDate: "2026-06-01", endDate: "2026-11-30" });
    expect(parseGridState(new URLSearchParams("period=range&from=2026-07-01")).rangeError?.message).toBe(
      "Enter both dates of the range.",
    );
  });
});

describe("Grid Services CSV figures", () => {
  it("adds the figures as bare numbers, or the note", () => {
    const row = (figures: DispatchRow["figures"]): DispatchRow => ({
      id: 1,
      address: "1912 Pike Pl",
      internalTest: false,
      overridden: false,
      eventType: "Demand response",
      status: "Participated",
      tone: "success",
      precool: null,
      start: null,
      end: null,
      figures,
    });
    const rows = dispatchCsvRows([
      row(locationFigures("SUCCESS", false, measured)),
      row(locationFigures("SUCCESS", false, { ...measured, measurement: "no_data" })),
    ]);
    expect(rows[1].slice(8)).toEqual(["22.20", "18.00", "4.20", "4.20", "29.40", ""]);
    expect(rows[2].slice(8)).toEqual(["", "", "", "", "", NO_DATA_NOTE]);
  });
});
