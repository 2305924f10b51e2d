import { describe, expect, it } from "vitest";
import { zonedDate } from "~/lib/zoned";
import { homeTimeZone } from "~/features/locations/locations.server";
import {
  isPickableMonth,
  parsePeriod,
  pickerYears,
  previousMonthStart,
} from "~/features/compliance/compliance";
import {
  defaultStart,
  isDayDisabled,
  isMonthDisabled,
  isYearDisabled,
  todayParts,
} from "~/features/usage/usage";
import { clampStart } from "~/features/usage/period-range";

/**
 * A location's "today" is its time zone's date (rule location-today). The clock stands at the US
 * month-end evening hours: 7 PM on Nov 30 in Seattle is 03:00 UTC on Dec 1, and 7 PM on Dec 31 is New Year's Day
 * in UTC. Every default, limit and label computed from "today" must still read Nov 30 (Dec 31) there.
 */
const SEATTLE = "America/Los_Angeles";
const NOV_30_7PM_SEATTLE = Date.parse("2026-12-01T03:00:00.000Z");
const DEC_31_7PM_SEATTLE = Date.parse("2027-01-01T03:00:00.000Z");

describe("zonedDate", () => {
  it("is the location's own date, not the UTC one, in the US month-end evening hours", () => {
    expect(zonedDate(NOV_30_7PM_SEATTLE, SEATTLE).toISOString()).toBe("2026-11-30T00:00:00.000Z");
    expect(zonedDate(NOV_30_7PM_SEATTLE, "America/New_York").toISOString()).toBe("2026-11-30T00:00:00.000Z");
    expect(zonedDate(NOV_30_7PM_SEATTLE, "Europe/Berlin").toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(zonedDate(DEC_31_7PM_SEATTLE, SEATTLE).toISOString()).toBe("2026-12-31T00:00:00.000Z");
  });

  it("reads no time zone, or an unknown one, as the product's home time zone (New York)", () => {
    // 04:30 UTC on Dec 1 is 11:30 PM on Nov 30 in New York.
    const at = Date.parse("2026-12-01T04:30:00.000Z");
    expect(zonedDate(at, null).toISOString()).toBe("2026-11-30T00:00:00.000Z");
    expect(zonedDate(at, "Not/AZone").toISOString()).toBe("2026-11-30T00:00:00.000Z");
  });
});

describe("homeTimeZone", () => {
  it("is the client's first location's (the lowest id), as its digests'", () => {
    expect(
      homeTimeZone([
        { id: 104, timezone: "America/Chicago" },
        { id: 101, timezone: SEATTLE },
        { id: 109, timezone: "America/New_York" },
      ]),
    ).toBe(SEATTLE);
    expect(homeTimeZone([])).toBeNull();
  });
});

describe("the month-end evening in Seattle (Nov 30, 7 PM = Dec 1, 03:00 UTC)", () => {
  const today = zonedDate(NOV_30_7PM_SEATTLE, SEATTLE);

  it("the compliance report opens on the previous month, October, not the running one", () => {
    expect(previousMonthStart(today)).toBe("2026-10-01");
    expect(parsePeriod(new URLSearchParams(), today)).toMatchObject({ start: "2026-10-01", error: null });
    // November is the running month: pickable; December is the future.
    expect(isPickableMonth(2026, 11, today)).toBe(true);
    expect(isPickableMonth(2026, 12, today)).toBe(false);
    expect(parsePeriod(new URLSearchParams("period=day&start=2026-12-01"), today).day).toBeNull();
    expect(parsePeriod(new URLSearchParams("period=day&start=2026-11-30"), today).day).toBe("2026-11-30");
  });

  it("the usage explorer offers no Dec 1, no December and no 2027", () => {
    const t = todayParts(today);
    expect(t).toEqual({ y: 2026, m: 11, d: 30 });
    expect(isDayDisabled("2026-12-01", t)).toBe(true);
    expect(isDayDisabled("2026-11-30", t)).toBe(false);
    expect(isMonthDisabled(2026, 12, t)).toBe(true);
    expect(isMonthDisabled(2026, 11, t)).toBe(false);
    expect(defaultStart("month", t)).toBe("2026-11-01");
    expect(defaultStart("day", t)).toBe("2026-11-29");
    // A hand-typed December goes back to November.
    expect(clampStart("month", "2026-12-01", t)).toBe("2026-11-01");
    expect(clampStart("day", "2026-12-01", t)).toBe("2026-11-30");
  });

  it("on New Year's Eve evening, 2027 is not offered yet", () => {
    const t = todayParts(zonedDate(DEC_31_7PM_SEATTLE, SEATTLE));
    expect(isYearDisabled(2027, t)).toBe(true);
    expect(isMonthDisabled(2026, 12, t)).toBe(false);
    expect(pickerYears(zonedDate(DEC_31_7PM_SEATTLE, SEATTLE))[0]).toBe(2026);
    expect(previousMonthStart(zonedDate(DEC_31_7PM_SEATTLE, SEATTLE))).toBe("2026-11-01");
  });
});
