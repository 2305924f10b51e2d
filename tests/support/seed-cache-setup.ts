import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Vitest's global set-up (vitest.config.ts, vitest.suites.config.ts): a fresh seed cache for this run
 * (SEED_CACHE_DIR, api/db/seed/snapshot.ts), inherited by the test processes and the servers they start, and
 * removed at the end. Under `npm test`, scripts/test-all.mjs has made one for the whole run already: it is used
 * and left to test-all to remove.
 */
export default function setup() {
  if (process.env.SEED_CACHE_DIR) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "energyops-seed-cache-"));
  process.env.SEED_CACHE_DIR = dir;
  return () => {
    fs.rmSync(dir, { recursive: true, force: true });
    delete process.env.SEED_CACHE_DIR;
  };
}
