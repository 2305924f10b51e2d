/**
 * The embedded reference api in its own thread: the web server and the api each get an event loop (and a
 * core), as they would in a real deployment, instead of taking turns on one. server.ts starts it through
 * `startEmbeddedApi` (api/embedded.ts) when API_URL is unset.
 */
import { parentPort, workerData } from "node:worker_threads";
import pino from "pino";
import { startApi, type StartApiOptions } from "./server";

type Data = { options: Omit<StartApiOptions, "log">; logLevel: string };
const { options, logLevel } = workerData as Data;
const logger = pino({ level: logLevel, base: undefined }, pino.destination({ sync: false }));
const port = parentPort!;

try {
  const api = await startApi({
    ...options,
    log: (msg, data) => logger.info({ service: "api", ...data }, msg),
  });
  port.on("message", async (message) => {
    if (message !== "close") return;
    await api.close();
    logger.flush();
    port.postMessage({ type: "closed" });
    port.close();
  });
  port.postMessage({ type: "ready", url: api.url });
} catch (error) {
  port.postMessage({ type: "error", message: error instanceof Error ? error.message : String(error) });
  port.close();
}
