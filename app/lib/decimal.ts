/**
 * Numbers written as `Intl.NumberFormat("en-US", { minimumFractionDigits, maximumFractionDigits })` writes
 * them (digit grouping with commas, half away from zero on the shortest decimal form of the double, "-0"
 * for a negative value that rounds to zero), without building an Intl formatter.
 *
 * Why not Intl: the first Intl formatter a page builds loads ICU's data. In Chromium that costs 28–60 ms of
 * main thread at the bench's 4× CPU slowdown (measured: bench/browser-profile.ts), inside the hydration task
 * of every page that formats a number while it hydrates (spending, usage). Writing the digits ourselves
 * costs microseconds. `tests/unit/decimal.test.ts` checks this function against Intl on random values of
 * every magnitude.
 */

const ZERO = 48; // "0"

/** The decimal digits of a finite, non-negative number's shortest round-trip form: [integer, fraction]. */
function digitsOf(abs: number): [string, string] {
  const s = String(abs);
  const e = s.indexOf("e");
  if (e < 0) {
    const dot = s.indexOf(".");
    return dot < 0 ? [s, ""] : [s.slice(0, dot), s.slice(dot + 1)];
  }
  // 1.5e-7, 1e+21: move the point.
  const mantissa = s.slice(0, e).replace(".", "");
  const dotAt = (s.indexOf(".") < 0 ? e : s.indexOf(".")) + Number(s.slice(e + 1));
  if (dotAt <= 0) return ["0", "0".repeat(-dotAt) + mantissa];
  if (dotAt >= mantissa.length) return [mantissa + "0".repeat(dotAt - mantissa.length), ""];
  return [mantissa.slice(0, dotAt), mantissa.slice(dotAt)];
}

/** A string of decimal digits plus one, in the last place ("0999" → "1000", "99" → "100"). */
function increment(digits: string): string {
  const out = digits.split("");
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== "9") {
      out[i] = String.fromCharCode(out[i].charCodeAt(0) + 1);
      return out.join("");
    }
    out[i] = "0";
  }
  return `1${out.join("")}`;
}

/** Thousands separators in a run of digits ("1234567" → "1,234,567"), three digits at a time from the end. */
function group(int: string) {
  let out = int.slice(0, int.length % 3 || 3);
  for (let i = out.length; i < int.length; i += 3) out += `,${int.slice(i, i + 3)}`;
  return out;
}

export function formatDecimal(value: number, minimumFractionDigits = 0, maximumFractionDigits = 3): string {
  const max = Math.max(minimumFractionDigits, maximumFractionDigits);
  // The product never shows these; written as Intl writes them if one ever is.
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "\u221e" : "-\u221e";
  const negative = value < 0 || Object.is(value, -0);
  let [int, frac] = digitsOf(Math.abs(value));
  if (frac.length > max) {
    const up = frac.charCodeAt(max) >= ZERO + 5;
    frac = frac.slice(0, max);
    if (up) {
      const all = increment(int + frac);
      int = all.slice(0, all.length - max);
      frac = all.slice(all.length - max);
    }
  }
  let end = frac.length;
  while (end > minimumFractionDigits && frac.charCodeAt(end - 1) === ZERO) end--;
  frac = frac.slice(0, end).padEnd(minimumFractionDigits, "0");
  return `${negative ? "-" : ""}${group(int)}${frac ? `.${frac}` : ""}`;
}
