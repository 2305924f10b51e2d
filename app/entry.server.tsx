import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { getSessionUser } from "./server/session.server";
import { NonceContext, StaffErrorContext } from "./ui/nonce";
import { errorFields, getLogger } from "~/server/logger.server";
import { captureServerError } from "~/server/sentry.server";
import { CoalesceChunks } from "~/server/coalesce.server";
import { documentResponse } from "~/server/document-body.server";
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
  const bot = isbot(request.headers.get("user-agent") ?? "");

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
        [bot ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          const init = { headers: responseHeaders, status: responseStatusCode };
          if (request.method === "HEAD") {
            // Remix answers HEAD without a body: nothing will read this render.
            clearTimeout(deadline);
            abort();
            resolve(new Response(null, init));
            return;
          }
          // The HTML goes to the socket as a node stream (document-body.server.ts), joined per event-loop turn.
          resolve(
            documentResponse(
              loadContext,
              (destination) => {
                const body = new CoalesceChunks();
                body.once("close", () => clearTimeout(deadline));
                destination.once("close", () => body.destroy());
                body.pipe(destination);
                pipe(body);
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
