import type { ApiDeps } from "../lib/http";
import { isAlertKind, NOTIFICATION_KINDS } from "../domain/notifications";
import { runNotificationJob } from "./jobs";

/**
 * Runs every notification job every `intervalMs` (NOTIFICATION_INTERVAL_MS; 0: off), as of the api's clock:
 * alerts for what appeared, digests on their due day. One run at a time; a failing job is logged and the next
 * tick tries again (nothing is marked sent unless its email was written). Answers a function that stops it.
 */
export function startNotificationScheduler(deps: ApiDeps, intervalMs: number): () => void {
  if (intervalMs <= 0) return () => {};
  let running = false;
  let stopped = false;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      // The alert kinds run together: one email per person of what this run found (rule alert-grouping).
      for (const kind of ["alerts", ...NOTIFICATION_KINDS.filter((k) => !isAlertKind(k))] as const) {
        if (stopped) break;
        try {
          const sent = await runNotificationJob(deps, kind);
          if (sent) deps.log("notifications sent", { kind, sent });
        } catch (error) {
          deps.log("notification job failed", {
            kind,
            err: error instanceof Error ? error.message : String(error),
          });
        }
      }
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
