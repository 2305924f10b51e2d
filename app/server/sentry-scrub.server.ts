import type { ErrorEvent, Event } from "@sentry/node";

/**
 * What may leave the server in an error report (issue 16): no personal data beyond the user id and the client
 * id; no cookies, tokens, passwords, form values, emails or query strings. Every event goes through
 * `scrubEvent` (Sentry's `beforeSend`), whatever added the data.
 */

const FILTERED = "[Filtered]";

/** Keys whose values never leave, whatever they hold. */
const SENSITIVE_KEY =
  /cookie|token|passw|secret|session|authori[sz]ation|api[-_]?key|csrf|credential|email|otp|^code$|login[-_]?code|set-cookie|^data$|^body$|form/i;

/** Request headers that may be sent (everything else, cookies included, is dropped). */
const SAFE_HEADERS = new Set(["user-agent", "accept", "content-type", "x-request-id", "sec-fetch-mode"]);

/** Query parameters (or form-encoded pairs) whose value is a secret, wherever they appear in a string. */
const SECRET_PAIR =
  /\b((?:[\w-]*token|password|passwd|pwd|secret|code|session|sid|auth|key|email|otp)[\w-]*)=([^&\s"'<>;,)\]}]+)/gi;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
/** A cookie pair as a browser sends it (`__Host-energyops=…`, `name=value;`). */
const COOKIE_PAIR = /\b(__(?:Host|Secure)-[\w-]+)=([^;\s]+)/g;
/** Long opaque strings (session seals, JWTs, reset tokens): 32+ characters of base64/hex/url-safe alphabet. */
const OPAQUE =
  /\b[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_.-]{10,}\b|\b[A-Fa-f0-9]{32,}\b|\b[A-Za-z0-9+/_-]{40,}={0,2}/g;

/** A string with every secret-looking part replaced. */
export function scrubString(value: string): string {
  return value
    .replace(COOKIE_PAIR, `$1=${FILTERED}`)
    .replace(SECRET_PAIR, `$1=${FILTERED}`)
    .replace(BEARER, `$1 ${FILTERED}`)
    .replace(EMAIL, "[email]")
    .replace(OPAQUE, FILTERED);
}

/** A URL without its query string and fragment (they may hold tokens). */
export function stripQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return scrubString(cut === -1 ? url : url.slice(0, cut));
}

function scrubValue(value: unknown, depth = 0): unknown {
  if (depth > 8) return FILTERED;
  if (typeof value === "string") return scrubString(value);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[k] = SENSITIVE_KEY.test(k) ? FILTERED : scrubValue(v, depth + 1);
    return out;
  }
  return value;
}

/** Sentry's `beforeSend`: the event with only what may leave. */
export function scrubEvent<T extends Event | ErrorEvent>(event: T): T {
  if (event.request) {
    const r = event.request;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.headers ?? {}))
      if (SAFE_HEADERS.has(k.toLowerCase())) headers[k] = scrubString(String(v));
    event.request = { method: r.method, url: r.url ? stripQuery(r.url) : undefined, headers };
  }
  if (event.user) event.user = event.user.id !== undefined ? { id: event.user.id } : undefined;
  if (event.message) event.message = scrubString(event.message);
  if (event.logentry?.message)
    event.logentry = { ...event.logentry, message: scrubString(event.logentry.message) };
  for (const ex of event.exception?.values ?? []) {
    if (ex.value) ex.value = scrubString(ex.value);
    for (const frame of ex.stacktrace?.frames ?? []) {
      delete frame.vars;
      if (frame.abs_path) frame.abs_path = stripQuery(frame.abs_path);
      if (frame.filename) frame.filename = stripQuery(frame.filename);
    }
  }
  if (event.extra) event.extra = scrubValue(event.extra) as typeof event.extra;
  if (event.contexts) {
    // The trace context is ids the SDK made (hex), never user data; the rest is scrubbed.
    const { trace, ...rest } = event.contexts;
    event.contexts = { ...(scrubValue(rest) as typeof rest), ...(trace ? { trace } : {}) };
  }
  if (event.tags) event.tags = scrubValue(event.tags) as typeof event.tags;
  // Breadcrumbs (console lines, fetches with their URLs) are not needed to triage and may hold anything.
  delete event.breadcrumbs;
  delete event.server_name;
  return event;
}
