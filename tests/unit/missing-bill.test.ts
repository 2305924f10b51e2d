import { describe, expect, it } from "vitest";
import { FINAL_BILL_DETAIL, calendarDate, isBillOld, missingBill } from "../../shared/missing-bill";
import { zonedDate } from "~/lib/zoned";

// The location's date (rule location-today): the rules count its calendar days, never an instant's UTC ones.
const today = "2026-11-18";
/** 7 PM on Nov 30 in Seattle: 03:00 UTC on Dec 1. */
const MONTH_END_EVENING = Date.parse("2026-12-01T03:00:00Z");
/** A time zone's date at an instant, as the callers compute it. */
const zonedIsoDate = (ms: number, timeZone: string) => zonedDate(ms, timeZone).toISOString().slice(0, 10);

describe("missing bills (rule missing-bill)", () => {
  it("is a missing bill once the last statement is more than 45 days old, not at exactly 45", () => {
    expect(missingBill({ lastStatementDate: "2026-10-04" }, today)).toBeNull(); // 45 days
    expect(missingBill({ lastStatementDate: "2026-10-03" }, today)).toEqual({
      lastStatementDate: "2026-10-03",
      foundOn: "2026-11-18",
      days: 46,
      text: "No statement since Oct 3, 2026 (46 days)",
    });
    expect(missingBill({ lastStatementDate: "2026-09-19" }, today)).toMatchObject({
      foundOn: "2026-11-04",
      days: 60,
      text: "No statement since Sep 19, 2026 (60 days)",
    });
  });

  it("uses the dashboard's own age: an account is missing its bill exactly when its last bill is old", () => {
    for (let days = 40; days <= 50; days++) {
      const date = new Date(Date.UTC(2026, 10, 18) - days * 86_400_000).toISOString().slice(0, 10);
      expect(missingBill({ lastStatementDate: date }, today) !== null).toBe(isBillOld(date, today));
    }
  });

  it("ends when a statement arrives, and needs a first statement and an open account", () => {
    expect(missingBill({ lastStatementDate: "2026-11-10" }, today)).toBeNull();
    expect(missingBill({ lastStatementDate: null }, today)).toBeNull();
    expect(missingBill({ lastStatementDate: "not a date" }, today)).toBeNull();
    expect(
      missingBill({ lastStatementDate: "2026-08-01", statusDetail: FINAL_BILL_DETAIL }, today),
    ).toBeNull();
  });

  it("counts the location's days: on a US month-end evening a bill turns old at local midnight, not UTC's", () => {
    const seattle = zonedIsoDate(MONTH_END_EVENING, "America/Los_Angeles");
    const newYork = zonedIsoDate(MONTH_END_EVENING, "America/New_York");
    expect([seattle, newYork]).toEqual(["2026-11-30", "2026-11-30"]);
    // Oct 16 → Nov 30 is 45 days: not yet old there, though Dec 1 has begun in UTC.
    expect(isBillOld("2026-10-16", seattle)).toBe(false);
    expect(missingBill({ lastStatementDate: "2026-10-16" }, newYork)).toBeNull();
    expect(missingBill({ lastStatementDate: "2026-10-15" }, seattle)).toMatchObject({
      foundOn: "2026-11-30",
      days: 46,
    });
    // Six hours later it is Dec 1 in Seattle too.
    const next = zonedIsoDate(MONTH_END_EVENING + 6 * 3_600_000, "America/Los_Angeles");
    expect(isBillOld("2026-10-16", next)).toBe(true);
  });

  it("writes calendar dates without Intl", () => {
    expect(calendarDate("2026-01-05")).toBe("Jan 5, 2026");
    expect(calendarDate("2025-12-31")).toBe("Dec 31, 2025");
  });
});
