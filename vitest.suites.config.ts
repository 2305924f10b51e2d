import path from "node:path";
import { defineConfig } from "vitest/config";

/** The reliability, security, ops, scale, fault and fuzz suites: each starts the built production server (run `npm run build` first). */
export default defineConfig({
  resolve: { alias: { "~": path.resolve(__dirname, "app") } },
  test: {
    include: [
      "tests/reliability/**/*.test.ts",
      "tests/security/**/*.test.ts",
      "tests/ops/**/*.test.ts",
      "tests/scale/**/*.test.ts",
      "tests/faults/**/*.test.ts",
      "tests/fuzz/**/*.test.ts",
    ],
    environment: "node",
    // A fresh seed cache per run: a seeded database is made once per set of seed inputs and copied after.
    globalSetup: ["tests/support/seed-cache-setup.ts"],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
