import type { IncomingHttpHeaders } from "node:http";
import type { GetLoadContextFunction } from "@remix-run/express";
import {
  createRequestHandler as createRemixRequestHandler,
  writeReadableStreamToWritable,
  type ServerBuild,
} from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";

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
      const refusal = await refusedBeforeRemix(
        req.method,
        req.originalUrl,
        req.get("content-type"),
        req.rawBody,
      );
      if (refusal) {
        res.status(refusal.status).type("text/plain").set("Cache-Control", "no-store");
        res.send(`${refusal.status === 415 ? "Unsupported Media Type" : "Bad Request"}: ${refusal.reason}.`);
        return;
      }
      const request = createRemixRequest(req, res);
      const context = await getLoadContext(req, res);
      const response = await handle(request, context);
      await sendRemixResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** The media type of a Content-Type header, lower-cased ("" when it names none, as in ";;;"). */
const mediaType = (contentType: string | undefined) => contentType?.split(";")[0].trim().toLowerCase() ?? "";

/**
 * What Remix would turn into a reported 500 for anyone who sends it, refused here with a 4xx instead:
 * - a `?_data=` request: the app uses single fetch (`.data`), and Remix reports every `?_data` request as an
 *   error while still serving it;
 * - a body that is not a form (every action reads `request.formData()`, which throws on JSON or text): 415;
 * - a multipart body the form parser cannot read: 400.
 * An empty body without a content type passes (an action that reads no form, such as logging out, still
 * works); the Remix request calls it an empty form.
 */
export async function refusedBeforeRemix(
  method: string,
  target: string,
  contentType: string | undefined,
  body: Buffer | undefined,
): Promise<{ status: 400 | 415; reason: string } | null> {
  if (new URL(target, "http://x").searchParams.has("_data"))
    return { status: 400, reason: "?_data requests are not served (the app uses .data requests)" };
  if (method === "GET" || method === "HEAD") return null;
  const type = mediaType(contentType);
  if (!type) return body && body.length > 0 ? { status: 415, reason: "a body must be a form" } : null;
  if (!FORM_TYPES.has(type)) return { status: 415, reason: "a body must be a form" };
  if (type === "multipart/form-data") {
    try {
      await new Response(body && new Uint8Array(body), {
        headers: { "Content-Type": contentType! },
      }).formData();
    } catch {
      return { status: 400, reason: "malformed multipart body" };
    }
  }
  return null;
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
    // An empty body without a type (refusedBeforeRemix let it through) reads as an empty form; so does one
    // whose Content-Type names no type at all (";;;"), which the form parser would otherwise throw on.
    if (!mediaType(req.get("content-type")))
      (init.headers as Headers).set("Content-Type", "application/x-www-form-urlencoded");
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

async function sendRemixResponse(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
