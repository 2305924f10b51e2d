import { describe, expect, it } from "vitest";
import { FINAL_BILL_DETAIL, calendarDate, isBillOld, missingBill } from "../../shared/missing-bill";

const today = new Date("2026-11-18T19:30:00Z");

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

  it("writes calendar dates without Intl", () => {
    expect(calendarDate("2026-01-05")).toBe("Jan 5, 2026");
    expect(calendarDate("2025-12-31")).toBe("Dec 31, 2025");
  });
});
