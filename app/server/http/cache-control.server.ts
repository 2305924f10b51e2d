import type { IncomingMessage, ServerResponse } from "node:http";

export const PRIVATE_NO_STORE = "private, no-store";

/**
 * The Cache-Control a dynamic response goes out with: `private, no-store` unless the route explicitly
 * declared public caching. Every page answer depends on the session (the root loader reads it) or on a token
 * in its URL, and its HTML carries a per-request CSP nonce, so none may be stored by a browser or a proxy.
 */
export function cacheControlFor(declared: string | number | string[] | undefined): string {
  const value = Array.isArray(declared)
    ? declared.join(", ")
    : declared === undefined
      ? ""
      : String(declared);
  return /(^|,)\s*public\b/i.test(value) ? value : PRIVATE_NO_STORE;
}

/** Express middleware: applies `cacheControlFor` to whatever the handlers after it answer (redirects included). */
export function privateByDefault() {
  return (_req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
      if (!this.headersSent)
        this.setHeader("Cache-Control", cacheControlFor(this.getHeader("Cache-Control")));
      return writeHead.apply(this, args);
    } as typeof writeHead;
    next();
  };
}
