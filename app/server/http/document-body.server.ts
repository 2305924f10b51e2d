import type { AppLoadContext } from "@remix-run/node";

/**
 * A document's HTML, handed from entry.server to the express adapter beside the Response (which has no body), so
 * that it goes to the socket as one string in one write with its Content-Length, as a static file would, and never
 * crosses a web stream (a `Response` body would be a ReadableStream that the adapter reads back in pieces).
 *
 * The HTML travels on the request's load context, the one object both ends share (entry.server is bundled into the
 * Remix build and the adapter into the server: a module-level registry would exist twice). The adapter takes it
 * only for that very Response: one Remix made instead (a HEAD answer, an error page) is sent as it is.
 */
export function documentResponse(context: AppLoadContext, html: string, init: ResponseInit): Response {
  const response = new Response(null, init);
  context.documentBody = { response, html };
  return response;
}

/** The HTML of `response` if entry.server made it with `documentResponse`, once. */
export function takeDocumentBody(context: AppLoadContext, response: Response): string | undefined {
  const body = context.documentBody;
  if (body?.response !== response) return undefined;
  context.documentBody = undefined;
  return body.html;
}
