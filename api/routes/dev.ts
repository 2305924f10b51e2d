import { Router } from "express";
import * as clock from "../lib/clock";
import { resetDemoData } from "../db/seed";
import { type ApiDeps, route } from "../lib/http";

/**
 * Test hooks, mounted only when the api runs with ENABLE_TEST_HOOKS and its demo data (the e2e servers,
 * playwright.config.ts); otherwise none of these paths exists and each answers the api's 404. Never enabled in
 * a deployment (the Dockerfile does not set ENABLE_TEST_HOOKS, and it defaults to off).
 */
export function devRoutes(deps: ApiDeps) {
  const r = Router();
  if (!deps.config.testHooks || !deps.config.demoData) return r;

  /** Puts the demo data back as seeded at the api clock's now (sessions and the outbox are kept). */
  r.post(
    "/dev/reset",
    route((_req, res) => {
      const started = performance.now();
      const { history } = resetDemoData(deps.db, {
        now: clock.now(),
        staffEmailDomain: deps.config.staffEmailDomain,
        extraLocations: deps.config.extraLocations,
      });
      const ms = Math.round(performance.now() - started);
      deps.log("test hook: demo data reset", { ms, history });
      res.json({ now: clock.nowIso(), ms, history });
    }),
  );
  return r;
}
