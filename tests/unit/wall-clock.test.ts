import { describe, expect, it } from "vitest";
import { instantsBetween, wallClockIso, wallInstants } from "../../api/lib/wall-clock";

/**
 * The reference api's hours are instants labelled in the building's zone: at Pike Place, Seattle, the
 * clocks go forward on Mar 8, 2026 (no 2:00 AM) and back on Nov 1, 2026 (1:00 AM twice).
 */
const SEATTLE = "America/Los_Angeles";
const wall = (iso: string) => Date.parse(`${iso}Z`) / 1000;

describe("wallInstants", () => {
  it("names one instant for an ordinary time, none for a skipped one, two for a repeated one", () => {
    expect(wallInstants(wall("2026-03-08T01:00:00"), SEATTLE)).toEqual([
      Date.parse("2026-03-08T09:00:00Z") / 1000,
    ]);
    expect(wallInstants(wall("2026-03-08T02:00:00"), SEATTLE)).toEqual([]);
    expect(wallInstants(wall("2026-03-08T02:45:00"), SEATTLE)).toEqual([]);
    expect(wallInstants(wall("2026-11-01T01:30:00"), SEATTLE)).toEqual([
      Date.parse("2026-11-01T08:30:00Z") / 1000,
      Date.parse("2026-11-01T09:30:00Z") / 1000,
    ]);
  });

  it("writes a wall-clock time with its offset", () => {
    expect(wallClockIso(wall("2026-03-08T00:00:00"), SEATTLE)).toBe("2026-03-08T00:00:00-08:00");
    expect(wallClockIso(wall("2026-03-09T00:00:00"), SEATTLE)).toBe("2026-03-09T00:00:00-07:00");
  });
});

describe("instantsBetween", () => {
  const hours = (day: string, next: string, step = 3600) =>
    instantsBetween(wall(`${day}T00:00:00`), wall(`${next}T00:00:00`), step, SEATTLE);
  const local = (i: { wall: number }) => new Date(i.wall * 1000).toISOString().slice(11, 16);

  it("the day the clocks go forward has 23 hours, without 2:00 AM", () => {
    const day = hours("2026-03-08", "2026-03-09");
    expect(day).toHaveLength(23);
    expect(day.slice(0, 4).map(local)).toEqual(["00:00", "01:00", "03:00", "04:00"]);
    expect(day.map((i) => i.offset).slice(0, 3)).toEqual([-480, -480, -420]);
    expect(hours("2026-03-08", "2026-03-09", 900)).toHaveLength(92);
  });

  it("the day the clocks go back has 25 hours, 1:00 AM twice (fold 0, then 1)", () => {
    const day = hours("2026-11-01", "2026-11-02");
    expect(day).toHaveLength(25);
    expect(day.slice(0, 4).map(local)).toEqual(["00:00", "01:00", "01:00", "02:00"]);
    expect(day.slice(0, 4).map((i) => [i.fold, i.offset])).toEqual([
      [0, -420],
      [0, -420],
      [1, -480],
      [0, -480],
    ]);
    expect(hours("2026-11-01", "2026-11-02", 900)).toHaveLength(100);
  });

  it("an ordinary day has 24 hours; several days follow one another", () => {
    expect(hours("2026-11-02", "2026-11-03")).toHaveLength(24);
    expect(hours("2026-10-31", "2026-11-03")).toHaveLength(24 + 25 + 24);
    // Each instant follows the previous one by exactly an hour, across the change.
    const all = hours("2026-10-31", "2026-11-03");
    expect(all.every((i, k) => k === 0 || i.at - all[k - 1].at === 3600)).toBe(true);
  });
});
