import { describe, expect, it } from "vitest";
import { formatDecimal } from "~/lib/decimal";

const intl = (min: number, max: number) =>
  new Intl.NumberFormat("en-US", { minimumFractionDigits: min, maximumFractionDigits: max });

/** A seeded generator, so a failure names a value that reproduces. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SETTINGS: [number, number][] = [
  [0, 0],
  [0, 1],
  [0, 2],
  [2, 2],
  [0, 3],
  [1, 4],
  [4, 4],
];

describe("formatDecimal writes what Intl.NumberFormat('en-US') writes", () => {
  it("on the cases where binary and decimal rounding differ, and at the edges", () => {
    const cases = [
      0,
      -0,
      1,
      -1,
      0.5,
      1.005,
      2.675,
      1.115,
      0.125,
      -0.125,
      -0.001,
      0.004999,
      0.005,
      9.995,
      999.995,
      99999.995,
      123456.785,
      1234567.891,
      1e21,
      1.5e21,
      1e-7,
      1.5e-7,
      -1.5e-7,
      5e-3,
      5e-324,
      Number.MAX_SAFE_INTEGER,
      Number.MAX_VALUE,
      1000,
      999,
      100000,
      -1234.5,
    ];
    for (const [min, max] of SETTINGS)
      for (const v of cases)
        expect(formatDecimal(v, min, max), `${v} (${min}, ${max})`).toBe(intl(min, max).format(v));
  });

  it("on 20,000 random values of every magnitude and sign", () => {
    const random = rng(17);
    for (let i = 0; i < 20_000; i++) {
      const magnitude = 10 ** Math.floor(random() * 16 - 8);
      // Half of them on a grid of thousandths, where halves (x.xx5) are common, as in sums of money.
      const raw = random() * magnitude * (random() < 0.3 ? -1 : 1);
      const v = i % 2 ? Math.round(raw * 1000) / 1000 : raw;
      const [min, max] = SETTINGS[i % SETTINGS.length];
      expect(formatDecimal(v, min, max), `${v} (${min}, ${max})`).toBe(intl(min, max).format(v));
    }
  });

  it("writes NaN and infinities as Intl does", () => {
    for (const v of [NaN, Infinity, -Infinity]) expect(formatDecimal(v, 0, 2)).toBe(intl(0, 2).format(v));
  });

  it("takes 3 fraction digits by default, as Intl does", () => {
    expect(formatDecimal(3.14159)).toBe(new Intl.NumberFormat("en-US").format(3.14159));
  });
});
