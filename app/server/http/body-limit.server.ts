import type { IncomingMessage, ServerResponse } from "node:http";

export type BodyLimits = {
  /** Largest request body accepted, in bytes. */
  maxBytes: number;
  /** Most fields a urlencoded or multipart form may carry. */
  maxFields: number;
  /** Longest field name, in characters. */
  maxFieldNameLength: number;
  /** Largest list index a field name may hold (`x[999]`). */
  maxFieldIndex: number;
  /** Most levels a field name may nest, brackets and dots together (`a.b[0]` is 2). */
  maxFieldDepth: number;
};

type NameLimits = Pick<BodyLimits, "maxFields" | "maxFieldNameLength" | "maxFieldIndex" | "maxFieldDepth">;
type NameBounds = Pick<BodyLimits, "maxFieldIndex" | "maxFieldDepth">;

export type BodyCheck = { ok: true } | { ok: false; status: 400 | 413; reason: string };

const METHODS_WITHOUT_BODY = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a field name's path stays within small bounds. Conform turns `x[n]` into a list of n + 1 items and
 * every reply echoes it; a list of a billion holes is a few bytes to send and gigabytes to write back. So a
 * name's list indices and its nesting (each `[` and each `.` is one level, as Conform reads a path) are
 * bounded before anything parses the form. `name` is the decoded name.
 */
export function fieldNameWithinBounds(name: string, bounds: NameBounds): boolean {
  let depth = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 0x2e /* . */) {
      if (++depth > bounds.maxFieldDepth) return false;
    } else if (c === 0x5b /* [ */) {
      if (++depth > bounds.maxFieldDepth) return false;
      // The digits of an index, leading zeros aside (Conform reads `[0007]` as 7).
      let j = i + 1;
      while (name.charCodeAt(j) === 0x30) j++;
      let index = 0;
      while (j < name.length) {
        const d = name.charCodeAt(j) - 0x30;
        if (d < 0 || d > 9) break;
        index = index * 10 + d;
        if (index > bounds.maxFieldIndex) return false;
        j++;
      }
      i = j - 1;
    }
  }
  return true;
}

/**
 * The characters of an urlencoded name that matter to `fieldNameWithinBounds`: `+` and `%XX` decoded, each
 * escape to one character. The brackets, dots and digits come out exactly as a full UTF-8 decoding gives them
 * (no byte of a multi-byte character is ASCII); other characters may differ, which the bounds never read.
 */
function decodeNameForBounds(encoded: string): string {
  if (!encoded.includes("%") && !encoded.includes("+")) return encoded;
  return encoded
    .replace(/\+/g, " ")
    .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

const NAME_OUT_OF_BOUNDS = "form field name nests too deep or indexes too far";

/**
 * Counts the fields of an `application/x-www-form-urlencoded` body and checks every name's length, without
 * building the parsed form (the body is already at most `maxBytes`, so this is one linear scan).
 */
export function checkUrlEncoded(body: string, limits: NameLimits): BodyCheck {
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
      if (!fieldNameWithinBounds(decodeNameForBounds(body.slice(start, nameEnd)), limits))
        return { ok: false, status: 400, reason: NAME_OUT_OF_BOUNDS };
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
export function checkMultipart(body: Buffer, boundary: string, limits: NameLimits): BodyCheck {
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
    const match = /content-disposition:[^\r\n]*?\bname=(?:"([^"]*)"|([^";\s]*))/i.exec(headers);
    const name = match ? (match[1] ?? match[2]) : undefined;
    if (name !== undefined && name.length > limits.maxFieldNameLength)
      return { ok: false, status: 413, reason: "form field name too long" };
    if (name !== undefined && !fieldNameWithinBounds(name, limits))
      return { ok: false, status: 400, reason: NAME_OUT_OF_BOUNDS };
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
