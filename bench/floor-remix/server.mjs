/**
 * Serves the bare Remix floor: express and Remix's request handler, nothing else. FLOOR_HTML names the privacy
 * page's HTML; prints `{"port": n}` once listening. Run with NODE_ENV=production.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import express from "express";

const dir = path.dirname(fileURLToPath(import.meta.url));
const build = await import(path.join(dir, "build", "index.js"));
const app = express();
app.disable("x-powered-by");
app.all("*", createRequestHandler({ build, mode: "production" }));
const server = app.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
