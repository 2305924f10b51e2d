// Test-only preload (node --expose-gc --import this file): on SIGUSR2, a full garbage collection, then one line on
// stderr with the process's memory right after it, so the memory suite reads the server at its live size rather
// than at V8's lazily grown heap. `youngMb` is the young generation's committed size: V8 grows it (up to twice
// --max-semi-space-size) under a high allocation rate and gives it back only when allocation stays low, so it is
// reported apart from the rest of the resident set.
import v8 from "node:v8";

const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;
process.on("SIGUSR2", () => {
  globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0;
  process.stderr.write(
    `gc-on-signal ${JSON.stringify({ rssMb: mb(rss), heapUsedMb: mb(heapUsed), youngMb: mb(young) })}\n`,
  );
});
