import { build } from "esbuild";
import { SERVER_BUNDLE_DIR } from "../shared/build-output.mjs";

await build({
  // The web server, and the embedded api's worker thread (api/embedded.ts).
  entryPoints: { server: "server.ts", "api-worker": "api/worker.ts" },
  outdir: SERVER_BUNDLE_DIR,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
