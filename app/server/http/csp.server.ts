import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";

/**
 * The page's Content-Security-Policy with its per-request script nonce. Helmet rebuilt the whole header from its
 * directive list for every page (the nonce is a function); here it is spelt once, in helmet's format
 * (`name value value;name value`), and each request only puts its nonce in.
 */
export type CspDirectives = Record<string, string[]>;

/** Stands for the request's nonce in a directive's values. */
export const NONCE = "\u0000nonce\u0000";

/** The directive names helmet writes, from its camelCase keys: `scriptSrc` → `script-src`. */
const dashed = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** `(nonce) => header`, for directives whose values may contain NONCE (replaced by `'nonce-…'`). */
export function cspHeader(directives: CspDirectives) {
  const text = Object.entries(directives)
    .map(([name, values]) => [dashed(name), ...values].join(" "))
    .join(";");
  const [before, after, ...more] = text.split(NONCE);
  if (more.length) throw new Error("the nonce may appear once in the policy");
  return after === undefined ? () => text : (nonce: string) => `${before}'nonce-${nonce}'${after}`;
}

/**
 * Nonces: 16 random bytes each, base64, from a pool of crypto-grade bytes drawn 256 nonces at a time (one call
 * into OpenSSL per 256 pages instead of one per page). Each nonce is used once.
 */
const POOL_NONCES = 256;
let pool = Buffer.alloc(0);
let offset = 0;
export function nextNonce() {
  if (offset + 16 > pool.length) {
    pool = randomBytes(16 * POOL_NONCES);
    offset = 0;
  }
  const nonce = pool.toString("base64", offset, offset + 16);
  offset += 16;
  return nonce;
}

/** Express middleware: a fresh nonce in `res.locals.cspNonce` and the policy that allows it. */
export function contentSecurityPolicy(directives: CspDirectives) {
  const header = cspHeader(directives);
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = nextNonce();
    res.locals.cspNonce = nonce;
    res.setHeader("Content-Security-Policy", header(nonce));
    next();
  };
}
