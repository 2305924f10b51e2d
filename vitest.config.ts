import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * The unit and integration tests. Files share one module graph per worker (`isolate: false`): the app and the
 * api are imported once per worker instead of once per file, which halves the unit step and takes a quarter off
 * integration (docs/testing.md). A file gets a module graph of its own when its source shows it needs one:
 * - it replaces modules, globals or the environment (`vi.mock`, `vi.doMock`, `vi.stubEnv`, `vi.resetModules`,
 *   `vi.stubGlobal`, an assignment to or `delete` of `process.env`), which would leak into the files after it;
 * - an integration file that loads the web tier in process (imports from `app/`, statically or not): the web
 *   tier reads its configuration from the environment once, when first imported, and each such file sets its own.
 */
const OWN_GRAPH = [
  /\bvi\.(mock|doMock|stubEnv|resetModules|stubGlobal)\(/,
  /\bprocess\.env(\.\w+|\[[^\]]+\])\s*=[^=]/,
  /\bdelete process\.env\b/,
];
const WEB_TIER = /(\bfrom |\bimport\()"(~\/|(\.\.\/)+app\/)/;

function split(dir: string, webTierOwnsGraph: boolean) {
  const files = fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.test\.tsx?$/.test(f))
    .map((f) => path.posix.join(dir, f.split(path.sep).join("/")));
  const needsOwn = (f: string) => {
    const source = fs.readFileSync(f, "utf8");
    return OWN_GRAPH.some((re) => re.test(source)) || (webTierOwnsGraph && WEB_TIER.test(source));
  };
  return { own: files.filter(needsOwn), shared: files.filter((f) => !needsOwn(f)) };
}
const unit = split("tests/unit", false);
const integration = split("tests/integration", true);

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
    environment: "node",
    // A fresh seed cache per run: a seeded database is made once per set of seed inputs and copied after.
    globalSetup: ["tests/support/seed-cache-setup.ts"],
    pool: "forks",
    testTimeout: 20000,
    // Integration files seed a whole demo database (several seconds on a busy 2-core machine).
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "unit", include: unit.shared, isolate: false } },
      { extends: true, test: { name: "unit (own modules)", include: unit.own } },
      { extends: true, test: { name: "integration", include: integration.shared, isolate: false } },
      { extends: true, test: { name: "integration (own modules)", include: integration.own } },
    ],
  },
});
