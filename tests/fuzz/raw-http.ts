import net from "node:net";

/** A request written byte for byte: fetch and node:http canonicalise paths and refuse lying headers. */
export type RawRequest = {
  method: string;
  /** The request target as sent (no normalisation): `/a/%2e%2e//b?x=1`. */
  target: string;
  headers: [string, string][];
  body?: Buffer;
};

export type RawAnswer = {
  /** The status of the first answer on the connection, or null when none arrived. */
  status: number | null;
  /** Time from connecting until the server closed the connection (the whole answer read). */
  ms: number;
  timedOut: boolean;
  /** A socket error before any answer (e.g. ECONNREFUSED: the server is gone). */
  error?: string;
  /** The answer's head (status line and headers) and up to 2 KB of body, for the report. */
  head: string;
  bodySample: string;
};

/**
 * Sends one request on its own connection (`Connection: close` is appended unless the request sets it) and
 * reads until the server closes it, or aborts after `timeoutMs`. The target and header values are written as
 * latin1 so raw bytes reach the server's parser as generated.
 */
export function sendRaw(port: number, req: RawRequest, timeoutMs: number): Promise<RawAnswer> {
  const head =
    `${req.method} ${req.target} HTTP/1.1\r\n` +
    req.headers.map(([k, v]) => `${k}: ${v}\r\n`).join("") +
    (req.headers.some(([k]) => k.toLowerCase() === "connection") ? "" : "Connection: close\r\n") +
    "\r\n";
  const bytes = Buffer.concat([Buffer.from(head, "latin1"), req.body ?? Buffer.alloc(0)]);
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = net.connect({ port, host: "127.0.0.1" });
    const finish = (timedOut: boolean, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      let text = Buffer.concat(chunks).toString("latin1");
      let status = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      // Interim answers (100 Continue to `Expect: 100-continue`) precede the real one.
      while (status && /^1\d\d$/.test(status[1]) && text.indexOf("\r\n\r\n") !== -1) {
        text = text.slice(text.indexOf("\r\n\r\n") + 4);
        status = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      }
      if (status && /^1\d\d$/.test(status[1])) status = null;
      const headEnd = text.indexOf("\r\n\r\n");
      resolve({
        status: status ? Number(status[1]) : null,
        ms: performance.now() - started,
        timedOut,
        error: status ? undefined : error,
        head: headEnd === -1 ? text.slice(0, 2000) : text.slice(0, headEnd),
        bodySample: headEnd === -1 ? "" : text.slice(headEnd + 4, headEnd + 4 + 2048),
      });
    };
    const timer = setTimeout(() => finish(true, "timeout"), timeoutMs);
    // Written without half-closing: a client that lies about its length keeps the connection open, as a real
    // one would, instead of letting the parser fail on an early end.
    socket.on("connect", () => socket.write(bytes));
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("end", () => finish(false));
    socket.on("close", () => finish(false));
    // A server that answers early (413) and closes while the body is still being written resets the
    // connection on our side: what it answered before still counts.
    socket.on("error", (e: NodeJS.ErrnoException) => finish(false, e.code ?? e.message));
  });
}
