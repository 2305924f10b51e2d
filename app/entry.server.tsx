import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { getSessionUser } from "./server/session.server";
import { NonceContext, StaffErrorContext } from "./ui/nonce";
import { errorFields, getLogger } from "~/server/logger.server";
import { captureServerError } from "~/server/sentry.server";
import { DocumentSink, documentResponse } from "~/server/document-body.server";
import { ErrorEventContext } from "~/ui/error-boundary";

const ABORT_DELAY = 10_000;

export const streamTimeout = ABORT_DELAY;

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
        // Every page is sent once React has it all: no route defers data (no <Await>), so the only boundary left
        // after the shell is the hydration data, done within the same few ticks, and the page then goes out in one
        // write with its Content-Length (DocumentSink) instead of a chunked stream in three. A route that starts
        // streaming deferred data should come back to onShellReady for browsers.
        onAllReady() {
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          const init = { headers: responseHeaders, status: responseStatusCode };
          if (request.method === "HEAD") {
            // Remix answers HEAD without a body: nothing will read this render.
            clearTimeout(deadline);
            resolve(new Response(null, init));
            return;
          }
          resolve(
            documentResponse(
              loadContext,
              (destination) => {
                const sink = new DocumentSink(destination);
                sink.once("close", () => clearTimeout(deadline));
                destination.once("close", () => sink.destroy());
                pipe(sink);
              },
              init,
            ),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) {
            getLogger().error(errorFields(error), "render error after the shell");
            captureServerError(error, "render-stream", request);
          }
        },
      },
    );
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
  const eventId = captureServerError(error, "loader-action-render", request);
  if (ctx && eventId) ctx.errorEventId = eventId;
  getLogger().error(
    { ...errorFields(error), method: request.method, path: new URL(request.url).pathname },
    "server error",
  );
};
