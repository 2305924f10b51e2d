import express from "express";
import { type ApiDeps, errorMiddleware } from "./lib/http";
import { rawBodyRouters, routers } from "./routes";
import { afterCommitFaults } from "./lib/fault-points";
import { idempotencyKeys } from "./lib/idempotency";
import { accessGuard } from "./lib/access";
import { arcadiaSimulator } from "./simulators/arcadia";

/** The reference /api service as an express app (no listening): used by api/server.ts and the tests. */
export function createApiApp(deps: ApiDeps) {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "extended");
  // One log line per request, with the caller's X-Request-Id (the web tier's request id): the two logs join on it.
  // The path is the matched route's pattern (`/users/:email/login-options`): no ids, emails or query in the log.
  app.use((req, res, next) => {
    const started = performance.now();
    res.on("finish", () =>
      deps.log("request", {
        request_id: req.get("x-request-id")?.slice(0, 64),
        method: req.method,
        route: (req.route as { path?: string } | undefined)?.path ?? null,
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
      }),
    );
    next();
  });
  if (deps.config.latencyMs > 0) {
    app.use((_req, _res, next) => setTimeout(next, deps.config.latencyMs));
  }
  // The provider's webhooks: signed over the exact bytes, so read raw, before the JSON parser (routes/arcadia.ts).
  for (const mount of rawBodyRouters) app.use(mount(deps));
  // No provider configured (the demo, the tests): the simulator of its protocol, on this port.
  if (!deps.config.arcadia.apiUrl) app.use("/arcadia-sim", arcadiaSimulator(deps));
  app.use(express.json({ limit: "1mb" }));
  app.use((_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    next();
  });
  const api = express.Router();
  // Test hooks only: a write that commits and then gets no answer (api/lib/fault-points.ts).
  if (deps.config.testHooks && deps.config.demoData) api.use(afterCommitFaults(deps));
  // Every id a route takes is resolved by its kind's access rule before the route runs (rule object-access).
  api.use(accessGuard(deps));
  api.use(idempotencyKeys(deps));
  for (const make of routers) api.use(make(deps));
  api.use((_req, res) => {
    res.status(404).json({ message: "Not Found" });
  });
  app.use("/api", api);
  app.use(errorMiddleware(deps));
  return app;
}
