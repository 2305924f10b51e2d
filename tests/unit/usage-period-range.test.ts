import { describe, expect, it } from "vitest";
import { clampStart, periodBounds, stepStart } from "~/features/usage/period-range";

const t = { y: 2026, m: 11, d: 18 };

describe("usage period range", () => {
  it("runs from 2021 to today's period", () => {
    expect(periodBounds("day", t)).toEqual({ min: "2021-01-01", max: "2026-11-18" });
    expect(periodBounds("month", t)).toEqual({ min: "2021-01-01", max: "2026-11-01" });
    expect(periodBounds("year", t)).toEqual({ min: "2021-01-01", max: "2026-01-01" });
  });

  it("clamps a start outside the range to the nearest allowed period", () => {
    expect(clampStart("month", "2019-05-01", t)).toBe("2021-01-01");
    expect(clampStart("day", "2031-02-03", t)).toBe("2026-11-18");
    expect(clampStart("month", "2026-12-01", t)).toBe("2026-11-01");
    expect(clampStart("year", "2027-01-01", t)).toBe("2026-01-01");
    expect(clampStart("day", "2026-11-19", t)).toBe("2026-11-18");
  });

  it("leaves starts inside the range and non-dates alone", () => {
    expect(clampStart("month", "2024-02-01", t)).toBeNull();
    expect(clampStart("day", "2026-11-18", t)).toBeNull();
    expect(clampStart("month", "2026-11-15", t)).toBeNull();
    expect(clampStart("day", "not-a-date", t)).toBeNull();
    expect(clampStart("day", null, t)).toBeNull();
  });

  it("steps to the previous and next period, null past the ends", () => {
    expect(stepStart("day", "2024-03-01", -1, t)).toBe("2024-02-29");
    expect(stepStart("month", "2026-01-01", -1, t)).toBe("2025-12-01");
    expect(stepStart("month", "2025-12-01", 1, t)).toBe("2026-01-01");
    expect(stepStart("year", "2024-01-01", 1, t)).toBe("2025-01-01");
    expect(stepStart("month", "2026-11-01", 1, t)).toBeNull();
    expect(stepStart("day", "2026-11-18", 1, t)).toBeNull();
    expect(stepStart("year", "2021-01-01", -1, t)).toBeNull();
    expect(stepStart("month", "2021-01-01", -1, t)).toBeNull();
  });
});

describe("week steps", () => {
  const t = { y: 2026, m: 11, d: 21 };
  it("steps a week at a time, up to this week's Monday, from the first Monday of 2021", () => {
    expect(stepStart("week", "2026-11-09", -1, t)).toBe("2026-11-02");
    expect(stepStart("week", "2026-11-09", 1, t)).toBe("2026-11-16");
    expect(stepStart("week", "2026-11-16", 1, t)).toBeNull();
    expect(periodBounds("week", t)).toEqual({ min: "2021-01-04", max: "2026-11-16" });
    expect(clampStart("week", "2030-01-07", t)).toBe("2026-11-16");
  });
});
