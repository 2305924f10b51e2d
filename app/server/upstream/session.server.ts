import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { createSession, redirect, type Session } from "@remix-run/node";
import { parse as parseCookie, serialize as serializeCookie } from "cookie";
import { getConfig } from "~/server/config.server";

export type ClientType = "SMB" | "RESI" | "LARGE_COMMERCIAL";

/** Everything pages need about the user, kept in the encrypted session so no page pays an extra call. */
export type SessionUser = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  clientId: number | null;
  client: { id: number; name: string; clientType: ClientType } | null;
  isStaff: boolean;
  isClientAdmin: boolean;
  isImpersonating: boolean;
  canImpersonate: boolean;
  isDemoMode: boolean;
};

export type Toast = { kind: "success" | "error" | "info" | "warning"; message: string };

export type SessionData = {
  user: SessionUser;
  apiSession: string;
  vendorAlertDismissed: boolean;
  /**
   * The mark (`linkMark`, features/auth/sign-in.server.ts) of the emailed login link that started this session: the same link
   * opened again, now spent, goes on to its page instead of failing (rule token-login-failure).
   */
  signInLink: string;
  /** Per-area scratch state that must survive a redirect (wizard steps, receipts). Keep it small. */
  [key: `state:${string}`]: unknown;
};
type FlashData = { toast: Toast };

const MAX_AGE_SECONDS = 60 * 60 * 24 * 7;
const FORMAT = "v1";

/** AES-256-GCM keys derived from a secret (HKDF-SHA-256); the first encrypts, all decrypt (secret rotation). */
export function deriveSessionKeys(secrets: string[]) {
  return secrets.map((secret) =>
    Buffer.from(hkdfSync("sha256", secret, "energyops session cookie", `aes-256-gcm ${FORMAT}`, 32)),
  );
}

/** `v1.` + base64url(iv ‖ ciphertext ‖ tag) of `{ d: data, e: expiry }`; the cookie name is authenticated too. */
export function sealSessionData(data: unknown, key: Buffer, name: string, maxAgeSeconds = MAX_AGE_SECONDS) {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(name));
  const plain = Buffer.from(JSON.stringify({ d: data, e: Date.now() + maxAgeSeconds * 1000 }));
  const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return `${FORMAT}.${sealed.toString("base64url")}`;
}

/** The data of a sealed value, or null when it is malformed, tampered with, expired or sealed with another key. */
export function openSessionData(value: string, keys: Buffer[], name: string) {
  return openSealed(value, keys, name)?.data ?? null;
}

function openSealed(
  value: string,
  keys: Buffer[],
  name: string,
): { data: Record<string, unknown>; expires: number } | null {
  if (!value.startsWith(`${FORMAT}.`) || value.length > 8192) return null;
  const sealed = Buffer.from(value.slice(FORMAT.length + 1), "base64url");
  if (sealed.length < 12 + 16 + 1) return null;
  for (const key of keys) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, 12));
      decipher.setAAD(Buffer.from(name));
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      const plain = Buffer.concat([
        decipher.update(sealed.subarray(12, sealed.length - 16)),
        decipher.final(),
      ]);
      const parsed = JSON.parse(plain.toString("utf8")) as { d?: unknown; e?: unknown };
      if (typeof parsed.e !== "number" || parsed.e <= Date.now()) return null;
      return parsed.d && typeof parsed.d === "object"
        ? { data: parsed.d as Record<string, unknown>, expires: parsed.e }
        : null;
    } catch {
      /* not this key (or tampered): try the next */
    }
  }
  return null;
}

type Storage = {
  getSession(cookieHeader?: string | null): Promise<Session<SessionData, FlashData>>;
  /** The session data of a cookie header and when it expires, or null (no, or no valid, session cookie). */
  open(cookieHeader: string): { data: Record<string, unknown>; expires: number } | null;
  commitSession(session: Session<SessionData, FlashData>, options?: { maxAge?: number }): Promise<string>;
  destroySession(session: Session<SessionData, FlashData>): Promise<string>;
};
let storage: Storage | undefined;

/** Production's session cookie is Secure (`__Host-`): browsers keep it only over HTTPS (and, most, on localhost). */
export const secureSessionCookie = () => getConfig().NODE_ENV === "production";

/**
 * Cookie sessions whose payload is encrypted and authenticated (AES-256-GCM, key from SESSION_SECRET by HKDF;
 * SESSION_SECRET_PREVIOUS still opens cookies during a rotation). ADR 0008.
 */
export function sessionStorage(): Storage {
  if (!storage) {
    const cfg = getConfig();
    const production = secureSessionCookie();
    const name = production ? "__Host-session" : "session";
    const keys = deriveSessionKeys([
      cfg.SESSION_SECRET,
      ...(cfg.SESSION_SECRET_PREVIOUS ? [cfg.SESSION_SECRET_PREVIOUS] : []),
    ]);
    const attributes = { httpOnly: true, sameSite: "lax", secure: production, path: "/" } as const;
    const open = (cookieHeader: string) => {
      const value = parseCookie(cookieHeader)[name];
      return value ? openSealed(value, keys, name) : null;
    };
    storage = {
      open,
      async getSession(cookieHeader) {
        const opened = cookieHeader ? open(cookieHeader) : null;
        return createSession<SessionData, FlashData>((opened?.data ?? {}) as SessionData);
      },
      async commitSession(session, options = {}) {
        const maxAge = options.maxAge ?? MAX_AGE_SECONDS;
        const header = serializeCookie(name, sealSessionData(session.data, keys[0], name, maxAge), {
          ...attributes,
          maxAge,
        });
        if (header.length > 4096)
          throw new Error(`Cookie length will exceed browser maximum. Length: ${header.length}`);
        return header;
      },
      async destroySession() {
        return serializeCookie(name, "", { ...attributes, maxAge: 0, expires: new Date(0) });
      },
    };
  }
  return storage;
}

export type AppSession = Session<SessionData, FlashData>;

/**
 * Verified cookie headers and the data they carry. A page's loaders read the session several times and a
 * sealed cookie's data never changes, so each distinct header is decrypted once (bounded cache; an entry past
 * the cookie's own expiry is dropped).
 */
const verified = new Map<string, { data: Partial<SessionData & Record<string, unknown>>; expires: number }>();
const VERIFIED_MAX = 1000;

export async function getSession(request: Request): Promise<AppSession> {
  const header = request.headers.get("Cookie");
  if (!header) return sessionStorage().getSession(null);
  let hit = verified.get(header);
  if (hit && hit.expires <= Date.now()) {
    verified.delete(header);
    hit = undefined;
  }
  if (!hit) {
    const opened = sessionStorage().open(header);
    if (!opened) return createSession<SessionData, FlashData>({} as SessionData);
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
    hit = { data: opened.data as Partial<SessionData>, expires: opened.expires };
    verified.set(header, hit);
  }
  return createSession<SessionData, FlashData>(structuredClone(hit.data) as SessionData);
}
export const commitSession = (session: AppSession) => sessionStorage().commitSession(session);
export const destroySession = (session: AppSession) => sessionStorage().destroySession(session);

/** A brand-new session (never reusing the old cookie's data) for a fresh login. */
export const newSession = () => sessionStorage().getSession(null);

export async function getSessionUser(request: Request) {
  const session = await getSession(request);
  return session.get("user") ?? null;
}

/** Sets a flash toast on the request's session and redirects, carrying the cookie. */
export async function redirectWithToast(request: Request, to: string, toast: Toast, init: ResponseInit = {}) {
  const session = await getSession(request);
  session.flash("toast", toast);
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await commitSession(session));
  return redirect(to, { ...init, headers });
}

/** Headers carrying a flash toast, for an action that answers in place. */
export async function toastHeaders(request: Request, toast: Toast) {
  const session = await getSession(request);
  session.flash("toast", toast);
  return { "Set-Cookie": await commitSession(session) };
}
