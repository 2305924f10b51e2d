// Prints one "suite: N passed, N failed" line per test runner from their JSON reports (read by CI).
import fs from "node:fs";

const read = (f) => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, "utf8")) : null);
const which = process.argv[2];
if (which === "unit" || which === "integration") {
  // Both vitest runs write their own report (test-results/<which>.json) and get their own line.
  const r = read(`test-results/${which}.json`);
  if (r) console.log(`${which}: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
} else {
  const r = read("test-results/e2e.json");
  if (r) {
    const s = r.stats ?? {};
    console.log(
      `e2e: ${(s.expected ?? 0) + (s.flaky ?? 0)} passed, ${s.unexpected ?? 0} failed, ${s.skipped ?? 0} skipped`,
    );
  }
}
