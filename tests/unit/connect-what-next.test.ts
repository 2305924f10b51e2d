import { describe, expect, it } from "vitest";
import { firstStatementWait } from "../../app/features/bills/bills";

describe("rule connect-what-next", () => {
  const connected = {
    id: 7,
    arcadiaAccountStatus: "CONNECTION_SUCCESS",
    connectedAt: "2026-11-18T19:31:02.000Z",
  };
  it("says the day it connected in the location's calendar, not UTC's", () => {
    // 9:30 PM on Nov 17 in Seattle is Nov 18 in UTC: the api's connected_on is the location's day.
    const evening = { ...connected, connectedAt: "2026-11-18T05:30:00.000Z", connectedOn: "2026-11-17" };
    expect(firstStatementWait([evening], null)).toMatch(/^Connected on Nov 17, 2026;/);
  });
  it("before the first bill, a Connected account says since when and that the first statement is awaited", () => {
    expect(firstStatementWait([connected], null)).toBe(
      "Connected on Nov 18, 2026; waiting for the utility's first statement",
    );
    // The account chosen, else the latest connected.
    const later = {
      id: 8,
      arcadiaAccountStatus: "CONNECTION_SUCCESS",
      connectedAt: "2026-11-20T08:00:00.000Z",
    };
    expect(firstStatementWait([connected, later], null)).toMatch(/^Connected on Nov 20, 2026;/);
    expect(firstStatementWait([connected, later], 7)).toMatch(/^Connected on Nov 18, 2026;/);
  });
  it("says nothing (the spec's empty state) without a Connected account", () => {
    expect(firstStatementWait([], null)).toBeNull();
    expect(
      firstStatementWait(
        [{ id: 1, arcadiaAccountStatus: "CONNECTION_IN_PROGRESS", connectedAt: null }],
        null,
      ),
    ).toBeNull();
    expect(
      firstStatementWait([{ ...connected, arcadiaAccountStatus: "DATA_ACCESS_FAILURE" }], null),
    ).toBeNull();
    expect(firstStatementWait([connected], 99)).toBeNull();
  });
});
