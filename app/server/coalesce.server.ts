import { Transform, type TransformCallback } from "node:stream";

/**
 * Joins what is written in one turn of the event loop into one chunk. React writes a page's HTML in 2 KB pieces,
 * all in the same turn for a page without Suspense (a 33 KB dashboard: 11 pieces, then the hydration scripts);
 * downstream each piece would cross a web stream, express, compression and a socket write on its own. Order and
 * bytes are unchanged; nothing waits longer than the current turn.
 */
export class CoalesceChunks extends Transform {
  private parts: Buffer[] = [];
  private scheduled = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.parts.push(chunk);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.release());
    }
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
    return Transform.prototype.end.apply(this, args as Parameters<Transform["end"]>) as this;
  }

  override _flush(done: TransformCallback) {
    this.release();
    done();
  }

  private release() {
    this.scheduled = false;
    if (this.parts.length === 0) return;
    this.push(this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts));
    this.parts = [];
  }
}
