import type { ServerResponse } from "node:http";

/**
 * The answer to a request refused before Remix sees it (a malformed Host, a target that is not a path): a short
 * plain-text 400 that no cache keeps.
 */
export function badRequest(res: ServerResponse, reason: string) {
  const body = `Bad Request: ${reason}.`;
  res.writeHead(400, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
  });
  res.end(body);
}
