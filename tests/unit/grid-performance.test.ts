import { describe, expect, it } from "vitest";
import {
  customerBaseline,
  eventEarnings,
  measureEvent,
  seasonTotal,
  degreesOverSetpoint,
} from "../../shared/grid-performance";

/** Local wall-clock seconds (as usage_intervals stores them) of a date and time. */
const wall = (date: string, hh: number, mm = 0) =>
  Date.parse(`${date}T00:00:00Z`) / 1000 + hh * 3600 + mm * 60;

/** A load map: per date, the kW of each 15-minute interval from `hh:mm`. */
function loads(from: [number, number], days: Record<string, number[]>) {
  const m = new Map<number, number>();
  for (const [date, kws] of Object.entries(days))
    kws.forEach((kw, i) => m.set(wall(date, from[0], from[1]) + i * 900, kw));
  return m;
}
const flat = (kw: number, n = 4) => Array.from({ length: n }, () => kw);

// Worked example 1 (docs/rules.md, rule grid-cbl): an event on Wednesday 2026-07-15, 14:00 to 15:00 local.
// The 10 preceding eligible weekdays skip the weekends, July 9 (an event day: excluded) and July 7 (one
// interval missing), and stop before June 26. Their averages over 14:00-15:00, most recent first:
// 7/14 20, 7/13 22, 7/10 18, 7/8 25 (24, 26, 25, 25), 7/6 19, 7/3 21, 7/2 23, 7/1 17, 6/30 16, 6/29 15.
// The highest 5: 25, 23, 22, 21, 20 → CBL = 111 / 5 = 22.2 kW. Actual: (19 + 18 + 18 + 17) / 4 = 18.0 kW.
// kW reduced 4.2; 1 hour → 4.2 kWh. At $18/kW-month and $1/kWh with 3 events that month:
// reservation 18 × 4.2 / 3 = $25.20, performance 1 × 4.2 = $4.20, total $29.40.
const weekday = loads([14, 0], {
  "2026-07-15": [19, 18, 18, 17],
  "2026-07-14": flat(20),
  "2026-07-13": flat(22),
  "2026-07-12": flat(50),
  "2026-07-11": flat(50),
  "2026-07-10": flat(18),
  "2026-07-09": flat(40),
  "2026-07-08": [24, 26, 25, 25],
  "2026-07-07": [35, 35, 35],
  "2026-07-06": flat(19),
  "2026-07-03": flat(21),
  "2026-07-02": flat(23),
  "2026-07-01": flat(17),
  "2026-06-30": flat(16),
  "2026-06-29": flat(15),
  "2026-06-26": flat(30),
});
const weekdayEvent = {
  startS: wall("2026-07-15", 14),
  endS: wall("2026-07-15", 15),
  load: weekday,
  excludedDates: new Set(["2026-07-09"]),
};
const rates = { reservationCentsPerKwMonth: 1800, performanceCentsPerKwh: 100 };

// Worked example 2: an event on Saturday 2026-07-18, 13:00 to 14:30 (6 intervals). Like days in the 30 days
// before: Saturdays 7/11 (30 kW), 7/4 (a holiday: excluded), 6/27 (26), 6/20 (28); 6/13 is beyond the
// look-back. The highest 2 of those 3: 30, 28 → CBL 29 kW. Actual 26 kW → 3 kW reduced × 1.5 h = 4.5 kWh.
// Alone in its month: reservation 18 × 3 = $54.00, performance 1 × 4.5 = $4.50, total $58.50.
const weekend = loads([13, 0], {
  "2026-07-18": flat(26, 6),
  "2026-07-17": flat(90, 6),
  "2026-07-11": flat(30, 6),
  "2026-07-04": flat(60, 6),
  "2026-06-27": flat(26, 6),
  "2026-06-20": flat(28, 6),
  "2026-06-13": flat(80, 6),
});
const weekendEvent = {
  startS: wall("2026-07-18", 13),
  endS: wall("2026-07-18", 14, 30),
  load: weekend,
  excludedDates: new Set(["2026-07-04"]),
};

describe("customer baseline load (rule grid-cbl)", () => {
  it("averages the highest 5 of the 10 preceding eligible weekdays (worked example 1)", () => {
    const b = customerBaseline(weekdayEvent);
    expect(b.kind).toBe("baseline");
    if (b.kind !== "baseline") return;
    expect(b.method).toBe("weekday");
    expect(b.eligible.map((d) => d.date)).toEqual([
      "2026-07-14",
      "2026-07-13",
      "2026-07-10",
      "2026-07-08",
      "2026-07-06",
      "2026-07-03",
      "2026-07-02",
      "2026-07-01",
      "2026-06-30",
      "2026-06-29",
    ]);
    expect(b.used.map((d) => [d.date, d.averageKw])).toEqual([
      ["2026-07-08", 25],
      ["2026-07-02", 23],
      ["2026-07-13", 22],
      ["2026-07-03", 21],
      ["2026-07-14", 20],
    ]);
    expect(b.kw).toBeCloseTo(22.2, 10);
  });

  it("uses the highest 2 of the 3 preceding like days for a weekend event (worked example 2)", () => {
    const b = customerBaseline(weekendEvent);
    expect(b.kind).toBe("baseline");
    if (b.kind !== "baseline") return;
    expect(b.method).toBe("weekend");
    expect(b.eligible.map((d) => d.date)).toEqual(["2026-07-11", "2026-06-27", "2026-06-20"]);
    expect(b.used.map((d) => d.date)).toEqual(["2026-07-11", "2026-06-20"]);
    expect(b.kw).toBe(29);
  });

  it("makes no baseline from fewer than 5 (or 2) eligible days", () => {
    const few = loads([14, 0], { "2026-07-14": flat(20), "2026-07-13": flat(22), "2026-07-15": flat(18) });
    const b = customerBaseline({ ...weekdayEvent, load: few });
    expect(b).toEqual({
      kind: "not_enough_days",
      method: "weekday",
      eligible: [
        { date: "2026-07-14", averageKw: 20 },
        { date: "2026-07-13", averageKw: 22 },
      ],
    });
  });
});

describe("event reduction (rule grid-event-reduction)", () => {
  it("is the baseline minus the actual average, times the hours", () => {
    const m = measureEvent(weekdayEvent);
    expect(m.kind).toBe("measured");
    if (m.kind !== "measured") return;
    expect(m.actualKw).toBe(18);
    expect(m.kwReduced).toBeCloseTo(4.2, 10);
    expect(m.hours).toBe(1);
    expect(m.kwhReduced).toBeCloseTo(4.2, 10);
    const w = measureEvent(weekendEvent);
    expect(w.kind === "measured" && [w.actualKw, w.kwReduced, w.hours, w.kwhReduced]).toEqual([
      26, 3, 1.5, 4.5,
    ]);
  });

  it("says there is no data when an interval of the event hours is missing", () => {
    const gap = new Map(weekday);
    gap.delete(wall("2026-07-15", 14, 30));
    expect(measureEvent({ ...weekdayEvent, load: gap })).toEqual({ kind: "no_data" });
    expect(measureEvent({ ...weekdayEvent, load: new Map() })).toEqual({ kind: "no_data" });
  });

  it("keeps a rise in load as a negative reduction", () => {
    const rise = new Map(weekday);
    for (let i = 0; i < 4; i++) rise.set(wall("2026-07-15", 14) + i * 900, 24.2);
    const m = measureEvent({ ...weekdayEvent, load: rise });
    expect(m.kind === "measured" && Math.round(m.kwReduced * 10) / 10).toBe(-2);
  });
});

describe("estimated earnings (rule grid-event-earnings)", () => {
  it("adds the reservation share of the month and the performance payment (worked examples)", () => {
    expect(eventEarnings({ kwReduced: 22.2 - 18, kwhReduced: 22.2 - 18 }, rates, 3)).toEqual({
      reservationCents: 2520,
      performanceCents: 420,
      totalCents: 2940,
    });
    expect(eventEarnings({ kwReduced: 3, kwhReduced: 4.5 }, rates, 1)).toEqual({
      reservationCents: 5400,
      performanceCents: 450,
      totalCents: 5850,
    });
  });

  it("earns nothing for a negative reduction", () => {
    expect(eventEarnings({ kwReduced: -2, kwhReduced: -4 }, rates, 1)).toEqual({
      reservationCents: 0,
      performanceCents: 0,
      totalCents: 0,
    });
  });
});

describe("season total (rule grid-season-total)", () => {
  it("counts every event, sums earnings and the positive kWh reduced", () => {
    expect(
      seasonTotal([
        { earnings: { reservationCents: 2520, performanceCents: 420, totalCents: 2940 }, kwhReduced: 4.2 },
        { earnings: { reservationCents: 5400, performanceCents: 450, totalCents: 5850 }, kwhReduced: 4.5 },
        { earnings: null, kwhReduced: null },
        { earnings: { reservationCents: 0, performanceCents: 0, totalCents: 0 }, kwhReduced: -1 },
      ]),
    ).toEqual({ events: 4, totalCents: 8790, kwhReduced: 8.7 });
  });

  it("writes the highest indoor temperature against the setpoint", () => {
    expect(degreesOverSetpoint(79.4, 78)).toBe(1.4);
    expect(degreesOverSetpoint(null, 78)).toBeNull();
  });
});
