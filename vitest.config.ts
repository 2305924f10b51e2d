import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(__dirname, "app") } },
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/integration/**/*.test.{ts,tsx}"],
    environment: "node",
    pool: "forks",
    testTimeout: 20000,
    // Integration files seed a whole demo database (several seconds on a busy 2-core machine).
    hookTimeout: 60_000,
  },
});
