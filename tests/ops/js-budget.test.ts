import { describe, expect, it } from "vitest";
import { weightFromManifest } from "../../bench/weight";

/**
 * The JavaScript budget of the pages people open from an email or a locked-down office network: ≤ 100 KiB
 * gzip on a cold visit (the manifest's entry, root and route chunks; `npm run bench -- weight` confirms it in
 * Chromium). Read from the build this suite runs against (`npm run build` first). A shared module that pulls
 * zod or the date libraries into these pages fails here.
 */
const ENTRY_PAGES: Record<string, string[]> = {
  login: ["root", "routes/login"],
  "token login": ["root", "routes/login_.link"],
  "reset password": ["root", "routes/reset-password"],
  "dismissal link": ["root", "routes/dismiss-thermostat-issue"],
  "fix-my-bill": ["root", "routes/fix-my-bill.$status"],
};
const BUDGET_KIB = 100;

describe("JavaScript budget of the entry and email-link pages", () => {
  const forRoutes = weightFromManifest();
  for (const [page, routes] of Object.entries(ENTRY_PAGES)) {
    it(`${page}: ≤ ${BUDGET_KIB} KiB gzip`, () => {
      const kib = forRoutes(routes) / 1024;
      expect(kib).toBeGreaterThan(50); // the routes exist and React is counted
      expect(kib).toBeLessThanOrEqual(BUDGET_KIB);
    });
  }
});
