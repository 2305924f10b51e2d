import http from "node:http";
import type { Socket } from "node:net";

/**
 * Slow clients are cut off instead of held for minutes: a directly exposed instance (HOST 0.0.0.0) has no proxy
 * in front to do it. Headers must arrive within HEADERS_TIMEOUT_MS and the whole request within
 * REQUEST_TIMEOUT_MS (Node's own checks, run every second here instead of every 30 s); a body must keep up a
 * minimum rate (the rule below); idle keep-alive connections close after KEEP_ALIVE_TIMEOUT_MS; and at most
 * MAX_CONNECTIONS are open at once, idle ones closed first when the cap comes near.
 */

export type SlowClientLimits = {
  HEADERS_TIMEOUT_MS: number;
  REQUEST_TIMEOUT_MS: number;
  KEEP_ALIVE_TIMEOUT_MS: number;
  MAX_CONNECTIONS: number;
  BODY_TIMEOUT_MS: number;
  BODY_MIN_RATE: number;
};

/**
 * When a body still arriving is too slow (like Apache's mod_reqtimeout `body=…,MinRate=…`): it has `graceMs`
 * from the start of the request, plus one second for every `minBytesPerSecond` bytes received so far. A body
 * dribbled at a byte every 2 s is cut after the grace; a 64 KiB form at 500 B/s or more is never.
 */
export function bodyDeadline(
  startedAt: number,
  received: number,
  graceMs: number,
  minBytesPerSecond: number,
) {
  return startedAt + graceMs + (received / minBytesPerSecond) * 1000;
}

/** The options http.createServer needs at creation (the timeouts are checked every `connectionsCheckingInterval`). */
export function serverOptions(limits: SlowClientLimits): http.ServerOptions {
  return {
    headersTimeout: limits.HEADERS_TIMEOUT_MS,
    requestTimeout: limits.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: limits.KEEP_ALIVE_TIMEOUT_MS,
    // Node's default is 30 s: a 10 s limit would then be enforced anywhere between 10 and 40 s.
    connectionsCheckingInterval: Math.min(1000, Math.max(100, limits.HEADERS_TIMEOUT_MS / 4)),
  };
}

const REQUEST_TIMEOUT = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";

/**
 * Applies the connection cap and the body-rate rule to a server made with `serverOptions`; returns a function
 * that stops the rule's timer (shutdown).
 */
export function guardSlowClients(server: http.Server, limits: SlowClientLimits, now = Date.now) {
  server.maxConnections = limits.MAX_CONNECTIONS;
  // Node refuses a connection over maxConnections by closing it at once. Before that, idle keep-alive
  // connections make room: they cost the client nothing to reopen.
  let open = 0;
  let lastSweep = 0;
  server.on("connection", (socket: Socket) => {
    open++;
    socket.once("close", () => open--);
    if (open >= limits.MAX_CONNECTIONS * 0.9 && now() - lastSweep > 1000) {
      lastSweep = now();
      server.closeIdleConnections();
    }
  });

  // Requests whose body is still arriving: the socket's bytes read at the start, to measure what came since.
  const bodies = new Map<http.IncomingMessage, { startedAt: number; bytesAtStart: number }>();
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.complete) return;
    bodies.set(req, { startedAt: now(), bytesAtStart: req.socket.bytesRead });
    const forget = () => bodies.delete(req);
    req.once("end", forget);
    req.once("close", forget);
    res.once("close", forget);
  });
  const timer = setInterval(() => {
    const t = now();
    for (const [req, { startedAt, bytesAtStart }] of bodies) {
      if (req.complete) {
        bodies.delete(req);
        continue;
      }
      const received = req.socket.bytesRead - bytesAtStart;
      if (t <= bodyDeadline(startedAt, received, limits.BODY_TIMEOUT_MS, limits.BODY_MIN_RATE)) continue;
      bodies.delete(req);
      cutOff(req);
    }
  }, 500);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Ends a request whose body is too slow, as Node ends one past its request timeout: a 408 when no answer has
 * begun, then the connection closes; the handler still waiting for the body sees the request aborted.
 */
function cutOff(req: http.IncomingMessage) {
  const socket = req.socket;
  const answered = (socket as Socket & { _httpMessage?: http.ServerResponse })._httpMessage?.headersSent;
  if (answered || !socket.writable) return void socket.destroy();
  socket.end(REQUEST_TIMEOUT, () => socket.destroy());
  setTimeout(() => socket.destroy(), 1000).unref();
}
