import { Router } from "express";
import * as clock from "../lib/clock";
import { resetDemoData } from "../db/seed";
import { type ApiDeps, parse, asyncRoute, route, validationError } from "../lib/http";
import { z } from "zod";
import { NOTIFICATION_KINDS } from "../domain/notifications";
import { runNotificationJob } from "../mail/jobs";
import { clearFaults } from "../lib/planned-faults";
import { armAfterCommit, disarmAll } from "../lib/fault-points";

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
      clearFaults(deps);
      disarmAll(deps);
      const ms = Math.round(performance.now() - started);
      deps.log("test hook: demo data reset", { ms, history });
      res.json({ now: clock.nowIso(), ms, history });
    }),
  );

  /**
   * Moves the api's clock to an instant (`{ at: ISO }`), or back to its `CLOCK_START` one (`{ at: null }`);
   * the web's clock moves with its own hook (POST /test-hooks/clock). Data stays as it was: a reset
   * (POST /dev/reset) then seeds it at the moved clock.
   */
  r.post(
    "/dev/clock",
    route((req, res) => {
      const { at } = parse(z.object({ at: z.string().datetime({ offset: true }).nullable() }), req.body);
      clock.moveClock(at);
      deps.log("test hook: clock moved", { at });
      res.json({ now: clock.nowIso() });
    }),
  );

  /**
   * Runs one notification job now ("alerts": every alert kind in one run, as the scheduler does), as of the
   * api's clock, digests included outside their due day; answers how many emails it wrote. What was already sent is not sent again (the ledger's key).
   */
  r.post(
    "/dev/notifications/run",
    asyncRoute(async (req, res) => {
      const { kind } = parse(z.object({ kind: z.enum([...NOTIFICATION_KINDS, "alerts"]) }), req.body);
      const sent = await runNotificationJob(deps, kind, true);
      deps.log("test hook: notifications run", { kind, sent });
      res.json({ sent });
    }),
  );
  /**
   * How far delivery through the mail server (SMTP_URL) has got: rows still `queued` or `sending`, and rows
   * `failed` for good. Counts only, no address or content. The e2e suite waits for `pending: 0` before it
   * takes a mark or says that no mail came (tests/e2e/fixtures.ts): by then every mail written has reached
   * its mail server, or failed.
   */
  r.get(
    "/dev/mail/delivery",
    route((_req, res) => {
      const counts = deps.db
        .prepare(
          `SELECT COALESCE(SUM(status IN ('queued', 'sending')), 0) AS pending,
                  COALESCE(SUM(status = 'failed'), 0) AS failed
           FROM outbox`,
        )
        .get() as { pending: number; failed: number };
      res.json(counts);
    }),
  );
  /**
   * Arms a fault point (api/lib/fault-points.ts): the next write matching `method` and the `path` pattern (a
   * regular expression on the path after /api) commits, then the api dies (`exit`) or drops the connection
   * (`drop`) instead of answering. Fires once.
   */
  r.post(
    "/dev/faults/after-commit",
    route((req, res) => {
      const body = parse(
        z.object({
          method: z.enum(["POST", "PUT", "PATCH", "DELETE"]).optional(),
          path: z.string().min(1).max(200),
          mode: z.enum(["exit", "drop"]),
        }),
        req.body,
      );
      let path: RegExp;
      try {
        path = new RegExp(body.path);
      } catch {
        throw validationError({ body: [{ location: "path", message: "is not a regular expression" }] });
      }
      armAfterCommit(deps, { method: body.method, path, mode: body.mode });
      deps.log("test hook: fault armed", { method: body.method, path: body.path, mode: body.mode });
      res.json({ armed: true });
    }),
  );
  return r;
}
