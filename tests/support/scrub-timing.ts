import { scrubString } from "../../app/server/ops/sentry-scrub.server";

/**
 * Run as its own process by tests/integration/sentry-scrub-timing.test.ts (a backtracking pattern blocks the
 * thread it runs on, so only a process can be stopped when it takes too long). For each hostile input given on
 * stdin, prints the best of several timings of scrubbing 10 KB and 100 KB of it, untruncated.
 */
const inputs = JSON.parse(
  await new Promise<string>((resolve) => {
    let text = "";
    process.stdin.on("data", (d) => (text += String(d)));
    process.stdin.on("end", () => resolve(text));
  }),
) as { name: string; unit: string }[];

const sized = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);

function best(text: string) {
  let min = Infinity;
  for (let run = 0; run < 15; run++) {
    const started = performance.now();
    scrubString(text, Infinity);
    min = Math.min(min, performance.now() - started);
  }
  return min;
}

const results = inputs.map(({ name, unit }) => {
  const small = sized(unit, 10_000);
  const large = sized(unit, 100_000);
  best(small); // warm-up: the first runs compile the scanner
  return { name, smallMs: best(small), largeMs: best(large) };
});
process.stdout.write(JSON.stringify(results));
