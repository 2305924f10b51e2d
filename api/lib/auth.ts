import { parse as parseCookie } from "cookie";
import { Router, type Request, type RequestHandler, type Response } from "express";
import type { DB } from "../db";
import * as clock from "./clock";
import { sha256 } from "./crypto";
import { forbidden, notFound, route, type ApiDeps } from "./http";
import { pathId } from "./ids";
import { signInRefusal } from "../../shared/sign-in-access";

/** Who is calling: the upstream session (the `api_session` cookie), its user and the client it sees. */

export type UserRow = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  client_id: number | null;
  password_hash: string | null;
  is_client_admin: number;
  is_staff: number;
};
export type SessionRow = {
  id: string;
  user_id: number;
  impersonated_client_id: number | null;
  is_demo_mode: number;
};
export type Auth = {
  user: UserRow;
  session: SessionRow;
  /** The client whose data this session sees: the impersonated one for staff, otherwise the user's own. */
  clientId: number | null;
  isStaff: boolean;
  isAdmin: boolean;
};

export const SESSION_COOKIE = "api_session";
export const SESSION_DAYS = 7;

/**
 * The `api_session` value, parsed by the `cookie` package: a malformed value (bad percent-encoding, quotes)
 * is kept as it is, so it is just an unknown session (401), never an exception (it used to answer 500).
 */
export function readSessionCookie(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const value = parseCookie(header)[SESSION_COOKIE];
  return value ? value : undefined;
}

export function loadAuth(db: DB, token: string | undefined): Auth | null {
  if (!token) return null;
  const session = db
    .prepare("SELECT * FROM sessions WHERE id = ? AND revoked_at IS NULL AND expires_at > ?")
    .get(sha256(token), clock.now().toISOString()) as SessionRow | undefined;
  if (!session) return null;
  const user = db.prepare("SELECT * FROM users WHERE id = ?").get(session.user_id) as UserRow | undefined;
  if (!user) return null;
  const isStaff = user.is_staff === 1;
  // A session of somebody who may not sign in (rule sign-in-by-client-type) is no session: 401 on every path.
  if (!isStaff && user.client_id !== null) {
    const client = db.prepare("SELECT client_type FROM clients WHERE id = ?").get(user.client_id) as
      { client_type: string } | undefined;
    if (signInRefusal({ isStaff, clientType: client?.client_type })) {
      // Ended for good: a client moved back later does not bring old sessions back.
      db.prepare("UPDATE sessions SET revoked_at = ? WHERE id = ?").run(
        clock.now().toISOString(),
        session.id,
      );
      return null;
    }
  }
  return {
    user,
    session,
    clientId: isStaff ? session.impersonated_client_id : user.client_id,
    isStaff,
    isAdmin: user.is_client_admin === 1,
  };
}

/** Middleware: 401 unless the request carries a live upstream session. Areas get it from sessionRouter. */
const requireAuth =
  (deps: ApiDeps): RequestHandler =>
  (req, res, next) => {
    // The access guard (api/lib/access.ts) may have read the session already for this request.
    const auth = (res.locals.auth as Auth | undefined) ?? loadAuth(deps.db, readSessionCookie(req));
    if (!auth) {
      res.status(401).json({ message: "Not authenticated" });
      return;
    }
    res.locals.auth = auth;
    next();
  };

export const getAuth = (res: Response) => res.locals.auth as Auth;

export function requireStaffAuth(auth: Auth) {
  if (!auth.isStaff) throw forbidden();
}

/** The client id in a path must be the session's (effective) client; anything else is 404, never data. */
export function requireOwnClient(auth: Auth, clientId: number | string) {
  if (auth.clientId === null || pathId(clientId) !== auth.clientId) throw notFound();
  return auth.clientId;
}

/** A handler for a path with `:clientId`: it runs only for the session's own (effective) client (else 404). */
export const ownClientRoute = (
  fn: (clientId: number, req: Request, res: Response) => unknown | Promise<unknown>,
): RequestHandler =>
  route((req, res) => fn(requireOwnClient(getAuth(res), String(req.params.clientId)), req, res));

/**
 * How an area with signed-in routes starts its router: the router, the database, and `auth`, the session check
 * above (401 without a live session). Every request under a path prefix in `guarded` is checked before any
 * route runs, so a route added there cannot forget it. An area whose prefixes would also hold public routes
 * (its own, or another area's: every router shares /api, e.g. /users/:email/login-options) guards none and
 * puts `auth` in front of each signed-in route instead.
 */
export function sessionRouter(deps: ApiDeps, guarded: string[] = []) {
  const r = Router();
  const auth = requireAuth(deps);
  if (guarded.length > 0) r.use(guarded, auth);
  return { r, db: deps.db, auth };
}
