import helmet from "helmet";
import { describe, expect, it } from "vitest";
import { cspHeader, nextNonce, NONCE } from "~/server/http/csp.server";

/** What helmet writes for the same directives, with the nonce it would get from res.locals. */
function helmetHeader(directives: Record<string, string[]>, nonce: string) {
  const middleware = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: Object.fromEntries(
      Object.entries(directives).map(([k, values]) => [
        k,
        values.map((v) => (v === NONCE ? () => `'nonce-${nonce}'` : v)),
      ]),
    ),
  });
  let header = "";
  const res = { setHeader: (_name: string, value: string) => (header = value) };
  middleware({} as never, res as never, () => undefined);
  return header;
}

const DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", NONCE, "https://widget.example"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", "data:"],
  connectSrc: ["'self'", "ws:"],
  frameSrc: ["'none'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'", "https://home.energyops.test"],
};

describe("the page's Content-Security-Policy", () => {
  it("is spelt as helmet spells it, with the request's nonce", () => {
    for (const nonce of ["abc123==", nextNonce()])
      expect(cspHeader(DIRECTIVES)(nonce)).toBe(helmetHeader(DIRECTIVES, nonce));
    const noNonce = { defaultSrc: ["'self'"], scriptSrc: ["'self'"] };
    expect(cspHeader(noNonce)("x")).toBe(helmetHeader(noNonce, "x"));
  });

  it("refuses a policy with the nonce twice", () => {
    expect(() => cspHeader({ scriptSrc: [NONCE], styleSrc: [NONCE] })).toThrow(/once/);
  });
});

describe("nonces", () => {
  it("are 16 random bytes in base64, never the same twice, across pool refills", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const n = nextNonce();
      expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(n, "base64")).toHaveLength(16);
      seen.add(n);
    }
    expect(seen.size).toBe(2000);
  });
});
