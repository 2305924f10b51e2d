import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codeNumber } from "~/features/locations/locations";
import { formatDecimal } from "~/lib/decimal";
import { toCamel } from "~/server/upstream/casing";

/**
 * Patterns that eslint-plugin-regexp found super-linear (each retried from every index of a long run) were
 * rewritten as scans; these check that each rewrite answers what the pattern answered.
 */

const OLD = {
  codeNumber: (code: string) => {
    const m = /(\d+)(?!.*\d)/.exec(code);
    return m ? Number(m[1]) : Number.POSITIVE_INFINITY;
  },
  group: (int: string) => int.replace(/\B(?=(\d{3})+$)/g, ","),
  toCamel: (key: string) => key.replace(/[_-]+([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
};

const from = (pieces: string[]) =>
  fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((p) => p.join(""));

describe("rewritten patterns", () => {
  it("codeNumber: the last run of digits", () => {
    fc.assert(
      // No line breaks: the old `.` stopped at one, so it found the last digits of the first line that has any.
      fc.property(from(["HCC", "-", "0", "07", "9", "x", " ", "é", "12"]), (code) => {
        expect(codeNumber(code)).toBe(OLD.codeNumber(code));
      }),
      { numRuns: 5000 },
    );
    expect(codeNumber(null)).toBe(Number.POSITIVE_INFINITY);
  });

  it("formatDecimal groups thousands as before", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), (n) => {
        const int = n.toString();
        expect(formatDecimal(Number(int)).split(".")[0]).toBe(
          OLD.group(formatDecimal(Number(int)).replace(/,/g, "")),
        );
      }),
      { numRuns: 2000 },
    );
    expect(formatDecimal(1234567.5, 1)).toBe("1,234,567.5");
    expect(formatDecimal(-999)).toBe("-999");
  });

  it("toCamel: separators before a lowercase letter or digit", () => {
    fc.assert(
      fc.property(from(["a", "B", "1", "_", "-", "__", "x_", "_Y", "--z"]), (key) => {
        expect(toCamel(key)).toBe(OLD.toCamel(key));
      }),
      { numRuns: 5000 },
    );
  });

  it("long hostile inputs are answered at once", () => {
    const started = performance.now();
    codeNumber(`${"1a".repeat(50_000)}`);
    toCamel(`${"_".repeat(100_000)}A`);
    formatDecimal(1e300);
    // The old patterns took seconds on these (quadratic); a scan takes well under a millisecond each.
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
