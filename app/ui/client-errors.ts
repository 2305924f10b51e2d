/**
 * Browser errors with JavaScript on: a few hundred bytes instead of the browser SDK, so the entry
 * pages keep their JavaScript budget. Uncaught errors and unhandled rejections are posted to the BFF
 * (`/client-errors`), which forwards them through the server SDK with the same scrubbing as server errors.
 * The page's query string never leaves (it may hold a token); at most MAX_REPORTS per page load.
 */

export const CLIENT_ERRORS_PATH = "/client-errors";
const MAX_REPORTS = 5;

export type ClientErrorReport = {
  kind: "error" | "unhandledrejection" | "render";
  name?: string;
  message: string;
  stack?: string;
  page: string;
};

type Target = Pick<Window, "addEventListener"> & { location: Pick<Location, "pathname"> };
type Send = (body: string) => void;

const defaultSend: Send = (body) => {
  void fetch(CLIENT_ERRORS_PATH, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
    keepalive: true,
    credentials: "same-origin",
  }).catch(() => undefined);
};

let report: ((kind: ClientErrorReport["kind"], error: unknown) => void) | null = null;

function describe(error: unknown): { name?: string; message: string; stack?: string } {
  if (error instanceof Error)
    return { name: error.name, message: error.message || error.name, stack: error.stack?.slice(0, 6000) };
  return { message: typeof error === "string" ? error : "Non-Error thrown" };
}

/** Installs the listeners once; returns the reporter (also used by the error fallback for render errors). */
export function installClientErrorReporting(target: Target = window, send: Send = defaultSend) {
  let sent = 0;
  const seen = new Set<string>();
  report = (kind, error) => {
    const d = describe(error);
    const key = `${kind}:${d.message}`;
    if (sent >= MAX_REPORTS || seen.has(key)) return;
    seen.add(key);
    sent += 1;
    const body: ClientErrorReport = {
      kind,
      name: d.name?.slice(0, 100),
      message: d.message.slice(0, 1000),
      stack: d.stack,
      page: target.location.pathname.slice(0, 2000),
    };
    send(JSON.stringify(body));
  };
  target.addEventListener("error", (event: Event) => {
    const e = event as ErrorEvent;
    // A failed <img>/<script> load fires "error" without an ErrorEvent message: not a script error.
    if (!e.message && !e.error) return;
    report?.("error", e.error ?? e.message);
  });
  target.addEventListener("unhandledrejection", (event: Event) =>
    report?.("unhandledrejection", (event as PromiseRejectionEvent).reason),
  );
  return report;
}

/** Reports an error a React error boundary caught in the browser (not one the server already reported). */
export function reportClientError(error: unknown) {
  report?.("render", error);
}
