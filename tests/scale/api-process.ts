/**
 * The reference api as a process of its own (as a real upstream would be), for the scale and fault suites: a
 * seeded database on API_PORT (fresh in memory, or API_DB_FILE, which survives a restart as a real api's data
 * would), the test clock. Prints one JSON line `{ "url": … }` once it listens; SIGTERM closes it.
 */
import { startApi } from "../../api/server";
import { TEST_CLOCK_START } from "../support/clock";

const api = await startApi({
  port: Number(process.env.API_PORT ?? 0),
  dbFile: process.env.API_DB_FILE || ":memory:",
  quiet: true,
  // Commands stay pending (each new one cancels the last): a change always differs from the device's state.
  thermostatActionDelayMs: 3_600_000,
  clockStart: TEST_CLOCK_START,
});
process.stdout.write(`${JSON.stringify({ url: api.url })}\n`);
process.on("SIGTERM", () => void api.close().then(() => process.exit(0)));
