/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
  interface AppLoadContext {
    /** Per-request CSP nonce, set by server.ts. */
    cspNonce: string;
    /** Set by server.ts when the per-IP sign-in limit is exceeded: the action answers 429. */
    signInLimited?: { retryAfterSeconds: number };
    /** The client's address (express `req.ip`: X-Forwarded-For only through TRUST_PROXY hops), for sign-in limits. */
    clientIp?: string;
    /** Set by the login action, so the login loader that re-renders the page after it does not count a lookup. */
    signInActionRan?: boolean;
    /** The error a loader or action threw during this request (for staff's stack trace). */
    serverError?: unknown;
    /** The error report's event id for that error (the fallback shows it: in full to staff, shortened to users). */
    errorEventId?: string;
    /** Identical upstream GETs of this request's loaders, shared (see getApi). */
    upstream?: Map<string, Promise<unknown>>;
    /** The signed-in user's id once a loader or action has read the session (getApi), for the request log. */
    userId?: number;
  }
}

export {};
