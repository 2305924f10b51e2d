import pino from "pino";
import { getConfig } from "~/server/config.server";

let instance: pino.Logger | undefined;

/**
 * The one structured logger (pino, JSON lines on stdout) of the web tier: the request log and lifecycle in
 * server.ts, render and loader errors in entry.server.tsx, the Redis clients. Its level is `LOG_LEVEL`
 * (silent under NODE_ENV=test). server.ts and the Remix build are two bundles, so each holds one instance
 * of this module, configured alike and writing to the same stream.
 */
export function getLogger(): pino.Logger {
  if (!instance) {
    const config = getConfig();
    instance = pino(
      { level: config.LOG_LEVEL ?? (config.NODE_ENV === "test" ? "silent" : "info"), base: undefined },
      pino.destination({ sync: false }),
    );
  }
  return instance;
}

/** An error as log fields: the message and, for unexpected errors, the stack. */
export const errorFields = (error: unknown) =>
  error instanceof Error ? { err: error.message, stack: error.stack } : { err: String(error) };
