import { describe, expect, it } from "vitest";
import {
  businessDaysBetween,
  type Investigation,
  nextBusinessDay,
  queueCard,
  responseDue,
} from "~/features/investigations/investigations";

/** Rule investigation-response-due: "respond within 1 business day", weekdays only, in the location's zone. */

const CHICAGO = "America/Chicago";
const SEATTLE = "America/Los_Angeles";
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
/** Noon of a day in Chicago (18:00 UTC in winter), as an instant. */
const noon = (iso: string) => `${iso}T18:00:00Z`;
const at = (iso: string) => Date.parse(noon(iso));

describe("business days", () => {
  it("the next business day skips the weekend, across month and year ends", () => {
    const next = (iso: string) => new Date(nextBusinessDay(day(iso))).toISOString().slice(0, 10);
    expect(next("2026-11-30")).toBe("2026-12-01"); // Monday → Tuesday, into the next month
    expect(next("2026-12-04")).toBe("2026-12-07"); // Friday → Monday
    expect(next("2026-12-05")).toBe("2026-12-07"); // Saturday → Monday
    expect(next("2026-12-06")).toBe("2026-12-07"); // Sunday → Monday
    expect(next("2026-10-30")).toBe("2026-11-02"); // Friday, Oct 30 → Monday, Nov 2
    expect(next("2026-10-31")).toBe("2026-11-02"); // Saturday, Oct 31 → Monday, Nov 2
    expect(next("2026-12-31")).toBe("2027-01-01"); // Thursday → Friday, New Year's Day (no holidays)
  });

  it("counts the weekdays after one day up to another", () => {
    expect(businessDaysBetween(day("2026-12-07"), day("2026-12-07"))).toBe(0);
    expect(businessDaysBetween(day("2026-12-04"), day("2026-12-06"))).toBe(0); // Fri → Sun
    expect(businessDaysBetween(day("2026-12-04"), day("2026-12-07"))).toBe(1); // Fri → Mon
    expect(businessDaysBetween(day("2026-11-27"), day("2026-12-09"))).toBe(8); // across the month end
    expect(businessDaysBetween(day("2026-12-09"), day("2026-12-07"))).toBe(0);
  });
});

describe("responseDue", () => {
  it("asked on a weekday: due the next one; tomorrow, today, then business days late", () => {
    expect(responseDue(noon("2026-11-30"), CHICAGO, at("2026-11-30"))).toEqual({
      state: "due",
      due: "2026-12-01",
      businessDaysLate: 0,
      text: "Due tomorrow",
    });
    expect(responseDue(noon("2026-11-30"), CHICAGO, at("2026-12-01"))).toMatchObject({
      state: "due_today",
      text: "Due today",
    });
    expect(responseDue(noon("2026-11-30"), CHICAGO, at("2026-12-02"))).toEqual({
      state: "late",
      due: "2026-12-01",
      businessDaysLate: 1,
      text: "1 business day late (was due Tue, Dec 1)",
    });
    expect(responseDue(noon("2026-11-30"), CHICAGO, at("2026-12-07")).text).toBe(
      "4 business days late (was due Tue, Dec 1)",
    );
  });

  it("asked on a Friday or over the weekend: due on Monday; a weekend after the due day is late, not counted", () => {
    for (const asked of ["2026-12-04", "2026-12-05", "2026-12-06"]) {
      expect(responseDue(noon(asked), CHICAGO, at(asked))).toMatchObject({ due: "2026-12-07" });
    }
    expect(responseDue(noon("2026-12-04"), CHICAGO, at("2026-12-05")).text).toBe("Due Mon, Dec 7");
    expect(responseDue(noon("2026-12-06"), CHICAGO, at("2026-12-06")).text).toBe("Due tomorrow");
    // Asked Thursday, due Friday: Saturday and Sunday are late by no business day yet; Monday by one.
    expect(responseDue(noon("2026-12-03"), CHICAGO, at("2026-12-05"))).toMatchObject({
      state: "late",
      businessDaysLate: 0,
      text: "Late (was due Fri, Dec 4)",
    });
    expect(responseDue(noon("2026-12-03"), CHICAGO, at("2026-12-07")).text).toBe(
      "1 business day late (was due Fri, Dec 4)",
    );
  });

  it("across month and year ends", () => {
    expect(responseDue(noon("2026-10-30"), CHICAGO, at("2026-10-31")).text).toBe("Due Mon, Nov 2");
    expect(responseDue(noon("2026-10-31"), CHICAGO, at("2026-11-03")).text).toBe(
      "1 business day late (was due Mon, Nov 2)",
    );
    expect(responseDue(noon("2026-12-31"), CHICAGO, at("2027-01-04")).text).toBe(
      "1 business day late (was due Fri, Jan 1)",
    );
  });

  it("dates the request and today in the location's time zone, not UTC", () => {
    // 11:30 PM Monday in Chicago is already Tuesday in UTC: due Tuesday, not Wednesday.
    const lateMonday = "2026-12-01T05:30:00Z";
    expect(responseDue(lateMonday, CHICAGO, Date.parse(lateMonday)).due).toBe("2026-12-01");
    expect(responseDue(lateMonday, "UTC", Date.parse(lateMonday)).due).toBe("2026-12-02");
    // At 9 PM Tuesday in Seattle (Wednesday in UTC) it is still the due day there.
    expect(responseDue(lateMonday, SEATTLE, Date.parse("2026-12-02T05:00:00Z")).text).toBe("Due today");
    expect(responseDue(lateMonday, SEATTLE, Date.parse("2026-12-02T08:30:00Z")).text).toBe(
      "1 business day late (was due Tue, Dec 1)",
    );
  });
});

describe("queueCard", () => {
  const investigation: Investigation = {
    flagId: 7019,
    type: "supplier_change",
    client: { id: 1, name: "Harbor Coffee Co.", clientType: "SMB" },
    building: { id: 110, name: "Slope", code: "HCC-003", timezone: "America/New_York" },
    account: { id: 1013, number: "29-5512-0034-0001-9" },
    bill: {
      id: 512,
      statementDate: "2026-11-10",
      totalCharges: 260080,
      supplier: "Agway Energy Services",
      previousSupplier: "Consolidated Edison (ConEd)",
    },
    atStake: { cents: 5410, text: "$0.1949 → $0.2007 per kWh × 9,327 kWh = $54.10" },
    asked: { by: { name: "Dana Reyes" }, answeredAt: "2026-11-12T09:00:00.000Z" },
    askedAt: "2026-11-12T09:00:00.000Z",
  };

  it("writes what staff read: client, location, bill, what was found, the stake, who asked when, the promise", () => {
    const card = queueCard(investigation, Date.parse("2026-11-18T19:30:00Z"));
    expect(card).toMatchObject({
      flagId: 7019,
      client: { id: 1, name: "Harbor Coffee Co." },
      location: "Slope (HCC-003)",
      bill: "Bill of Nov 10, 2026 · account 29-5512-0034-0001-9 · $2,600.80 total",
      found: "Supplier changed to Agway Energy Services (was Consolidated Edison (ConEd))",
      stake:
        "At stake on this bill, from the rate per kWh alone: $0.1949 → $0.2007 per kWh × 9,327 kWh = $54.10.",
      asked: { by: "Dana Reyes", when: "Nov 12, 2026, 4:00 AM EST", at: "2026-11-12T09:00:00.000Z" },
      due: { state: "late", businessDaysLate: 3, text: "3 business days late (was due Fri, Nov 13)" },
      opens: true,
    });
  });

  it("opens on the bill's flag of the location's Bill History; a client without the main application does not", () => {
    const card = queueCard(investigation, Date.parse("2026-11-12T12:00:00Z"));
    expect(card.flagHref).toBe("/locations/110/spending?accountId=1013&billId=512#flag-7019");
    expect(card.due.text).toBe("Due tomorrow");
    expect(card.reason.length).toBeGreaterThanOrEqual(3);
    const rate = queueCard(
      {
        ...investigation,
        type: "rate_class_change",
        client: { ...investigation.client, clientType: "RESI" },
      },
      Date.parse("2026-11-13T12:00:00Z"),
    );
    expect(rate).toMatchObject({
      found: "Delivery rate class changed",
      opens: false,
      due: { text: "Due today" },
    });
  });
});
