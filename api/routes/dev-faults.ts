import { Router } from "express";
import { z } from "zod";
import { type ApiDeps, parse, route } from "../lib/http";
import { clearFaults, plannedFaults } from "../lib/planned-faults";

const faultBody = z.object({
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
  pathPrefix: z.string().startsWith("/").max(300),
  status: z.number().int().min(400).max(599),
  message: z.string().max(300).default("Injected failure"),
  times: z.number().int().min(1).max(100).default(1),
});

/**
 * Test hook (mounted first, only with ENABLE_TEST_HOOKS and demo data, like dev.ts): `POST /dev/faults` plans an
 * upstream failure the web must show, e.g. a thermostat vendor refusing a change or one report call failing, so an
 * end-to-end test sees the page's error state through the real browser; `DELETE /dev/faults` forgets them. A planned
 * request answers `{status}` with `{message}` instead of running.
 */
export function devFaultRoutes(deps: ApiDeps) {
  const r = Router();
  if (!deps.config.testHooks || !deps.config.demoData) return r;
  clearFaults(deps);

  r.post(
    "/dev/faults",
    route((req, res) => {
      const fault = parse(faultBody, req.body);
      plannedFaults(deps).push(fault);
      res.status(204).end();
    }),
  );
  r.delete(
    "/dev/faults",
    route((_req, res) => {
      clearFaults(deps);
      res.status(204).end();
    }),
  );
  r.use((req, res, next) => {
    const faults = plannedFaults(deps);
    const fault = faults.find((f) => f.method === req.method && req.path.startsWith(f.pathPrefix));
    if (!fault) return next();
    fault.times -= 1;
    if (fault.times <= 0) faults.splice(faults.indexOf(fault), 1);
    deps.log("test hook: planned failure", { method: req.method, path: req.path, status: fault.status });
    res.status(fault.status).json({ message: fault.message });
  });
  return r;
}
