import type { IncomingHttpHeaders } from "node:http";
import type { GetLoadContextFunction } from "@remix-run/express";
import {
  createRequestHandler as createRemixRequestHandler,
  writeReadableStreamToWritable,
  type ServerBuild,
} from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { takeDocumentBody } from "./document-body.server";

/**
 * The Remix request handler for express, like `@remix-run/express`'s, except that a request body comes from
 * `req.rawBody`, the bytes the body-limit middleware has already read and checked; Remix never reads the
 * socket itself, so no body over the limit can reach a form parser.
 */
export function createRequestHandler({
  build,
  mode,
  getLoadContext,
}: {
  build: ServerBuild;
  mode: string;
  getLoadContext: GetLoadContextFunction;
}) {
  const handle = createRemixRequestHandler(build, mode);
  return async (req: ExpressRequest & { rawBody?: Buffer }, res: ExpressResponse, next: NextFunction) => {
    try {
      const request = createRemixRequest(req, res);
      const context = await getLoadContext(req, res);
      const response = await handle(request, context);
      await sendRemixResponse(res, response, takeDocumentBody(context, response));
    } catch (error) {
      next(error);
    }
  };
}

function createRemixRequest(
  req: ExpressRequest & { rawBody?: Buffer; requestOrigin?: string },
  res: ExpressResponse,
) {
  // The origin the host-header check validated (the Host header, or a trusted proxy's forwarded ones): a URL
  // is never built from a header that was not checked, nor from a forwarded one an untrusted peer sent.
  if (!req.requestOrigin)
    throw new Error(
      "request origin not checked: the host-header middleware must run before the Remix handler",
    );
  const url = new URL(`${req.requestOrigin}${req.originalUrl}`);
  let controller: AbortController | null = new AbortController();
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers: createRemixHeaders(req.headers),
    signal: controller.signal,
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    if (!req.rawBody)
      throw new Error("request body not read: the body-limit middleware must run before the Remix handler");
    init.body = new Uint8Array(req.rawBody);
  }
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  return new Request(url.href, init);
}

function createRemixHeaders(requestHeaders: IncomingHttpHeaders) {
  const headers = new Headers();
  for (const [key, values] of Object.entries(requestHeaders)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  return headers;
}

async function sendRemixResponse(res: ExpressResponse, response: Response, html?: string) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (html !== undefined) {
    res.setHeader("Content-Length", Buffer.byteLength(html));
    res.end(html);
  } else if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
