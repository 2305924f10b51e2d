import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDollarAmount } from "../../shared/money-amount";

/** Rule money-amount-input: a comma is only ever a thousands separator. */
describe("parseDollarAmount", () => {
  it("reads dollars and cents, with or without thousands separators", () => {
    expect(parseDollarAmount("1,205.00")).toBe(120500);
    expect(parseDollarAmount("$1,204.50")).toBe(120450);
    expect(parseDollarAmount(" 182.5 ")).toBe(18250);
    expect(parseDollarAmount("12.05")).toBe(1205);
    expect(parseDollarAmount("$ 120")).toBe(12000);
    expect(parseDollarAmount("999,999,999.99")).toBe(99999999999);
    expect(parseDollarAmount("")).toBeNull();
    expect(parseDollarAmount("  ")).toBeNull();
    expect(parseDollarAmount(undefined)).toBeNull();
  });

  it("refuses a comma anywhere but between groups of three digits: 12,05 is not $1,205.00", () => {
    for (const bad of [
      "12,05",
      "12,0.5",
      "1,2345",
      ",120",
      "120,",
      "1,20,000",
      "1,,205",
      "1.205,00",
      "12,05.00",
    ])
      expect(parseDollarAmount(bad), bad).toBe("invalid");
    for (const bad of ["12.345", "abc", "1e3", "-4", "+4", "1205.", ".5", "1 205", "1234567890"])
      expect(parseDollarAmount(bad), bad).toBe("invalid");
  });

  it("property: any amount written with or without thousands separators reads back as its cents", () => {
    const group = (whole: number) => whole.toLocaleString("en-US");
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 999_999_999 }),
        fc.integer({ min: 0, max: 99 }),
        (whole, cents) => {
          const decimals = `.${String(cents).padStart(2, "0")}`;
          const expected = whole * 100 + cents;
          expect(parseDollarAmount(`${whole}${decimals}`)).toBe(expected);
          expect(parseDollarAmount(`${group(whole)}${decimals}`)).toBe(expected);
          expect(parseDollarAmount(`$${group(whole)}`)).toBe(whole * 100);
        },
      ),
    );
  });

  it("property: a comma followed by fewer or more than three digits is always refused", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999 }),
        fc.stringMatching(/^\d{1,6}$/).filter((d) => d.length !== 3),
        fc.constantFrom("", ".5", ".05"),
        (head, tail, decimals) => {
          expect(parseDollarAmount(`${head},${tail}${decimals}`)).toBe("invalid");
        },
      ),
    );
  });
});
