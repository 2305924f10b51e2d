/**
 * The reference api as a process of its own for the CPU bench (`node --import tsx bench/api-process.ts`): the
 * demo's seed in a fresh database file (DATA_DIR), the demo's clock, quiet. Prints one JSON line
 * `{ "url": … }` once it listens; SIGTERM closes it. One process (no tsx wrapper), so its /proc CPU is the api's.
 */
import path from "node:path";
import { startApi } from "../api/server";

const api = await startApi({
  port: Number(process.env.API_PORT ?? 0),
  dbFile: path.join(process.env.DATA_DIR ?? "/tmp", "api.sqlite"),
  quiet: true,
});
process.stdout.write(`${JSON.stringify({ url: api.url })}\n`);
process.on("SIGTERM", () => void api.close().then(() => process.exit(0)));
