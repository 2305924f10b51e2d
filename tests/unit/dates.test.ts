import { describe, expect, it } from "vitest";
import { compareIso, formatCalendarDate, MONTH_SHORT } from "~/lib/dates";
import { formatZonedMediumDate, zonedParts } from "~/lib/zoned";
import { formatRange, formatMonth } from "~/features/bills/bills";
import { localTimeParts } from "~/lib/local-time";
import { bucketLabel } from "~/features/usage/usage";

describe("formatCalendarDate", () => {
  it('writes a calendar date as "Mon D, YYYY", with no timezone shift', () => {
    expect(formatCalendarDate("2026-11-12")).toBe("Nov 12, 2026");
    expect(formatCalendarDate("2026-09-04")).toBe("Sep 4, 2026");
    expect(formatCalendarDate("2027-01-01")).toBe("Jan 1, 2027");
    expect(formatCalendarDate("2026-12-31")).toBe("Dec 31, 2026");
  });

  it("gives back anything that is not a date as it is, instead of throwing", () => {
    for (const s of ["", "soon", "2026-13-01", "2026-00-10", "2026-11-00", "2026-11-12T00:00:00Z"])
      expect(formatCalendarDate(s), s).toBe(s);
  });

  it("says the same as the product's other date words", () => {
    expect(MONTH_SHORT).toHaveLength(12);
    expect(formatRange("2025-12-13", "2026-01-12")).toBe("Dec 13, 2025 – Jan 12, 2026");
    expect(formatRange("2026-10-13", "2026-11-12")).toBe("Oct 13 – Nov 12, 2026");
    expect(formatMonth("2026-11-12")).toBe("Nov 2026");
    expect(bucketLabel("2026-03-05T00:00:00-05:00", "day")).toBe("Mar 5, 2026");
  });
});

describe("formatZonedMediumDate", () => {
  it("is the day an instant falls on in the given timezone", () => {
    const late = Date.parse("2026-11-04T03:30:00Z");
    expect(formatZonedMediumDate(zonedParts(late, "UTC"))).toBe("Nov 4, 2026");
    expect(formatZonedMediumDate(zonedParts(late, "America/Los_Angeles"))).toBe("Nov 3, 2026");
    expect(formatZonedMediumDate(zonedParts(late, "Asia/Tokyo"))).toBe("Nov 4, 2026");
  });

  it("is the date half of a grid-services event time", () => {
    expect(localTimeParts("2026-11-04T03:30:00Z", "America/Los_Angeles")?.[0]).toBe("Nov 3, 2026");
  });
});

describe("compareIso", () => {
  it("orders ISO dates and date-times as time runs, and says when they are equal", () => {
    const sorted = ["2026-11-12T09:30", "2025-01-31", "2026-11-12", "2026-02-01", "2026-11-12T09:15"].sort(
      compareIso,
    );
    expect(sorted).toEqual([
      "2025-01-31",
      "2026-02-01",
      "2026-11-12",
      "2026-11-12T09:15",
      "2026-11-12T09:30",
    ]);
    expect(compareIso("2026-11-12", "2026-11-12")).toBe(0);
    expect(compareIso("2026-11-13", "2026-11-12")).toBe(1);
    expect(compareIso("2026-11-12", "2026-11-13")).toBe(-1);
  });
});
