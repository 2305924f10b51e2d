import fc from "fast-check";
import { HOSTILE_VALUES } from "../support/inputs";
import { KNOWN_FIELD_NAMES, KNOWN_FIELD_VALUES, type RoutePattern } from "./manifest";

/**
 * Generators of hostile requests. Every generated value is plain data (strings, numbers, arrays) so a failure
 * prints as a readable counter-example and replays from its seed; `{PORT}` stands for the server's port.
 * Where it matters, the benign choice comes first: fast-check shrinks towards the first alternative, so a
 * shrunk counter-example keeps only the hostile parts that cause the failure.
 */

export const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] as const;
export type Method = (typeof METHODS)[number];
export const USERS = ["anonymous", "dana", "morgan"] as const;
export type User = (typeof USERS)[number];

/** How the body's length is declared: truly, or a lie (never longer than sent: the server rightly waits). */
export const LENGTH_MODES = ["true", "smaller", "huge", "garbage", "negative", "twice", "chunked"] as const;

export type FuzzBody = {
  kind: "urlencoded" | "multipart" | "json" | "text" | "bytes";
  /** The body as sent; `latin1` bodies carry raw bytes (one char per byte). */
  text: string;
  encoding: "utf8" | "latin1";
  /** The Content-Type sent: the body's own, a variant, or none. */
  contentType: string | null;
  /** Content-Encoding: gzip with the body gzipped, or only declared. */
  gzip: "no" | "gzipped" | "declared-only";
  length: (typeof LENGTH_MODES)[number];
};

export type FuzzCase = {
  route: string;
  method: Method;
  /** The request target's path, as spelt on the wire. */
  path: string;
  /** `?…` or empty. */
  query: string;
  user: User;
  /** Header name (lower case) → value; absent keys are not sent (Host: the valid one). */
  headers: Record<string, string>;
  body: FuzzBody | null;
};

const EIGHT_KB = 8 * 1024;

/** A value as raw UTF-8 bytes, one latin1 char per byte: what a client puts on the wire unencoded. */
export const rawBytes = (s: string) => Buffer.from(s, "utf8").toString("latin1");
const noNewlines = (s: string) => s.replace(/[\r\n]/g, " ");

const INDICES = [4294967295, 4294967294, 2147483648, 999999999, 100000000, 1000000, 65536, 1000];

// ——— form names ———

const knownName = fc.constantFrom(...KNOWN_FIELD_NAMES);
const bracketIndex = fc
  .tuple(knownName, fc.oneof(fc.constantFrom(...INDICES), fc.integer({ min: 0, max: 2 ** 32 })))
  .map(([base, n]) => `${base}[${n}]`);
const deepNesting = fc
  .tuple(knownName, fc.integer({ min: 2, max: 64 }), fc.constantFrom("[0]", "[a]", "[]", ".a", "[999999]"))
  .map(([base, depth, step]) => base + step.repeat(depth));
const dotted = fc.integer({ min: 2, max: 60 }).map((d) => `a${".b".repeat(d)}`);
const PROTOTYPE_NAMES = [
  "__proto__",
  "__proto__[polluted]",
  "__proto__.polluted",
  "constructor[prototype][polluted]",
  "constructor.prototype.polluted",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "x[__proto__][y]",
  "x[constructor][prototype]",
];
/** Conform's own control fields (its submission intent and serialised form state). */
export const CONFORM_CONTROL = ["__intent__", "__state__"];
const WEIRD_NAMES = [
  "",
  "[]",
  "a[]",
  "a[",
  "a]",
  "a[-1]",
  "a[01]",
  "a[1.5]",
  "a[1e3]",
  "a[0x10]",
  "a..b",
  ".",
];

export const formName: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: knownName, weight: 8 },
  { arbitrary: bracketIndex, weight: 3 },
  { arbitrary: deepNesting, weight: 2 },
  { arbitrary: dotted, weight: 1 },
  { arbitrary: fc.constantFrom(...PROTOTYPE_NAMES), weight: 2 },
  { arbitrary: fc.constantFrom(...CONFORM_CONTROL), weight: 3 },
  { arbitrary: fc.constantFrom(...WEIRD_NAMES), weight: 1 },
  { arbitrary: fc.string({ maxLength: 40, unit: "grapheme" }), weight: 1 },
  { arbitrary: fc.integer({ min: 201, max: 400 }).map((n) => "n".repeat(n)), weight: 1 },
);

// ——— values ———

/** Percent-escapes that decode to invalid UTF-8, or do not decode at all: written to the wire as they are. */
const INVALID_ESCAPES = [
  "%ff",
  "%c3%28",
  "%ed%a0%80",
  "%f8%88%80%80%80",
  "%e2%82",
  "%",
  "%zz",
  "%%",
  "%u0041",
];
const FORMULAS = [
  "=cmd|' /C calc'!A0",
  '=HYPERLINK("http://evil.test","x")',
  "+1+1",
  "-2+3",
  "@SUM(1,1)",
  "\t=1",
  "=1+1;=2",
];
const NUMBERS = [
  "0",
  "-0",
  "-1",
  "1e309",
  "1e-400",
  "9007199254740993",
  "0x10",
  "01",
  " 1",
  "1_000",
  "Infinity",
];

const intentName = fc.oneof(knownName, bracketIndex, deepNesting, fc.constantFrom(...PROTOTYPE_NAMES));
const smallInt = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(...INDICES));
/** Conform intents (`__intent__`): well-formed ones with hostile names and indices, and garbage. */
const conformIntent = fc.oneof(
  fc
    .record({
      type: fc.constantFrom("validate", "reset", "update", "insert", "remove", "reorder", "x"),
      payload: fc.record(
        {
          name: intentName,
          index: smallInt,
          from: smallInt,
          to: smallInt,
          value: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 3 })),
          validated: fc.boolean(),
        },
        { requiredKeys: [] },
      ),
    })
    .map((v) => JSON.stringify(v)),
  fc.constantFrom(
    "null",
    "{",
    "[]",
    '"x"',
    "1",
    "{}",
    '{"type":"insert"}',
    '{"type":"reorder","payload":null}',
  ),
  fc.integer({ min: 1, max: 4000 }).map((d) => "[".repeat(d) + "]".repeat(d)),
);
/** Conform's serialised state (`__state__`): well-formed with hostile keys, and garbage. */
const conformState = fc.oneof(
  fc
    .dictionary(
      fc.constantFrom("validated", "key", "initialValue", "value", "__proto__", "constructor"),
      fc.dictionary(intentName, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      { maxKeys: 4 },
    )
    .map((v) => JSON.stringify(v)),
  fc.constantFrom("null", "{", "[]", "{}", '{"validated":null}', '{"key":"x"}', '{"__proto__":{"x":1}}'),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
);

/** A field value as written in an urlencoded body: already percent-encoded (raw escapes stay raw). */
export const wireValue: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...KNOWN_FIELD_VALUES).map(encodeURIComponent), weight: 6 },
  { arbitrary: fc.constantFrom(...HOSTILE_VALUES).map(encodeURIComponent), weight: 3 },
  { arbitrary: fc.integer({ min: 1000, max: 60_000 }).map((n) => "x".repeat(n)), weight: 1 },
  { arbitrary: fc.constantFrom(...INVALID_ESCAPES), weight: 2 },
  { arbitrary: fc.constantFrom("%00", "a%00b", "%00%00%00"), weight: 1 },
  { arbitrary: fc.constantFrom(...FORMULAS).map(encodeURIComponent), weight: 1 },
  { arbitrary: fc.constantFrom(...NUMBERS).map(encodeURIComponent), weight: 1 },
  { arbitrary: conformIntent.map(encodeURIComponent), weight: 2 },
  { arbitrary: conformState.map(encodeURIComponent), weight: 1 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 50 }).map(encodeURIComponent), weight: 1 },
);

/** A field: any name with any value, or one of Conform's control fields with a value of its own shape. */
const field = fc.oneof(
  { arbitrary: fc.tuple(formName, wireValue), weight: 10 },
  { arbitrary: fc.tuple(fc.constant("__intent__"), conformIntent.map(encodeURIComponent)), weight: 2 },
  { arbitrary: fc.tuple(fc.constant("__state__"), conformState.map(encodeURIComponent)), weight: 1 },
);
const fields = fc.array(field, { maxLength: 12 });

// ——— bodies ———

const decodeLoosely = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

const urlencodedBody = fields.map((list) => list.map(([n, v]) => `${encodeURIComponent(n)}=${v}`).join("&"));

const BOUNDARY = "----fuzzBoundary7MA4YWxk";
const multipartBody = fc
  .tuple(
    fields,
    fc.option(fc.uint8Array({ maxLength: 2048 }), { nil: undefined }),
    fc.constantFrom("closed", "unclosed", "no-headers-end"),
  )
  .map(([list, file, ending]) => {
    const parts = list.map(
      ([n, v]) =>
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${n.replace(/"/g, "%22")}"\r\n\r\n${rawBytes(decodeLoosely(v))}\r\n`,
    );
    if (file)
      parts.push(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="../../x.csv"\r\nContent-Type: application/octet-stream\r\n\r\n${Buffer.from(file).toString("latin1")}\r\n`,
      );
    const end =
      ending === "closed" ? `--${BOUNDARY}--\r\n` : ending === "unclosed" ? "" : `--${BOUNDARY}\r\n`;
    return parts.join("") + end;
  });
const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => rawBytes(JSON.stringify(v))),
  fc.constantFrom('{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"x":1}}}', "{", "[1,"),
  fc.integer({ min: 1, max: 10_000 }).map((d) => "[".repeat(d) + "]".repeat(d)),
  fc.tuple(formName, conformIntent).map(([n, v]) => rawBytes(JSON.stringify({ [n]: v, __intent__: v }))),
);
const bytesBody = fc.uint8Array({ maxLength: 4096 }).map((b) => Buffer.from(b).toString("latin1"));

const CONTENT_TYPE_VARIANTS = [
  "application/x-www-form-urlencoded; charset=utf-16",
  "application/x-www-form-urlencoded;charset=x-unknown",
  "APPLICATION/X-WWW-FORM-URLENCODED",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  `multipart/form-data; boundary="${"b".repeat(70)}"`,
  `multipart/form-data; boundary=${"b".repeat(200)}`,
  "multipart/form-data; boundary=other",
  "application/json",
  "application/json; charset=utf-32",
  "text/plain",
  "text/html",
  "application/octet-stream",
  "application/x-www-form-urlencoded, multipart/form-data",
  "*/*",
  "",
  ";;;",
  "x".repeat(2000),
];

const OWN_TYPE: Record<FuzzBody["kind"], string> = {
  urlencoded: "application/x-www-form-urlencoded",
  multipart: `multipart/form-data; boundary=${BOUNDARY}`,
  json: "application/json",
  text: "text/plain;charset=UTF-8",
  bytes: "application/octet-stream",
};

export const body: fc.Arbitrary<FuzzBody> = fc
  .tuple(
    fc.oneof(
      { arbitrary: urlencodedBody.map((text) => ["urlencoded", text] as const), weight: 6 },
      { arbitrary: multipartBody.map((text) => ["multipart", text] as const), weight: 2 },
      { arbitrary: jsonBody.map((text) => ["json", text] as const), weight: 1 },
      { arbitrary: fc.string({ maxLength: 200 }).map((t) => ["text", rawBytes(t)] as const), weight: 1 },
      { arbitrary: bytesBody.map((text) => ["bytes", text] as const), weight: 1 },
    ),
    fc.oneof(
      { arbitrary: fc.constant<"own">("own"), weight: 8 },
      { arbitrary: fc.constant<"none">("none"), weight: 1 },
      { arbitrary: fc.constantFrom(...CONTENT_TYPE_VARIANTS), weight: 2 },
    ),
    fc.oneof(
      { arbitrary: fc.constant<"no">("no"), weight: 8 },
      { arbitrary: fc.constantFrom<("gzipped" | "declared-only")[]>("gzipped", "declared-only"), weight: 1 },
    ),
    fc.oneof(
      { arbitrary: fc.constant<"true">("true"), weight: 12 },
      { arbitrary: fc.constantFrom(...LENGTH_MODES), weight: 1 },
    ),
  )
  .map(([[kind, text], type, gzip, length]) => ({
    kind,
    text,
    encoding: "latin1" as const,
    contentType: type === "own" ? OWN_TYPE[kind] : type === "none" ? null : type,
    gzip,
    length,
  }));

// ——— headers ———

/** Host spellings: valid first (shrinks there), then invalid names and ports. */
const HOSTS = [
  "127.0.0.1:{PORT}",
  "localhost:{PORT}",
  "localhost",
  "evil.test",
  "127.0.0.1:99999",
  "127.0.0.1:abc",
  "127.0.0.1:",
  "127.0.0.1:-1",
  "127.0.0.1:0",
  "127.0.0.1:{PORT}:{PORT}",
  ":{PORT}",
  "[::1]:{PORT}",
  "[::1",
  "::1",
  "a b",
  "host_with_underscore",
  "user@evil.test",
  "evil.test/path",
  "evil.test?x",
  "evil.test#x",
  "ex%41mple.test",
  rawBytes("bücher.test"),
  "xn--",
  "x".repeat(300),
  `${"a.".repeat(200)}test`,
  "",
  " ",
  "%00",
  "*",
];
const hostValue = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTS), weight: 8 },
  { arbitrary: fc.string({ maxLength: 30 }).map((s) => noNewlines(rawBytes(s))), weight: 1 },
);
const forwardedHost = fc.oneof(
  fc.constantFrom(...HOSTS),
  fc.array(fc.constantFrom(...HOSTS), { minLength: 2, maxLength: 4 }).map((l) => l.join(", ")),
);
const forwardedFor = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.constantFrom("unknown", "1.2.3.4:80", "[::1]:80", "999.1.1.1", "", ",", "a, b, c", "1.1.1.1, 2.2.2.2"),
  fc.array(fc.ipV4(), { minLength: 2, maxLength: 200 }).map((l) => l.join(", ")),
  fc.string({ maxLength: 60 }).map((s) => noNewlines(rawBytes(s))),
);
const forwardedProto = fc.constantFrom(
  "https",
  "http",
  "https, http",
  "HTTPS",
  "javascript",
  "",
  "ftp",
  "x".repeat(500),
);
const cookieGarbage = fc.oneof(
  fc.constantFrom(
    "a=b; c",
    "session=garbage",
    "__Host-session=v1.AAAA",
    "session=v1.%zz",
    "session=; session=x",
    "=; ;=;",
    "session=v1." + "A".repeat(4000),
    'x="unterminated',
    "x=%ff%fe",
  ),
  fc.integer({ min: 4000, max: 14_000 }).map((n) => `big=${"c".repeat(n)}`),
  fc.integer({ min: 50, max: 400 }).map((n) => Array.from({ length: n }, (_, i) => `c${i}=${i}`).join("; ")),
  fc.string({ maxLength: 80 }).map((s) => noNewlines(rawBytes(s))),
);
const secFetchSite = fc.oneof(
  { arbitrary: fc.constant("same-origin"), weight: 8 },
  { arbitrary: fc.constantFrom("none", "same-site", "cross-site", "", "SAME-ORIGIN", "garbage"), weight: 1 },
);
const origin = fc.constantFrom(
  "http://127.0.0.1:{PORT}",
  "null",
  "http://evil.test",
  "garbage",
  "http://[::1",
  "",
);
const accept = fc.constantFrom(
  "text/html",
  "application/json",
  "*/*",
  "text/x-component",
  "text/event-stream",
  "application/pdf",
  ";q=x",
  "x".repeat(4000),
);
const anyHeaderValue = fc.oneof(
  fc.constantFrom(
    "",
    "x".repeat(8000),
    "%00",
    "\u0000",
    "() { :; }; echo x",
    "bytes=0-0",
    "bytes=99999999999-",
  ),
  fc.string({ maxLength: 60 }).map((s) => noNewlines(rawBytes(s))),
);

/** Headers, each absent or hostile; Sec-Fetch-Site is mostly `same-origin` so CSRF does not refuse everything. */
export const headers: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    host: fc.oneof({ arbitrary: hostValue, weight: 10 }, { arbitrary: fc.constant("<absent>"), weight: 1 }),
    "x-forwarded-host": forwardedHost,
    "x-forwarded-for": forwardedFor,
    "x-forwarded-proto": forwardedProto,
    "x-forwarded-port": fc.constantFrom("443", "99999", "abc", "-1"),
    forwarded: fc.constantFrom("for=1.2.3.4;host=evil.test;proto=https", "garbage", 'for="[::1'),
    cookie: cookieGarbage,
    "sec-fetch-site": secFetchSite,
    origin,
    accept,
    "accept-encoding": fc.constantFrom("gzip", "br", "gzip, deflate, br", "identity;q=0", "*;q=0", "x"),
    "accept-language": fc.constantFrom("fr-CH, fr;q=0.9", "x-garbage-000", "*", ";q=2", "a".repeat(2000)),
    referer: fc.constantFrom(
      "http://evil.test/",
      "garbage",
      "http://127.0.0.1:{PORT}/login",
      "x".repeat(4000),
    ),
    "if-none-match": anyHeaderValue,
    "if-modified-since": fc.constantFrom(
      "garbage",
      "Thu, 01 Jan 1970 00:00:00 GMT",
      "Sat, 01 Jan 3000 00:00:00 GMT",
    ),
    range: anyHeaderValue,
    authorization: fc.constantFrom("Bearer x", "Basic !!!", "x".repeat(4000)),
    "x-request-id": fc.constantFrom("", "x".repeat(500), "../../etc", "%00", "a b", "req-1"),
    expect: fc.constantFrom("100-continue", "garbage"),
    "x-http-method-override": fc.constantFrom("DELETE", "PUT", "garbage"),
    "user-agent": anyHeaderValue,
  },
  { requiredKeys: [] },
);

/** The headers a plain same-origin browser form sends: the "benign headers" mode of the focused properties. */
export const benignHeaders: fc.Arbitrary<Record<string, string>> = fc.constant({
  "sec-fetch-site": "same-origin",
});

// ——— paths ———

const NUMERIC_IDS = ["1", "2", "101", "104", "105", "201", "1003", "1011"];

/** A dynamic segment: a valid value of that name first, then hostile ids and 8 KB strings. */
function segmentValue(name: string, valid: Map<string, string[]>): fc.Arbitrary<string> {
  const good = valid.get(name) ?? NUMERIC_IDS;
  return fc.oneof(
    { arbitrary: fc.constantFrom(...good), weight: 8 },
    { arbitrary: fc.constantFrom(...HOSTILE_VALUES).map(encodeURIComponent), weight: 2 },
    { arbitrary: fc.constantFrom(...NUMBERS, "4294967296", "1.5", "1e3").map(encodeURIComponent), weight: 1 },
    { arbitrary: fc.constantFrom("a", "1", "%ff").map((c) => c.repeat(EIGHT_KB / c.length)), weight: 1 },
    { arbitrary: fc.constantFrom(...INVALID_ESCAPES, "%00", "%2f", "%2e%2e"), weight: 1 },
    { arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }).map(encodeURIComponent), weight: 1 },
  );
}

const splat = fc.array(
  fc.oneof(
    fc.constantFrom("x", "login", "..", ".", "%2e%2e", "api", "build", "favicon.ico", "index.html"),
    fc.string({ maxLength: 12 }).map(encodeURIComponent),
  ),
  { minLength: 1, maxLength: 4 },
);

/** The canonical path of a pattern with its dynamic segments filled (optional ones present or not). */
function filledPath(pattern: RoutePattern, valid: Map<string, string[]>): fc.Arbitrary<string> {
  const parts = pattern.segments.map((s) => {
    if (s === "*") return splat.map((l) => l.join("/"));
    if (!s.startsWith(":")) return fc.constant(s);
    const name = s.replace(/^:|\?$/g, "");
    const value = segmentValue(name, valid);
    return s.endsWith("?") ? fc.option(value, { nil: "" }) : value;
  });
  return fc.tuple(...parts).map((ps) => `/${ps.filter(Boolean).join("/")}`);
}

export const SPELLINGS = [
  "double-slash",
  "dot-segment",
  "dot-dot",
  "encoded-dot",
  "encoded-slash",
  "encoded-letter",
  "trailing-slash",
  "upper-case",
  "backslash",
  "semicolon",
  "data-suffix",
  "encoded-nul",
  "pad-8k",
  "absolute-form",
] as const;
type Spelling = (typeof SPELLINGS)[number];

const pctLetter = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`;

/** A non-canonical spelling of a path; `at` picks where in the path it applies. */
export function respell(path: string, spelling: Spelling, at: number): string {
  const slashes = [...path.matchAll(/\//g)].map((m) => m.index!);
  const slash = slashes[at % slashes.length];
  const letters = [...path.matchAll(/[a-z]/gi)].map((m) => m.index!);
  switch (spelling) {
    case "double-slash":
      return `${path.slice(0, slash)}/${path.slice(slash)}`;
    case "dot-segment":
      return `${path.slice(0, slash)}/.${path.slice(slash)}`;
    case "dot-dot":
      return `${path.slice(0, slash)}/x/..${path.slice(slash)}`;
    case "encoded-dot":
      return at % 2 ? path.replace(/\./g, "%2e") : `${path.slice(0, slash)}/%2e${path.slice(slash)}`;
    case "encoded-slash":
      return slash === 0 && slashes.length > 1
        ? path.slice(0, slashes[1]) + "%2F" + path.slice(slashes[1] + 1)
        : path.slice(0, slash) + (slash === 0 ? "/%2f" : "%2f") + path.slice(slash + 1);
    case "encoded-letter": {
      if (letters.length === 0) return path;
      const i = letters[at % letters.length];
      return path.slice(0, i) + pctLetter(path[i]) + path.slice(i + 1);
    }
    case "trailing-slash":
      return path + (at % 2 ? "//" : "/");
    case "upper-case":
      return path.toUpperCase();
    case "backslash":
      return path.replace(/\//g, "\\");
    case "semicolon":
      return `${path};jsessionid=x`;
    case "data-suffix":
      return path === "/" ? "/_root.data" : `${path.replace(/\/$/, "")}.data`;
    case "encoded-nul":
      return `${path}%00`;
    case "pad-8k":
      return at % 2 ? `${path}/${"a".repeat(EIGHT_KB)}` : `/${"a".repeat(EIGHT_KB)}/..${path}`;
    case "absolute-form":
      return `http://127.0.0.1:{PORT}${path}`;
  }
}

const spelling = fc.tuple(fc.constantFrom(...SPELLINGS), fc.nat(64));

// ——— queries ———

const queryName = fc.oneof(
  { arbitrary: knownName, weight: 6 },
  { arbitrary: fc.constantFrom("_data", "_routes", "index", "redirectTo", "next", "callbackUrl"), weight: 2 },
  { arbitrary: bracketIndex, weight: 1 },
  { arbitrary: fc.constantFrom(...PROTOTYPE_NAMES), weight: 1 },
);
function query(routeIds: string[]): fc.Arbitrary<string> {
  const param = fc.oneof(
    { arbitrary: fc.tuple(queryName, wireValue).map(([n, v]) => `${encodeURIComponent(n)}=${v}`), weight: 8 },
    { arbitrary: fc.constantFrom(...routeIds).map((id) => `_data=${encodeURIComponent(id)}`), weight: 1 },
    {
      arbitrary: fc
        .subarray(routeIds, { minLength: 1, maxLength: 4 })
        .map((ids) => `_routes=${ids.map(encodeURIComponent).join(",")}`),
      weight: 1,
    },
    {
      arbitrary: fc.constantFrom("index", "_data", "=", "&&", "a=1=2", `q=${"q".repeat(EIGHT_KB)}`),
      weight: 1,
    },
  );
  return fc.array(param, { maxLength: 5 }).map((ps) => (ps.length ? `?${ps.join("&")}` : ""));
}

// ——— whole requests ———

export type CaseOptions = {
  /** Spell paths non-canonically and fill segments with hostile ids (else: valid ids, canonical). */
  hostilePaths: boolean;
  hostileQueries: boolean;
  hostileHeaders: boolean;
  /** Bodies: none, on mutating methods only, or on any method. */
  bodies: "none" | "mutations" | "any";
  methods?: readonly Method[];
};

export function fuzzCase(
  patterns: RoutePattern[],
  valid: Map<string, string[]>,
  options: CaseOptions,
): fc.Arbitrary<FuzzCase> {
  const routeIds = patterns.filter((p) => !p.id.startsWith("server:")).map((p) => p.id);
  const route = fc.constantFrom(...patterns).chain((pattern) =>
    (options.hostilePaths
      ? fc.tuple(
          filledPath(pattern, valid),
          fc.oneof(
            { arbitrary: fc.constant([] as [Spelling, number][]), weight: 2 },
            { arbitrary: fc.array(spelling, { minLength: 1, maxLength: 3 }), weight: 3 },
          ),
        )
      : fc.tuple(filledPathBenign(pattern, valid), fc.constant([] as [Spelling, number][]))
    ).map(([p, spellings]) => ({
      id: pattern.id,
      path: spellings.reduce((acc, [s, at]) => respell(acc, s, at), p),
    })),
  );
  const methods = options.methods ?? METHODS;
  return fc
    .record({
      route,
      method: fc.constantFrom(...methods),
      query: options.hostileQueries ? query(routeIds) : fc.constant(""),
      user: fc.constantFrom(...USERS),
      headers: options.hostileHeaders ? headers : benignHeaders,
      body: options.bodies === "none" ? fc.constant(null) : fc.option(body, { nil: null, freq: 3 }),
    })
    .map(({ route, method, query, user, headers, body }) => ({
      route: route.id,
      method,
      path: route.path,
      query,
      user,
      headers,
      body: options.bodies === "mutations" && ["GET", "HEAD", "OPTIONS"].includes(method) ? null : body,
    }));
}

function filledPathBenign(pattern: RoutePattern, valid: Map<string, string[]>): fc.Arbitrary<string> {
  const parts = pattern.segments.map((s) => {
    if (s === "*") return fc.constantFrom("x", "no-such-page", "a/b");
    if (!s.startsWith(":")) return fc.constant(s);
    const good = valid.get(s.replace(/^:|\?$/g, "")) ?? NUMERIC_IDS;
    return s.endsWith("?") ? fc.option(fc.constantFrom(...good), { nil: "" }) : fc.constantFrom(...good);
  });
  return fc.tuple(...parts).map((ps) => `/${ps.filter(Boolean).join("/")}`);
}
