import type { IncomingMessage, ServerResponse } from "node:http";

export type BodyLimits = {
  /** Largest request body accepted, in bytes. */
  maxBytes: number;
  /** Most fields a urlencoded or multipart form may carry. */
  maxFields: number;
  /** Longest field name, in characters. */
  maxFieldNameLength: number;
};

export type BodyCheck = { ok: true } | { ok: false; status: 400 | 413; reason: string };

const METHODS_WITHOUT_BODY = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Counts the fields of an `application/x-www-form-urlencoded` body and checks every name's length, without
 * building the parsed form (the body is already at most `maxBytes`, so this is one linear scan).
 */
export function checkUrlEncoded(
  body: string,
  limits: Pick<BodyLimits, "maxFields" | "maxFieldNameLength">,
): BodyCheck {
  if (body.length === 0) return { ok: true };
  let fields = 0;
  let start = 0;
  while (start <= body.length) {
    let end = body.indexOf("&", start);
    if (end === -1) end = body.length;
    if (end > start) {
      fields++;
      if (fields > limits.maxFields) return { ok: false, status: 413, reason: "too many form fields" };
      const eq = body.indexOf("=", start);
      const nameEnd = eq === -1 || eq > end ? end : eq;
      // A name's decoded length is at most its encoded length; decode only the long ones.
      if (
        nameEnd - start > limits.maxFieldNameLength &&
        decodedLength(body.slice(start, nameEnd)) > limits.maxFieldNameLength
      ) {
        return { ok: false, status: 413, reason: "form field name too long" };
      }
    }
    start = end + 1;
  }
  return { ok: true };
}

function decodedLength(encoded: string) {
  try {
    return decodeURIComponent(encoded.replace(/\+/g, " ")).length;
  } catch {
    return encoded.length;
  }
}

/** The boundary of a `multipart/form-data` content type, or null. */
export function multipartBoundary(contentType: string): string | null {
  const m = /boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : null;
}

/** Counts the parts of a multipart body and checks each part's field name length. */
export function checkMultipart(
  body: Buffer,
  boundary: string,
  limits: Pick<BodyLimits, "maxFields" | "maxFieldNameLength">,
): BodyCheck {
  const delimiter = Buffer.from(`--${boundary}`);
  let parts = 0;
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const next = body.indexOf(delimiter, at + delimiter.length);
    if (next === -1) break; // the closing delimiter
    parts++;
    if (parts > limits.maxFields) return { ok: false, status: 413, reason: "too many form fields" };
    const headersEnd = body.indexOf("\r\n\r\n", at);
    const headers = body
      .subarray(at, headersEnd === -1 || headersEnd > next ? next : headersEnd)
      .toString("latin1");
    const name = /content-disposition:[^\r\n]*?\bname="([^"]*)"/i.exec(headers)?.[1];
    if (name !== undefined && name.length > limits.maxFieldNameLength)
      return { ok: false, status: 413, reason: "form field name too long" };
    at = next;
  }
  return { ok: true };
}

/** Checks a complete (size-limited) body against the field limits for its content type. */
export function checkFormBody(body: Buffer, contentType: string | undefined, limits: BodyLimits): BodyCheck {
  const type = (contentType ?? "").toLowerCase();
  if (type.startsWith("application/x-www-form-urlencoded"))
    return checkUrlEncoded(body.toString("latin1"), limits);
  if (type.startsWith("multipart/form-data")) {
    const boundary = multipartBoundary(contentType ?? "");
    if (!boundary) return { ok: false, status: 400, reason: "multipart body without a boundary" };
    return checkMultipart(body, boundary, limits);
  }
  return { ok: true };
}

type Req = IncomingMessage & { rawBody?: Buffer };
type Next = (error?: unknown) => void;

/**
 * Refuses an oversized or hostile request body before anything parses it: a declared Content-Length over the
 * limit at once, a chunked body as soon as the bytes that have arrived pass it (reading stops there). A body
 * within the limits is buffered on `req.rawBody` for the Remix handler, which must read it from there.
 */
export function bodyLimit(limits: BodyLimits) {
  return (req: Req, res: ServerResponse, next: Next) => {
    if (METHODS_WITHOUT_BODY.has(req.method ?? "GET")) return next();
    const declared = req.headers["content-length"];
    if (declared !== undefined && Number(declared) > limits.maxBytes)
      return refuse(req, res, 413, "request body too large");
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onError);
    };
    const onData = (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limits.maxBytes) {
        done = true;
        cleanup();
        chunks.length = 0;
        refuse(req, res, 413, "request body too large");
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (done) return;
      done = true;
      cleanup();
      const body = Buffer.concat(chunks, size);
      const check = checkFormBody(body, req.headers["content-type"], limits);
      if (!check.ok) return refuse(req, res, check.status, check.reason);
      req.rawBody = body;
      next();
    };
    const onError = () => {
      if (done) return;
      done = true;
      cleanup();
      chunks.length = 0;
      req.destroy();
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onError);
  };
}

const MESSAGES: Record<number, string> = { 400: "Bad Request", 413: "Payload Too Large" };

/** How long a refused connection stays open so the client can read the answer. */
const LINGER_MS = 2000;
/** How much more of a refused body is read (and dropped) so that a client a little over the limit finishes cleanly. */
const DISCARD_BYTES = 256 * 1024;

/**
 * Answers the refusal with `Connection: close` and keeps nothing more of the body: up to DISCARD_BYTES more
 * are read and dropped (a form a little over the limit finishes sending and its client reads the answer on a
 * cleanly closed connection), then the request is paused, so TCP flow control stops a client still sending
 * while it reads the answer. After the answer only the sending side is closed, and the socket is destroyed
 * LINGER_MS later: Node would destroy it right after the answer, and closing a socket with unread input resets
 * the connection, so the client would lose the 413.
 */
function refuse(req: Req, res: ServerResponse, status: 400 | 413, reason: string) {
  const socket = req.socket;
  let discarded = 0;
  const discard = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_BYTES) {
      req.off("data", discard);
      req.pause();
    }
  };
  req.on("data", discard);
  const close = () => socket?.destroy();
  setTimeout(close, LINGER_MS).unref();
  if (res.headersSent || !socket) return close();
  Object.assign(socket, { destroySoon: () => socket.end() });
  const body = `${MESSAGES[status]}: ${reason}.`;
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    Connection: "close",
  });
  res.end(body);
}
