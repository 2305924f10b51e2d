import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  plugins: [
    {
      // As in Remix's server build: a `.client` module is empty on the server (its exports undefined). The
      // provider's Connect package (arcadia-connect.client.tsx) cannot even load outside a browser.
      name: "empty-client-modules",
      enforce: "pre",
      load: (id) => (/\.client\.[jt]sx?$/.test(id) ? "export {};" : null),
    },
  ],
  resolve: { alias: { "~": path.resolve(__dirname, "app") } },
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/integration/**/*.test.{ts,tsx}"],
    environment: "node",
    // A fresh seed cache per run: a seeded database is made once per set of seed inputs and copied after.
    globalSetup: ["tests/support/seed-cache-setup.ts"],
    pool: "forks",
    testTimeout: 20000,
    // Integration files seed a whole demo database (several seconds on a busy 2-core machine).
    hookTimeout: 60_000,
  },
});
