import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_PATH,
  MAX_TAG,
  MAX_TEXT,
  pathTag,
  scrubString,
  stripQuery,
} from "~/server/ops/sentry-scrub.server";

/**
 * The patterns the scanner replaced, exactly as they were: the reference of what must still be removed. They
 * backtrack (cubic time on `token-token-…`), so they only ever see the short strings generated here.
 */
const OLD = {
  SECRET_PAIR:
    /\b((?:[\w-]*token|password|passwd|pwd|secret|code|session|sid|auth|key|email|otp)[\w-]*)=([^&\s"'<>;,)\]}]+)/gi,
  BEARER: /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g,
  EMAIL: /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g,
  COOKIE_PAIR: /\b(__(?:Host|Secure)-[\w-]+)=([^;\s]+)/g,
  OPAQUE: /\b[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_.-]{10,}\b|\b[A-Fa-f0-9]{32,}\b|\b[A-Za-z0-9+/_-]{40,}={0,2}/g,
};
const oldScrub = (value: string) =>
  value
    .replace(OLD.COOKIE_PAIR, "$1=[Filtered]")
    .replace(OLD.SECRET_PAIR, "$1=[Filtered]")
    .replace(OLD.BEARER, "$1 [Filtered]")
    .replace(OLD.EMAIL, "[email]")
    .replace(OLD.OPAQUE, "[Filtered]");

/** Pieces the patterns care about, so that generated strings hit every branch (and its near misses). */
const PIECES = [
  "token",
  "Token",
  "password",
  "pwd",
  "secret",
  "code",
  "session",
  "sid",
  "auth",
  "key",
  "email",
  "otp",
  "my_",
  "x-",
  "-",
  "_",
  "=",
  "==",
  "&",
  ";",
  " ",
  "\t",
  "\u00a0",
  '"',
  "'",
  "<",
  ")",
  "]",
  "}",
  ",",
  "?",
  "#",
  "/",
  "+",
  "%",
  ".",
  "@",
  "a",
  "Z",
  "9",
  "f",
  "0123456789abcdef",
  "abcdefghij",
  "ABCDEFGHIJKLMNOPQRST",
  "__Host-",
  "__Secure-",
  "Bearer",
  "Basic",
  "harbor.test",
  "co",
  "[Filtered]",
  "é",
  "\u2028",
];
const hostileString = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 3 })), { maxLength: 40 })
  .map((parts) => parts.join(""));

describe("scrubString removes what the old patterns removed", () => {
  it("the same output as the old patterns on generated strings", () => {
    fc.assert(
      fc.property(hostileString, (value) => {
        expect(scrubString(value)).toBe(oldScrub(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it("the same output on every secret the existing examples hold", () => {
    for (const value of [
      "failed for dana@harborcoffee.test with Bearer abc.def.ghi",
      "GET /api/user/password/token/validate?token=reset-token-123456 failed; password=hunter2hunter2",
      "cookie was __Host-session=v1.c2VjcmV0LXNlYWxlZC1zZXNzaW9uLWNvb2tpZS12YWx1ZQ",
      "Authorization: Basic ZGFuYTpodW50ZXIy and x-api-key=k3y&reset_token=t0k3n",
      "jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig",
      "sid=abc; connect.sid=s%3Aabc; otp=123456, email=dana%40harborcoffee.test",
      "hex 0123456789abcdef0123456789abcdef0123 and base64 QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0123456789==",
    ])
      expect(scrubString(value)).toBe(oldScrub(value));
  });
});

describe("bounded input", () => {
  it("cuts long strings before scrubbing and says how much was cut", () => {
    const long = `failed: ${"x ".repeat(5000)}`;
    const out = scrubString(long);
    expect(out.length).toBeLessThan(MAX_TEXT + 40);
    expect(out).toMatch(/…\[\d+ more characters\]$/);
    expect(stripQuery(`/a/${"b/".repeat(4000)}?token=x`).length).toBeLessThan(MAX_PATH + 40);
    expect(pathTag(`/${"segment/".repeat(100)}`).length).toBeLessThanOrEqual(MAX_TAG);
  });

  it("a secret the cut goes through leaves no fragment behind", () => {
    const secrets = [
      "v1.c2VjcmV0LXNlYWxlZC1zZXNzaW9uLWNvb2tpZS12YWx1ZQ",
      "0123456789abcdef0123456789abcdef",
      "dana@harborcoffee.test",
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
    ];
    for (const secret of secrets)
      for (let at = 1; at < secret.length; at++) {
        const value = `${"x ".repeat(100)}${secret}${" tail".repeat(20)}`;
        const out = scrubString(value, 200 + at);
        // The whole secret goes with the cut, not only the part after it.
        expect(out, `${secret} cut after ${at}`).toBe(
          `${"x ".repeat(100)}…[${value.length - 200} more characters]`,
        );
      }
  });

  it("short strings are not marked", () => {
    expect(scrubString("/locations/101/usage")).toBe("/locations/101/usage");
  });
});
