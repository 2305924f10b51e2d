import type { Writable } from "node:stream";
import type { AppLoadContext } from "@remix-run/node";

/**
 * A document's HTML as a node stream, handed from entry.server to the express adapter beside the Response, so the
 * page never crosses a web stream on its way to the socket (React's node stream → ReadableStream → reader loop →
 * express). The Response itself has no body; the pipe travels on the request's load context, the one object both
 * ends share (entry.server is bundled into the Remix build and the adapter into the server: a module-level
 * registry would exist twice). The adapter takes the pipe only for that very Response: one Remix made instead
 * (a HEAD answer, an error page) is sent as it is.
 */
export type PipeTo = (destination: Writable) => void;

export function documentResponse(context: AppLoadContext, pipeTo: PipeTo, init: ResponseInit): Response {
  const response = new Response(null, init);
  context.documentBody = { response, pipeTo };
  return response;
}

/** The pipe of `response` if entry.server made it with `documentResponse`, once. */
export function takeDocumentBody(context: AppLoadContext, response: Response): PipeTo | undefined {
  const body = context.documentBody;
  if (body?.response !== response) return undefined;
  context.documentBody = undefined;
  return body.pipeTo;
}
