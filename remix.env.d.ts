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
    /**
     * The method of the request Remix answers (set by server.ts). A POST to a page runs its action, then its
     * loaders render the answer (with a GET request of their own): this is how such a loader knows.
     */
    requestMethod?: string;
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
