import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isRouteErrorResponse } from "@remix-run/router";
import { renderToString } from "react-dom/server";
import { getSessionUser } from "./server/upstream/session.server";
import { NonceContext, StaffErrorContext } from "./ui/nonce";
import { errorFields, getLogger } from "~/server/ops/logger.server";
import { captureServerError } from "~/server/ops/sentry.server";
import { documentResponse } from "~/server/http/document-body.server";
import { handoffScripts, takeHydrationData } from "~/server/http/hydration-data.server";
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

  // The page is rendered in one synchronous pass, once its hydration data is all there: no route defers data
  // (no <Await>, no Suspense of our own), so streaming would only send the same bytes later. React's streaming
  // renderer costs 4-5x renderToString for the same tree (it encodes every piece into byte buffers), and the
  // hydration data's StreamTransfer suspends once per chunk. The scripts it would write are written the same way
  // by handoffScripts. A route that starts deferring data should bring back renderToPipeableStream.
  const chunks = await takeHydrationData(remixContext);
  const html = renderToString(
    <NonceContext.Provider value={nonce}>
      <StaffErrorContext.Provider value={staffStack}>
        <ErrorEventContext.Provider value={eventId}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </ErrorEventContext.Provider>
      </StaffErrorContext.Provider>
    </NonceContext.Provider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  const init = { headers: responseHeaders, status: responseStatusCode };
  // Remix answers HEAD without a body.
  if (request.method === "HEAD") return new Response(null, init);
  const body = `<!DOCTYPE html>${html}${chunks ? handoffScripts(chunks, remixContext, nonce) : ""}`;
  return documentResponse(loadContext, body, init);
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
