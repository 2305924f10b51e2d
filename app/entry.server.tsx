import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { RemixServer, isRouteErrorResponse } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { getSessionUser } from "./server/upstream/session.server";
import { NonceContext, StaffErrorContext } from "./ui/nonce";
import { errorFields, getLogger } from "~/server/ops/logger.server";
import { captureServerError } from "~/server/ops/sentry.server";
import { ErrorEventContext } from "~/ui/error-boundary";

const ABORT_DELAY = 10_000;

export const streamTimeout = ABORT_DELAY;

/**
 * Remix's own renderer (its default entry.server for Node): React's `renderToPipeableStream`, with `<RemixServer>`
 * writing its hydration scripts, each carrying the page's CSP nonce. No route defers data, so the page is sent
 * once all of it is ready, as one body.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  let staffStack: string | null = null;
  if (loadContext.serverError instanceof Error) {
    const user = await getSessionUser(request).catch(() => null);
    if (user?.isStaff) staffStack = loadContext.serverError.stack ?? String(loadContext.serverError);
  }
  const eventId = loadContext.errorEventId ?? null;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <StaffErrorContext.Provider value={staffStack}>
          <ErrorEventContext.Provider value={eventId}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
          </ErrorEventContext.Provider>
        </StaffErrorContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        // Remix's template waits for everything for bots; no route defers data, so every page can: the hydration
        // data then arrives inline, not as Suspense fallbacks swapped in by React's scripts, and a page without
        // <Scripts> (the email deep links) stays free of JavaScript.
        onAllReady() {
          // Everything is ready, so the page is written at once: collect it into one body (with its
          // Content-Length) instead of bridging a Node stream into a web stream for the adapter to read back.
          const body = new PassThrough();
          const chunks: Buffer[] = [];
          body.on("data", (chunk: Buffer) => chunks.push(chunk));
          body.once("end", () => {
            clearTimeout(deadline);
            const html = Buffer.concat(chunks);
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            responseHeaders.set("Content-Length", String(html.byteLength));
            resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
          });
          body.once("error", reject);
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors in the shell reach handleError through Remix; one after it only here.
          if (shellRendered) {
            getLogger().error(errorFields(error), "render error after the shell");
            captureServerError(error, "loader-action-render", request);
          }
        },
      },
    );
    // A render still pending after Remix's own abort delay (deferred data never settling) is cut.
    const deadline = setTimeout(abort, ABORT_DELAY + 1000);
  });
}

/**
 * Logs real server errors once (not 404s or aborted requests), keeps the error for staff's view and reports it
 * (sentry.server.ts decides what is reported); the event id goes to the error fallback.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const ctx = context && typeof context === "object" ? (context as AppLoadContext) : undefined;
  if (ctx) ctx.serverError = error;
  if (error instanceof Response && error.status === 404) return;
  // A route error response below 500 is Remix's answer to the request itself (a 405 for a post to a route
  // without an action): not a server error to log or report.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  const eventId = captureServerError(error, "loader-action-render", request);
  if (ctx && eventId) ctx.errorEventId = eventId;
  getLogger().error(
    { ...errorFields(error), method: request.method, path: new URL(request.url).pathname },
    "server error",
  );
};
