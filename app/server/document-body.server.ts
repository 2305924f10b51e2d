import type { ServerResponse } from "node:http";
import { Writable } from "node:stream";
import type { AppLoadContext } from "@remix-run/node";

/**
 * A document's HTML, from React's node stream straight to the express response, handed from entry.server to the
 * adapter beside the Response (which has no body). It never crosses a web stream on its way to the socket, and a
 * page React finishes in one go leaves in one write, with a Content-Length, as a static file would.
 *
 * The pipe travels on the request's load context, the one object both ends share (entry.server is bundled into
 * the Remix build and the adapter into the server: a module-level registry would exist twice). The adapter takes
 * it only for that very Response: one Remix made instead (a HEAD answer, an error page) is sent as it is.
 */
export type PipeTo = (destination: ServerResponse) => void;

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

/**
 * What React writes, joined per turn of the event loop, into an HTTP response. React writes a page in 2 KB pieces;
 * each would otherwise be a chunk of its own and a socket write. If React ends within the turn of its first
 * write (every page without a pending Suspense boundary, rendered after onAllReady), the whole page goes out in
 * one `end()` with its Content-Length; otherwise each turn's pieces go as one chunk, and streaming goes on.
 * Destroying the sink (the client left) tells React, which listens for `close`, to stop rendering.
 */
export class DocumentSink extends Writable {
  private parts: Buffer[] = [];
  private size = 0;
  private scheduled = false;
  private streaming = false;

  constructor(private readonly res: ServerResponse) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    this.parts.push(chunk);
    this.size += chunk.length;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.release());
    }
    done();
  }

  override _final(done: (error?: Error | null) => void) {
    const body = this.take();
    if (!this.streaming && !this.res.headersSent) this.res.setHeader("Content-Length", body.length);
    this.res.end(body);
    done();
  }

  /**
   * React ends its destination a second time once it has finished (renderToPipeableStream, React 18.3); node
   * answers by building an ERR_STREAM_ALREADY_FINISHED error with its stack trace (1.3 % of the static page's CPU
   * in the profile), then drops it.
   */
  override end(cb?: () => void): this;
  override end(chunk: unknown, cb?: () => void): this;
  override end(chunk: unknown, encoding?: BufferEncoding, cb?: () => void): this;
  override end(...args: unknown[]): this {
    if ((this.writableFinished || this.destroyed) && args.length === 0) return this;
    return Writable.prototype.end.apply(this, args as Parameters<Writable["end"]>) as this;
  }

  private release() {
    this.scheduled = false;
    if (this.parts.length === 0 || this.writableEnded || this.destroyed) return;
    this.streaming = true;
    this.res.write(this.take());
  }

  private take() {
    const body = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    return body;
  }
}
