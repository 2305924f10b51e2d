import { createCookieSessionStorage, createSession, redirect, type Session } from "@remix-run/node";
import { getConfig } from "./config.server";

export type ClientType = "SMB" | "RESI" | "LARGE_COMMERCIAL";

/** Everything pages need about the user, kept in the signed session so no page pays an extra call. */
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
  /** Per-area scratch state that must survive a redirect (wizard steps, receipts). Keep it small. */
  [key: `state:${string}`]: unknown;
};
type FlashData = { toast: Toast };

let storage: ReturnType<typeof createCookieSessionStorage<SessionData, FlashData>> | undefined;

export function sessionStorage() {
  if (!storage) {
    const cfg = getConfig();
    const production = cfg.NODE_ENV === "production";
    storage = createCookieSessionStorage<SessionData, FlashData>({
      cookie: {
        name: production ? "__Host-session" : "session",
        httpOnly: true,
        sameSite: "lax",
        secure: production,
        path: "/",
        secrets: [cfg.SESSION_SECRET],
        maxAge: 60 * 60 * 24 * 7,
      },
    });
  }
  return storage;
}

export type AppSession = Session<SessionData, FlashData>;

/**
 * Verified cookie headers and the data they carry. A page's loaders read the session several times and a
 * signed cookie's data never changes, so each distinct header's signature is checked once (bounded cache).
 */
const verified = new Map<string, Partial<SessionData & Record<string, unknown>>>();
const VERIFIED_MAX = 1000;

export async function getSession(request: Request): Promise<AppSession> {
  const header = request.headers.get("Cookie");
  const hit = header ? verified.get(header) : undefined;
  if (hit) return createSession<SessionData, FlashData>({ ...hit } as SessionData);
  const session = await sessionStorage().getSession(header);
  const data = session.data;
  if (header && Object.keys(data).length > 0) {
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
    verified.set(header, { ...data });
  }
  return session;
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
