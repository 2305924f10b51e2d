// `npm start`: builds when the build is missing, then runs the production server (with the embedded api
// and demo data unless API_URL is set).
import { execSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { API_WORKER, SERVER_BUILD, WEB_SERVER } from "../shared/build-output.mjs";

if (!fs.existsSync(SERVER_BUILD) || !fs.existsSync(WEB_SERVER) || !fs.existsSync(API_WORKER)) {
  console.log("No build found: building (about 10 seconds)…");
  execSync("npm run build", { stdio: "inherit" });
}
process.env.NODE_ENV ??= "production";
if (!process.env.SESSION_SECRET && !process.env.API_URL) {
  // Demo only: the embedded api and its demo data run on this machine, so keep a generated secret in data/.
  const dir = process.env.DATA_DIR || "data";
  const file = path.join(dir, "session-secret");
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
  process.env.SESSION_SECRET = fs.readFileSync(file, "utf8").trim();
  // The demo's emails (login codes and links) are read on the api's outbox page; a deployment never serves it.
  process.env.API_DEV_OUTBOX ??= "true";
  console.log(
    `SESSION_SECRET not set: using the demo secret in ${file}. Set SESSION_SECRET for a real deployment.`,
  );
}
await import(path.resolve(WEB_SERVER));
