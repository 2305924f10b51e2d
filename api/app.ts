import express from "express";
import { type ApiDeps, errorMiddleware } from "./lib/http";
import { routers } from "./routes";

/** The reference /api service as an express app (no listening): used by api/server.ts and the tests. */
export function createApiApp(deps: ApiDeps) {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "extended");
  if (deps.config.latencyMs > 0) {
    app.use((_req, _res, next) => setTimeout(next, deps.config.latencyMs));
  }
  app.use(express.json({ limit: "1mb" }));
  app.use((_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    next();
  });
  const api = express.Router();
  for (const make of routers) api.use(make(deps));
  api.use((_req, res) => {
    res.status(404).json({ message: "Not Found" });
  });
  app.use("/api", api);
  app.use(errorMiddleware(deps));
  return app;
}
