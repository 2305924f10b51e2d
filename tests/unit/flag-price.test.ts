import { describe, expect, it } from "vitest";
import { flagPrice, priceLine } from "../../shared/flag-price";

describe("flag price (rule flag-price)", () => {
  it("prices a rise from the bills' own figures, rounded to the cent, with its inputs", () => {
    const p = flagPrice({ rateCents: 18.53, kwh: 13945 }, { rateCents: 16.12 });
    expect(p.cents).toBe(33607);
    expect(p.inputs).toBe("$0.1612 → $0.1853 per kWh × 13,945 kWh = $336.07");
    expect(priceLine(p)).toBe(
      "At stake on this bill, from the rate per kWh alone: $0.1612 → $0.1853 per kWh × 13,945 kWh = $336.07.",
    );
  });

  it("takes each rate as stated to the hundredth of a cent, so the shown inputs add up", () => {
    // 16.1249 ¢ reads $0.1612 and 18.5251 ¢ reads $0.1853: the amount is the one the shown rates give.
    const p = flagPrice({ rateCents: 18.5251, kwh: 13945 }, { rateCents: 16.1249 });
    expect(p.cents).toBe(33607);
    // A half cent rounds up: 0.0001 × 50 kWh = $0.005 → $0.01.
    expect(flagPrice({ rateCents: 10.01, kwh: 50 }, { rateCents: 10 }).cents).toBe(1);
    expect(flagPrice({ rateCents: 10.01, kwh: 1234567 }, { rateCents: 10 }).inputs).toBe(
      "$0.1000 → $0.1001 per kWh × 1,234,567 kWh = $123.46",
    );
  });

  it("says so instead of a number when there is no previous bill", () => {
    const p = flagPrice({ rateCents: 18.53, kwh: 13945 }, null);
    expect(p).toMatchObject({ kind: "no_previous", cents: null });
    expect(priceLine(p)).toBe(
      "At stake on this bill, from the rate per kWh alone: not priced, there is no previous bill of this account to compare the rate with.",
    );
  });

  it("says so when the rate did not rise (fell or stayed)", () => {
    const fell = flagPrice({ rateCents: 16.12, kwh: 13945 }, { rateCents: 18.53 });
    expect(fell).toMatchObject({ kind: "no_rise", cents: null });
    expect(priceLine(fell)).toBe(
      "At stake on this bill, from the rate per kWh alone: nothing, the rate did not rise ($0.1853 → $0.1612 per kWh).",
    );
    // The same rate as stated ($0.1612) is no rise, even with a difference below a hundredth of a cent.
    expect(flagPrice({ rateCents: 16.1203, kwh: 13945 }, { rateCents: 16.12 }).kind).toBe("no_rise");
  });

  it("says so when the bill states no rate or consumption", () => {
    expect(flagPrice({ rateCents: null, kwh: 100 }, { rateCents: 10 })).toMatchObject({
      kind: "no_figures",
      cents: null,
    });
    expect(priceLine(flagPrice({ rateCents: 12, kwh: undefined }, { rateCents: 10 }))).toBe(
      "At stake on this bill, from the rate per kWh alone: not priced, this bill does not state both a rate and a consumption.",
    );
  });
});
