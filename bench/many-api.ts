/**
 * The reference api as a process of its own for `bench/many.ts` (so that the web process's CPU is the web
 * tier's alone): a fresh in-memory seeded database on a random port, API_EXTRA_LOCATIONS from the environment
 * (api/config.ts). Prints one JSON line `{ "url": … }` once it listens; SIGTERM closes it.
 */
import { startApi } from "../api/server";

const api = await startApi({ port: 0, dbFile: ":memory:", quiet: true });
process.stdout.write(`${JSON.stringify({ url: api.url })}\n`);
process.on("SIGTERM", () => void api.close().then(() => process.exit(0)));
