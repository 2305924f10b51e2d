import type { ErrorEvent, Event } from "@sentry/node";

/**
 * What may leave the server in an error report: no personal data beyond the user id and the client id; no
 * cookies, tokens, passwords, form values, emails or query strings. Every event goes through `scrubEvent`
 * (Sentry's `beforeSend`), whatever added the data.
 *
 * Scrubbing runs inside a request (the SDK's `beforeSend` is synchronous), on strings a stranger controls (the
 * path, a browser report). So every string is cut to a few KB first, and every pattern is found by a scanner
 * that looks at each character a bounded number of times: no regular expression with nested or adjacent
 * quantifiers that could backtrack over the input (they once took seconds on a 4 KB path and stalled the process).
 */

const FILTERED = "[Filtered]";

/** The longest string scrubbed (messages, exception values, tags, context values); the rest is cut off. */
export const MAX_TEXT = 4096;
/** The longest path or URL kept in an event (the path tag is shorter still: `MAX_TAG`). */
export const MAX_PATH = 2048;
/** Sentry's own limit on a tag value. */
export const MAX_TAG = 200;

/** Keys whose values never leave, whatever they hold (a key is short: the alternation cannot backtrack). */
const SENSITIVE_KEY =
  /cookie|token|passw|secret|session|authori[sz]ation|api[-_]?key|csrf|credential|email|otp|^code$|login[-_]?code|set-cookie|^data$|^body$|form/i;

/** Request headers that may be sent (everything else, cookies included, is dropped). */
const SAFE_HEADERS = new Set(["user-agent", "accept", "content-type", "x-request-id", "sec-fetch-mode"]);

// Character classes, as the patterns this scanner replaced spelt them (ASCII `\w`, JavaScript's `\s`): each an
// ASCII lookup table, since every class but `\s` is ASCII only.
const ALPHA = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGIT = "0123456789";
const WORD = `${ALPHA}${DIGIT}_`;
function asciiClass(chars: string) {
  const table = new Uint8Array(128);
  for (const ch of chars) table[ch.charCodeAt(0)] = 1;
  return (c: number) => c < 128 && table[c] === 1;
}
/** `\w` */
const isWord = asciiClass(WORD);
const isAlpha = asciiClass(ALPHA);
/** `[\w-]` */
const isName = asciiClass(`${WORD}-`);
const isHex = asciiClass(`${DIGIT}abcdefABCDEF`);
/** `\s` */
const isSpace = (c: number) =>
  c < 128
    ? c === 0x20 || (c >= 0x09 && c <= 0x0d)
    : c === 0xa0 ||
      c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000 ||
      c === 0xfeff;
const pairValueEnd = asciiClass("&\"'<>;,)]}");
/** Ends the value of a `name=value` pair: `[&\s"'<>;,)\]}]`. */
const endsPairValue = (c: number) => pairValueEnd(c) || isSpace(c);
/** A bearer or basic credential: `[A-Za-z0-9._~+/=-]`. */
const isCredential = asciiClass(`${ALPHA}${DIGIT}._~+/=-`);
/** The local part of an email address: `[A-Za-z0-9._%+-]`. */
const isLocal = asciiClass(`${ALPHA}${DIGIT}._%+-`);
/** A domain: `[A-Za-z0-9.-]`. */
const isDomain = asciiClass(`${ALPHA}${DIGIT}.-`);
/** `[A-Za-z0-9_.-]` */
const isDottedName = asciiClass(`${WORD}.-`);
/** Base64 with either alphabet: `[A-Za-z0-9+/_-]`. */
const isBase64 = asciiClass(`${WORD}+/-`);
/**
 * `[\w.~+=%@-]`: what a secret cut in two by a truncation may be made of. Not `/`: a long path keeps its
 * leading segments (a token inside a path segment has its `/` escaped as %2F).
 */
const isSecretish = asciiClass(`${WORD}.~+=%@-`);

/** Whether there is a word boundary (`\b`) before index i. */
function boundary(s: string, i: number) {
  const before = i > 0 && isWord(s.charCodeAt(i - 1));
  const after = i < s.length && isWord(s.charCodeAt(i));
  return before !== after;
}

/** The end of the run of characters matching `test` from index i (i itself when there is none). */
function runEnd(s: string, i: number, test: (c: number) => boolean) {
  while (i < s.length && test(s.charCodeAt(i))) i++;
  return i;
}

/**
 * `__Host-…=value` and `__Secure-…=value` (a cookie pair as a browser sends it): the value becomes [Filtered].
 * A prefix whose name is not followed by `=` and a value cannot match from anywhere inside that name either,
 * so the scan resumes after it.
 */
function scrubCookiePairs(s: string) {
  let out = "";
  let copied = 0;
  let i = 0;
  while (i < s.length) {
    const prefix = s.startsWith("__Host-", i) ? 7 : s.startsWith("__Secure-", i) ? 9 : 0;
    if (prefix === 0 || !boundary(s, i)) {
      i++;
      continue;
    }
    const nameEnd = runEnd(s, i + prefix, isName);
    // The value is read only when it would be the match's: a failed attempt never reads past its name.
    const valueEnd =
      nameEnd > i + prefix && s.charCodeAt(nameEnd) === 0x3d
        ? runEnd(s, nameEnd + 1, (c) => c !== 0x3b && !isSpace(c))
        : -1;
    if (valueEnd > nameEnd + 1) {
      out += `${s.slice(copied, nameEnd)}=${FILTERED}`;
      copied = i = valueEnd;
    } else i = Math.max(nameEnd, i + 1);
  }
  return copied === 0 ? s : out + s.slice(copied);
}

/** Words that make a pair's name secret when a `-`-separated part of the name starts with one. */
const SECRET_NAME_STARTS = [
  "password",
  "passwd",
  "pwd",
  "secret",
  "code",
  "session",
  "sid",
  "auth",
  "key",
  "email",
  "otp",
];

/** Whether a `[\w-]+` name holds a secret: it contains "token", or a part after a `-` starts with a word above. */
function secretName(name: string) {
  const lower = name.toLowerCase();
  if (lower.includes("token")) return true;
  return lower.split("-").some((part) => SECRET_NAME_STARTS.some((w) => part.startsWith(w)));
}

/**
 * Query parameters (or form-encoded pairs) whose value is a secret, wherever they appear in a string:
 * `password=…`, `reset_token=…`, `x-api-key=…` keep their name and lose their value. A name is the whole run
 * of `[\w-]` before an `=`; each run is looked at once.
 */
function scrubSecretPairs(s: string) {
  let out = "";
  let copied = 0;
  let i = 0;
  while (i < s.length) {
    if (!isName(s.charCodeAt(i))) {
      i++;
      continue;
    }
    const nameEnd = runEnd(s, i, isName);
    if (s.charCodeAt(nameEnd) !== 0x3d) {
      i = nameEnd;
      continue;
    }
    // The value is read only for a secret name: then it is either replaced or empty.
    const valueEnd = secretName(s.slice(i, nameEnd)) ? runEnd(s, nameEnd + 1, (c) => !endsPairValue(c)) : -1;
    if (valueEnd > nameEnd + 1) {
      out += `${s.slice(copied, nameEnd)}=${FILTERED}`;
      copied = i = valueEnd;
    } else i = nameEnd + 1;
  }
  return copied === 0 ? s : out + s.slice(copied);
}

/** `Bearer …` and `Basic …` credentials: the scheme stays, the credential becomes [Filtered]. */
function scrubCredentials(s: string) {
  let out = "";
  let copied = 0;
  let i = 0;
  while (i < s.length) {
    const scheme = s.startsWith("Bearer", i) ? 6 : s.startsWith("Basic", i) ? 5 : 0;
    if (scheme === 0 || !boundary(s, i)) {
      i++;
      continue;
    }
    const spaceEnd = runEnd(s, i + scheme, isSpace);
    const credentialEnd = spaceEnd > i + scheme ? runEnd(s, spaceEnd, isCredential) : -1;
    if (credentialEnd > spaceEnd) {
      out += `${s.slice(copied, i + scheme)} ${FILTERED}`;
      copied = i = credentialEnd;
    } else i = Math.max(spaceEnd, i + 1);
  }
  return copied === 0 ? s : out + s.slice(copied);
}

/**
 * The end of an email address's domain starting at index `from` (just after the `@`), or -1: the longest
 * `[A-Za-z0-9.-]+\.[A-Za-z]{2,}`, found from the end of the domain run backwards.
 */
function domainEnd(s: string, from: number) {
  const end = runEnd(s, from, isDomain);
  for (let dot = end - 3; dot >= from + 1; dot--) {
    if (s.charCodeAt(dot) !== 0x2e) continue;
    const letters = runEnd(s, dot + 1, isAlpha);
    if (letters - (dot + 1) >= 2) return letters;
  }
  return -1;
}

/** Email addresses become [email]. */
function scrubEmails(s: string) {
  let out = "";
  let copied = 0;
  let i = 0;
  while (i < s.length) {
    if (!isLocal(s.charCodeAt(i))) {
      i++;
      continue;
    }
    const localEnd = runEnd(s, i, isLocal);
    if (s.charCodeAt(localEnd) !== 0x40) {
      i = localEnd;
      continue;
    }
    const end = domainEnd(s, localEnd + 1);
    if (end !== -1) {
      out += `${s.slice(copied, i)}[email]`;
      copied = i = end;
    } else i = localEnd + 1;
  }
  return copied === 0 ? s : out + s.slice(copied);
}

/**
 * Long opaque strings (session seals, JWTs, reset tokens) become [Filtered]: at a word boundary, 20+ characters
 * of `[\w-]`, a dot and 10+ of `[\w.-]` up to a word boundary (a JWT, a sealed cookie); or 32+ hex digits
 * between word boundaries; or 40+ characters of base64 with up to two `=`. The runs that start at each index
 * are measured once, from the end of the string backwards, so trying every index costs no rescanning.
 */
function scrubOpaque(s: string) {
  const n = s.length;
  // run[i]: how many characters from index i belong to the class; lastBoundary[i]: the last index <= i before
  // which there is a word boundary (-1: none).
  const runs = (test: (c: number) => boolean) => {
    const run = new Int32Array(n + 1);
    for (let i = n - 1; i >= 0; i--) run[i] = test(s.charCodeAt(i)) ? run[i + 1] + 1 : 0;
    return run;
  };
  const names = runs(isName);
  const dotted = runs(isDottedName);
  const hex = runs(isHex);
  const base64 = runs(isBase64);
  const lastBoundary = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) lastBoundary[i] = boundary(s, i) ? i : i > 0 ? lastBoundary[i - 1] : -1;

  const dottedToken = (i: number) => {
    const head = names[i];
    if (head < 20 || s.charCodeAt(i + head) !== 0x2e) return -1;
    const tail = i + head + 1;
    const end = lastBoundary[tail + dotted[tail]];
    return end >= tail + 10 ? end : -1;
  };
  const hexToken = (i: number) => (hex[i] >= 32 && boundary(s, i + hex[i]) ? i + hex[i] : -1);
  const base64Token = (i: number) => {
    if (base64[i] < 40) return -1;
    let end = i + base64[i];
    for (let pad = 0; pad < 2 && s.charCodeAt(end) === 0x3d; pad++) end++;
    return end;
  };

  let out = "";
  let copied = 0;
  let i = 0;
  while (i < n) {
    // The first of the three forms that matches at this index, in the order the old pattern tried them.
    let end = -1;
    if (boundary(s, i)) {
      end = dottedToken(i);
      if (end === -1) end = hexToken(i);
      if (end === -1) end = base64Token(i);
    }
    if (end !== -1) {
      out += `${s.slice(copied, i)}${FILTERED}`;
      copied = i = end;
    } else i++;
  }
  return copied === 0 ? s : out + s.slice(copied);
}

/**
 * The first `max` characters of a string and whether it was cut. A cut can leave the start of a secret too short
 * for the patterns to recognise (half a session seal, `dana@harbo`), so the run of secret-looking characters the
 * cut went through is dropped as well.
 */
function truncate(value: string, max: number) {
  if (value.length <= max) return { text: value, cut: 0 };
  let end = max;
  while (end > 0 && isSecretish(value.charCodeAt(end - 1)) && isSecretish(value.charCodeAt(end))) end--;
  // Do not split a surrogate pair.
  if (end > 0 && (value.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  return { text: value.slice(0, end), cut: value.length - end };
}

/**
 * A string with every secret-looking part replaced, cut to `max` characters first (marked `…[N more
 * characters]`); scrubbing takes time linear in what is kept.
 */
export function scrubString(value: string, max = MAX_TEXT): string {
  const { text, cut } = truncate(value, max);
  const scrubbed = scrubOpaque(scrubEmails(scrubCredentials(scrubSecretPairs(scrubCookiePairs(text)))));
  return cut ? `${scrubbed}…[${cut} more characters]` : scrubbed;
}

/** A URL or path without its query string and fragment (they may hold tokens). */
const withoutQuery = (url: string) => {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
};

/** A URL or path without its query string and fragment, cut to `max` and scrubbed. */
export function stripQuery(url: string, max = MAX_PATH): string {
  return scrubString(withoutQuery(url), max);
}

/**
 * A tag value: at most MAX_TAG characters (Sentry drops longer ones), cut before scrubbing with room for the
 * mark; the final slice only shortens what is already scrubbed.
 */
export function scrubTag(value: string): string {
  return scrubString(value, MAX_TAG - 32).slice(0, MAX_TAG);
}

/** A URL or path as a tag value: without its query string, cut and scrubbed. */
export function pathTag(url: string): string {
  return scrubTag(withoutQuery(url));
}

/** At most this many keys of an object, or items of an array, are kept (the rest are counted). */
const MAX_ENTRIES = 100;

function scrubValue(value: unknown, depth = 0): unknown {
  if (depth > 8) return FILTERED;
  if (typeof value === "string") return scrubString(value);
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ENTRIES).map((v) => scrubValue(v, depth + 1));
    return value.length > MAX_ENTRIES ? [...kept, `…[${value.length - MAX_ENTRIES} more items]`] : kept;
  }
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    let count = 0;
    for (const [k, v] of Object.entries(value)) {
      if (++count > MAX_ENTRIES) {
        out["…"] = "[more keys]";
        break;
      }
      // A key is matched on its first 100 characters: SENSITIVE_KEY's alternatives each run once per index.
      out[scrubString(k, 100)] = SENSITIVE_KEY.test(k.slice(0, 100)) ? FILTERED : scrubValue(v, depth + 1);
    }
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
      if (SAFE_HEADERS.has(k.toLowerCase())) headers[k] = scrubString(String(v), MAX_PATH);
    event.request = { method: r.method, url: r.url ? stripQuery(r.url) : undefined, headers };
  }
  if (event.user) event.user = event.user.id !== undefined ? { id: event.user.id } : undefined;
  if (event.message) event.message = scrubString(event.message);
  if (event.logentry?.message)
    event.logentry = { ...event.logentry, message: scrubString(event.logentry.message) };
  if (event.transaction) event.transaction = pathTag(event.transaction);
  for (const ex of event.exception?.values ?? []) {
    if (ex.type) ex.type = scrubString(ex.type, MAX_TAG);
    if (ex.value) ex.value = scrubString(ex.value);
    for (const frame of ex.stacktrace?.frames ?? []) {
      delete frame.vars;
      if (frame.abs_path) frame.abs_path = stripQuery(frame.abs_path);
      if (frame.filename) frame.filename = stripQuery(frame.filename);
      if (frame.function) frame.function = scrubString(frame.function, MAX_TAG);
    }
  }
  if (event.extra) event.extra = scrubValue(event.extra) as typeof event.extra;
  if (event.contexts) {
    // The trace context is ids the SDK made (hex), never user data; the rest is scrubbed.
    const { trace, ...rest } = event.contexts;
    event.contexts = { ...(scrubValue(rest) as typeof rest), ...(trace ? { trace } : {}) };
  }
  if (event.tags)
    event.tags = Object.fromEntries(
      Object.entries(event.tags).map(([k, v]) => [
        k,
        SENSITIVE_KEY.test(k) ? FILTERED : typeof v === "string" ? scrubTag(v) : v,
      ]),
    ) as typeof event.tags;
  // Breadcrumbs (console lines, fetches with their URLs) are not needed to triage and may hold anything.
  delete event.breadcrumbs;
  delete event.server_name;
  return event;
}
