import type { IncomingMessage, ServerResponse } from "node:http";
import { badRequest } from "./bad-request.server";

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The canonical spelling of a request path (RFC 3986 section 6.2.2): percent-escapes of unreserved characters
 * decoded (`/%6cogin` is `/login`), empty segments dropped (`//login//` is `/login`: no trailing slash, as
 * the app writes its links), dot segments removed (`/./login`, `/a/../login`), and a backslash escaped (a
 * browser reads `/\x` in a Location as `//x`, another site). Remix routes every one of these spellings to the
 * same page, while express's routes (the sign-in rate limit, the Referrer-Policy of token pages) match the
 * spelling exactly. Null for a request target that is not a path at all (`*`, `http://host/x`).
 */
export function canonicalPath(path: string): string | null {
  if (!path.startsWith("/")) return null;
  const decoded = path.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape;
  });
  const output: string[] = [];
  for (const segment of decoded.replace(/\\/g, "%5C").split("/")) {
    if (segment === "..") output.pop();
    else if (segment !== "." && segment !== "") output.push(segment);
  }
  return `/${output.join("/")}`;
}

/**
 * Sends a request for a non-canonical path to the canonical one with 308, whatever its method, query kept.
 * 308, not 404, for posts too: a browser re-sends the post, body and all, to the canonical path, so a form on
 * an odd spelling of its page still works, and the re-sent post is the one the sign-in limit counts. The
 * Location is a path (same origin) that starts with exactly one slash. A target that is no path is a 400.
 */
export function canonicalPaths() {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    const canonical = canonicalPath(path);
    if (canonical === path) return next();
    if (canonical === null) return badRequest(res, "the request target is not a path");
    res.writeHead(308, {
      Location: canonical + (q === -1 ? "" : url.slice(q)),
      "Content-Length": 0,
      "Cache-Control": "no-store",
    });
    res.end();
  };
}
