import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The scanners of app/server/ops/sentry-scrub.server.ts timed in a process of their own (their rules and the
// equivalence with the old patterns: tests/unit/sentry-scrub.test.ts).
describe("scrubbing takes linear time", () => {
  // Strings that made the old patterns backtrack: each repeated to 10 KB and 100 KB.
  const HOSTILE = [
    { name: "token- runs (the path of the report)", unit: "token-" },
    { name: "a name with no =", unit: "password-" },
    { name: "pairs chained by =", unit: "a=" },
    { name: "a local part with no @", unit: "a." },
    { name: "@ with a domain that never ends", unit: "a@a-" },
    { name: "word boundaries in a base64 run", unit: "a-" },
    { name: "cookie prefixes with no =", unit: "__Host-" },
    { name: "bearer schemes", unit: "Bearer-" },
    { name: "dotted tokens that never end", unit: "abcdefghijklmnopqrstu." },
  ];

  it("time(100 KB) / time(10 KB) stays under 30 for every hostile input", () => {
    // Its own process: a backtracking pattern cannot be interrupted in this one, only killed with it.
    const out = execFileSync(
      process.execPath,
      ["--import", "tsx", path.resolve(__dirname, "../support/scrub-timing.ts")],
      { input: JSON.stringify(HOSTILE), timeout: 20_000, encoding: "utf8" },
    );
    const results = JSON.parse(out) as { name: string; smallMs: number; largeMs: number }[];
    expect(results).toHaveLength(HOSTILE.length);
    for (const { name, smallMs, largeMs } of results) {
      // Below a tenth of a millisecond the timer's resolution decides the ratio: count that as the floor.
      const ratio = largeMs / Math.max(smallMs, 0.1);
      expect(ratio, `${name}: ${smallMs.toFixed(2)} ms → ${largeMs.toFixed(2)} ms`).toBeLessThan(30);
    }
  }, 30_000);
});
