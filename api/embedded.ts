import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { StartApiOptions } from "./server";
import { WEB_SERVER } from "../shared/build-output.mjs";

export type EmbeddedApi = { url: string; close: () => Promise<void> };
type Log = NonNullable<StartApiOptions["log"]>;
type Message = { type: string; url?: string; message?: string };

/**
 * Starts the embedded api. From the production build (dist/server.js next to dist/api-worker.js) it runs in a
 * worker thread with its own event loop; under `tsx` in development it runs in this thread. A worker that
 * stops unexpectedly is started again (pages show their upstream error state meanwhile).
 */
export async function startEmbeddedApi(
  options: Omit<StartApiOptions, "log">,
  logLevel: string,
  log: Log,
): Promise<EmbeddedApi> {
  const workerFile = new URL("./api-worker.js", import.meta.url);
  if (!import.meta.url.endsWith(`/${WEB_SERVER}`) || !fs.existsSync(fileURLToPath(workerFile))) {
    const { startApi } = await import("./server");
    const api = await startApi({ ...options, log });
    return { url: api.url, close: api.close };
  }

  let closing = false;
  let worker: Worker;
  const start = () =>
    new Promise<string>((resolve, reject) => {
      worker = new Worker(workerFile, { workerData: { options, logLevel } });
      let ready = false;
      worker.on("message", (m: Message) => {
        if (ready) return;
        if (m.type === "ready" && m.url) {
          ready = true;
          resolve(m.url);
        } else reject(new Error(`the embedded api could not start: ${m.message ?? m.type}`));
      });
      worker.on("error", (error) => {
        if (!ready) reject(error);
        else log("embedded api error", { err: error.message });
      });
      worker.on("exit", (code) => {
        if (!ready) return reject(new Error(`the embedded api stopped (exit code ${code})`));
        if (closing) return;
        log("embedded api stopped unexpectedly: restarting", { code });
        setTimeout(
          () =>
            void start().catch((error: Error) => log("embedded api restart failed", { err: error.message })),
          1000,
        ).unref();
      });
    });

  const url = await start();
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        const done = () => resolve();
        worker.once("exit", done);
        worker.once(
          "message",
          (m: Message) => m.type === "closed" && void worker.terminate().then(done, done),
        );
        worker.postMessage("close");
      }),
  };
}
