import { describe, expect, it } from "vitest";
import { awaitingByLocation, type StakedFinding } from "../../api/domain/awaiting-findings";

const f = (
  flagId: number | null,
  billId: number | null,
  status: string,
  locationId: number,
  cents: number | null,
): StakedFinding => ({ flagId, billId, status, locationId, cents });

describe("findings awaiting an answer, per location (rule rundown-findings)", () => {
  it("counts each location's findings awaiting an answer and sums their at stake", () => {
    const out = awaitingByLocation([
      f(1, 10, "unacknowledged", 101, 5439),
      f(3, 11, "unacknowledged", 101, null),
      f(4, 12, "action_requested", 101, 1000),
      f(5, 13, "completed", 102, 7427),
      f(null, null, "missing", 102, null),
      f(6, 14, "unacknowledged", 103, 609),
    ]);
    expect(out.get(101)).toEqual({ count: 2, stakeCents: 5439 });
    // Closed findings and missing bills wait for no answer.
    expect(out.has(102)).toBe(false);
    expect(out.get(103)).toEqual({ count: 1, stakeCents: 609 });
  });

  it("counts one bill's dollars once, as the findings page does: the bill's first priced finding carries them", () => {
    // Two flags of one bill, both awaiting: two findings, the amount once.
    expect(
      awaitingByLocation([f(2, 10, "unacknowledged", 101, 5439), f(1, 10, "unacknowledged", 101, 5439)]).get(
        101,
      ),
    ).toEqual({ count: 2, stakeCents: 5439 });
    // The carrier is closed: the one awaiting adds nothing (the ledger shows its row as "Counted with the …").
    expect(
      awaitingByLocation([f(1, 10, "completed", 101, 5439), f(2, 10, "unacknowledged", 101, 5439)]).get(101),
    ).toEqual({ count: 1, stakeCents: 0 });
  });
});
