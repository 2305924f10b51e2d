import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** The header that carries a request's id: in from a proxy or client, out in the answer, on to the upstream api. */
export const REQUEST_ID_HEADER = "x-request-id";

/** An incoming id is kept only as a short plain token: nothing that could forge or break a log line or a header. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * The id of a request: the incoming `X-Request-Id` (a proxy's or a client's, so one id follows a request through
 * every tier) when it is a safe token (8–64 of A–Z a–z 0–9 . _ -), otherwise a fresh random UUID.
 * A repeated header (an array) is never trusted.
 */
export function acceptRequestId(incoming: string | string[] | undefined): string {
  return typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Middleware, first in server.ts: settles the request's id and writes it back into the request's headers (so the
 * Remix Request, the api client and error reports read the same id from `x-request-id`) and into the answer.
 */
export function requestId() {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const id = acceptRequestId(req.headers[REQUEST_ID_HEADER]);
    req.headers[REQUEST_ID_HEADER] = id;
    res.setHeader("X-Request-Id", id);
    next();
  };
}
