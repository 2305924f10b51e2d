import { describe, expect, it } from "vitest";
import { addLocalDays, noticeDue, optOutDecision } from "../../api/domain/grid-notices";
import { localDate } from "../../api/lib/wall-clock";
import { OPT_OUT_STARTED_MESSAGE } from "../../shared/grid-opt-out";
import { canOptOut } from "~/features/grid-services/grid-services";

/** Rules grid-opt-out and grid-notice-day (docs/rules.md). */
describe("optOutDecision (rule grid-opt-out)", () => {
  const start = "2026-07-15T18:00:00.000Z";
  const ms = (iso: string) => Date.parse(iso);
  it("opts a pending event out until it starts", () => {
    expect(optOutDecision({ status: "PENDING", startTime: start }, ms("2026-07-15T17:59:59.999Z"))).toBe(
      "opt_out",
    );
  });
  it("refuses from the start on, and an event that is no longer pending", () => {
    expect(optOutDecision({ status: "PENDING", startTime: start }, ms(start))).toBe("started");
    expect(optOutDecision({ status: "SUCCESS", startTime: start }, ms("2026-07-14T00:00:00Z"))).toBe(
      "started",
    );
    expect(OPT_OUT_STARTED_MESSAGE).toMatch(/already started/);
  });
  it("answers 'already' for an event opted out before, whenever asked", () => {
    expect(optOutDecision({ status: "OPT_OUT", startTime: start }, ms("2026-07-14T00:00:00Z"))).toBe(
      "already",
    );
    expect(optOutDecision({ status: "OPT_OUT", startTime: start }, ms("2026-07-16T00:00:00Z"))).toBe(
      "already",
    );
  });
});

describe("noticeDue (rule grid-notice-day): the day before, in the building's time zone", () => {
  // 19:00 in New York on Thursday 16 July 2026 (EDT, UTC−4) is 23:00 UTC.
  const event = { status: "PENDING", startTime: "2026-07-16T23:00:00.000Z", timeZone: "America/New_York" };
  it("is due all of the local day before, and not before it", () => {
    expect(noticeDue(event, Date.parse("2026-07-15T04:00:00.000Z"))).toBe(true); // 00:00 Wed, New York
    expect(noticeDue(event, Date.parse("2026-07-16T03:59:59.000Z"))).toBe(true); // 23:59:59 Wed, New York
    expect(noticeDue(event, Date.parse("2026-07-15T03:59:59.000Z"))).toBe(false); // 23:59:59 Tue, New York
  });
  it("is not due on the event's own day, though it is still the day before in UTC", () => {
    // 01:00 UTC on 16 July is 21:00 Wednesday in New York: due; 05:00 UTC is 01:00 Thursday: not.
    expect(noticeDue(event, Date.parse("2026-07-16T01:00:00.000Z"))).toBe(true);
    expect(noticeDue(event, Date.parse("2026-07-16T05:00:00.000Z"))).toBe(false);
  });
  it("follows the building's zone: the same instants in Los Angeles", () => {
    const la = { ...event, timeZone: "America/Los_Angeles" }; // 16:00 Thursday in Los Angeles
    expect(noticeDue(la, Date.parse("2026-07-15T04:00:00.000Z"))).toBe(false); // 21:00 Tue, Los Angeles
    expect(noticeDue(la, Date.parse("2026-07-15T07:00:00.000Z"))).toBe(true); // 00:00 Wed, Los Angeles
    expect(noticeDue(la, Date.parse("2026-07-16T05:00:00.000Z"))).toBe(true); // 22:00 Wed, Los Angeles
  });
  it("is not due for an event that is no longer pending", () => {
    expect(noticeDue({ ...event, status: "OPT_OUT" }, Date.parse("2026-07-15T12:00:00.000Z"))).toBe(false);
  });
  it("crosses months and the change of clocks", () => {
    expect(addLocalDays("2026-03-01", -1)).toBe("2026-02-28");
    // 8 March 2026, 02:00 New York: clocks go forward; the day before is still the 7th, all of it.
    const dst = { status: "PENDING", startTime: "2026-03-08T20:00:00.000Z", timeZone: "America/New_York" };
    expect(localDate(Date.parse("2026-03-08T04:59:00.000Z"), "America/New_York")).toBe("2026-03-07");
    expect(noticeDue(dst, Date.parse("2026-03-08T04:59:00.000Z"))).toBe(true);
    expect(noticeDue(dst, Date.parse("2026-03-08T05:00:00.000Z"))).toBe(false);
  });
});

describe("canOptOut: the page offers the opt-out (rule grid-opt-out)", () => {
  const d = { status: "PENDING", startTime: "2026-07-15T18:00:00.000Z", buildingId: 104 };
  it("offers it for a pending event before its start, with its location", () => {
    expect(canOptOut(d, Date.parse("2026-07-15T17:59:00.000Z"))).toBe(true);
  });
  it("not from its start on, not once it is no longer pending, not without a location", () => {
    expect(canOptOut(d, Date.parse(d.startTime))).toBe(false);
    expect(canOptOut({ ...d, status: "OPT_OUT" }, 0)).toBe(false);
    expect(canOptOut({ ...d, status: "SUCCESS" }, 0)).toBe(false);
    expect(canOptOut({ ...d, buildingId: null }, 0)).toBe(false);
    expect(canOptOut({ ...d, startTime: null }, 0)).toBe(false);
  });
});
