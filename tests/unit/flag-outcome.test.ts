import { describe, expect, it } from "vitest";
import { parseDollarAmount } from "../../shared/money-amount";
import { FLAG_OUTCOMES, mayCloseFlag, outcomeProblem, outcomeWords } from "../../shared/flag-outcome";

describe("closing an investigation (rule flag-outcome)", () => {
  it("closes only a flag under investigation", () => {
    expect(mayCloseFlag("action_requested")).toBe(true);
    for (const status of ["unacknowledged", "dismissed", "completed", ""])
      expect(mayCloseFlag(status)).toBe(false);
  });

  it("wants a credit with “Credit received” and none with another outcome", () => {
    expect(outcomeProblem("credit_received", 18250)).toBeNull();
    expect(outcomeProblem("credit_received", null)).toBe("Enter the credit received");
    for (const bad of [0, -5, 12.5, 100_000_001])
      expect(outcomeProblem("credit_received", bad)).toMatch(/above \$0\.00/);
    for (const outcome of FLAG_OUTCOMES.filter((o) => o !== "credit_received")) {
      expect(outcomeProblem(outcome, null)).toBeNull();
      expect(outcomeProblem(outcome, 100)).toBe("A credit goes only with “Credit received”");
    }
  });

  it("reads a typed credit in dollars and cents, and says the outcome in words", () => {
    expect(parseDollarAmount("$1,204.50")).toBe(120450);
    expect(parseDollarAmount(" 182.5 ")).toBe(18250);
    expect(parseDollarAmount("")).toBeNull();
    for (const bad of ["12.345", "abc", "1e3", "-4"]) expect(parseDollarAmount(bad)).toBe("invalid");
    expect(outcomeWords({ outcome: "credit_received", creditCents: 18250 })).toBe("Credit received: $182.50");
    expect(outcomeWords({ outcome: "billing_correct", creditCents: null })).toBe("Billing was correct");
    // With what was at stake on the bill: how much of it came back.
    expect(outcomeWords({ outcome: "credit_received", creditCents: 6840 }, 7427)).toBe(
      "Credit received: $68.40 of $74.27",
    );
    expect(outcomeWords({ outcome: "billing_correct", creditCents: null }, 7427)).toBe("Billing was correct");
  });
});
