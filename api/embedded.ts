import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { StartApiOptions } from "./server";

export type EmbeddedApi = { url: string; close: () => Promise<void> };

/**
 * Starts the embedded api. From the production build (dist/server.js next to dist/api-worker.js) it runs in a
 * worker thread with its own event loop; under `tsx` in development it runs in this thread.
 */
export async function startEmbeddedApi(options: Omit<StartApiOptions, "log">, logLevel: string, log: StartApiOptions["log"]): Promise<EmbeddedApi> {
  const workerFile = new URL("./api-worker.js", import.meta.url);
  if (!import.meta.url.endsWith("/dist/server.js") || !fs.existsSync(fileURLToPath(workerFile))) {
    const { startApi } = await import("./server");
    const api = await startApi({ ...options, log });
    return { url: api.url, close: api.close };
  }
  const worker = new Worker(workerFile, { workerData: { options, logLevel } });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the embedded api stopped (exit code ${code})`)));
    worker.once("message", (m: { type: string; url?: string; message?: string }) => {
      if (m.type === "ready" && m.url) resolve(m.url);
      else reject(new Error(`the embedded api could not start: ${m.message ?? m.type}`));
    });
  });
  worker.removeAllListeners("exit");
  worker.removeAllListeners("error");
  worker.on("error", (error) => log?.("embedded api error", { err: error.message }));
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        const done = () => resolve();
        worker.once("exit", done);
        worker.once("message", (m: { type: string }) => m.type === "closed" && void worker.terminate().then(done, done));
        worker.postMessage("close");
      }),
  };
}
