import type { IncomingMessage, ServerResponse } from "node:http";
import { badRequest } from "./bad-request.server";

/**
 * A `Host` (or `X-Forwarded-Host`) value as RFC 9110 allows it: a name (letters, digits, `-`, `.`, `_`, `~`),
 * an IPv4 address or a bracketed IPv6 address, then at most a port from 0 to 65535. Null for anything else:
 * the request URL Remix needs is built from it, and `new URL` throws on `a b` or `h:99999` (a 500 each).
 */
export function parseAuthority(value: string | undefined): { hostname: string; port: string } | null {
  if (value === undefined || value.length === 0 || value.length > 260) return null;
  const m = /^(\[[0-9a-f:.]{2,45}\]|[a-z0-9._~-]{1,253})(?::(\d{1,5}))?$/i.exec(value);
  if (!m) return null;
  const port = m[2] ?? "";
  if (port !== "" && Number(port) > 65535) return null;
  try {
    // The last word on an IPv6 literal or an odd IPv4 spelling.
    new URL(`http://${value}/`);
  } catch {
    return null;
  }
  return { hostname: m[1].toLowerCase(), port };
}

/** The first value of a list header, as express reads it (`a, b` → `a`). */
const firstValue = (header: string | string[] | undefined) =>
  (Array.isArray(header) ? header[0] : header)?.split(",")[0]?.trim();

export type HostCheck =
  { ok: true; protocol: "http" | "https"; authority: string } | { ok: false; reason: string };

/**
 * Where a request was addressed: the `Host` header, or, when the peer is a trusted proxy (`TRUST_PROXY`), its
 * `X-Forwarded-Host` and `X-Forwarded-Proto`. Every value it uses must be well formed; one it does not trust
 * is not read at all.
 */
export function requestAuthority(
  headers: IncomingMessage["headers"],
  { trusted, encrypted }: { trusted: boolean; encrypted: boolean },
): HostCheck {
  const hostHeader = headers.host;
  if (parseAuthority(hostHeader) === null) return { ok: false, reason: "malformed Host header" };
  let authority = hostHeader!;
  let protocol: "http" | "https" = encrypted ? "https" : "http";
  if (trusted) {
    const forwardedHost = firstValue(headers["x-forwarded-host"]);
    if (forwardedHost !== undefined && forwardedHost !== "") {
      if (parseAuthority(forwardedHost) === null)
        return { ok: false, reason: "malformed X-Forwarded-Host header" };
      authority = forwardedHost;
    }
    const forwardedProto = firstValue(headers["x-forwarded-proto"]);
    if (forwardedProto !== undefined && forwardedProto !== "") {
      const proto = forwardedProto.toLowerCase();
      if (proto !== "http" && proto !== "https")
        return { ok: false, reason: "malformed X-Forwarded-Proto header" };
      protocol = proto;
    }
  }
  return { ok: true, protocol, authority };
}

type Req = IncomingMessage & { requestOrigin?: string };

/**
 * Answers 400 to a request whose `Host` (or, from a trusted proxy, `X-Forwarded-Host`/`-Proto`) is malformed,
 * before Remix builds a URL from it; from an untrusted peer the forwarded headers are removed, so neither
 * express, Remix (its action origin check reads `X-Forwarded-Host`) nor a loader can read them. The origin
 * the request was addressed to is left on `req.requestOrigin` for the Remix handler.
 */
export function hostHeaders(trustsPeer: (address: string) => boolean) {
  return (req: Req, res: ServerResponse, next: () => void) => {
    const trusted = trustsPeer(req.socket.remoteAddress ?? "");
    if (!trusted) {
      delete req.headers["x-forwarded-host"];
      delete req.headers["x-forwarded-proto"];
    }
    const check = requestAuthority(req.headers, {
      trusted,
      encrypted: Boolean((req.socket as { encrypted?: boolean }).encrypted),
    });
    if (!check.ok) return badRequest(res, check.reason);
    req.requestOrigin = `${check.protocol}://${check.authority}`;
    next();
  };
}
