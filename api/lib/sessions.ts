import type { Response } from "express";
import { type Auth, SESSION_COOKIE, SESSION_DAYS, loadAuth } from "./auth";
import * as clock from "./clock";
import { randomToken, sha256 } from "./crypto";
import type { ApiDeps } from "./http";

/** The user as GET /user answers it: the effective client is the impersonated one while impersonating. */
export function userJson(
  deps: ApiDeps,
  auth: Pick<Auth, "user" | "session" | "clientId" | "isStaff" | "isAdmin">,
) {
  const client = auth.clientId
    ? (deps.db.prepare("SELECT id, name, client_type FROM clients WHERE id = ?").get(auth.clientId) as
        { id: number; name: string; client_type: string } | undefined)
    : undefined;
  return {
    id: auth.user.id,
    email: auth.user.email,
    first_name: auth.user.first_name,
    last_name: auth.user.last_name,
    client_id: client?.id ?? null,
    client: client ?? null,
    is_impersonating: auth.isStaff && auth.session.impersonated_client_id !== null,
    can_impersonate: auth.isStaff,
    is_client_admin: auth.isAdmin,
    is_demo_mode: auth.session.is_demo_mode === 1,
  };
}

/**
 * Replaces the request's session by a new one (a privilege change: impersonation start and stop) with the
 * given impersonated client and demo mode off: the old token is revoked, the new one is set as the cookie.
 * Answers the new session's auth. Run inside the caller's transaction.
 */
export function rotateSession(deps: ApiDeps, res: Response, old: Auth, impersonatedClientId: number | null) {
  const token = randomToken();
  const now = clock.nowIso();
  deps.db
    .prepare(
      "INSERT INTO sessions (id, user_id, impersonated_client_id, is_demo_mode, created_at, expires_at) VALUES (?, ?, ?, 0, ?, ?)",
    )
    .run(
      sha256(token),
      old.user.id,
      impersonatedClientId,
      now,
      new Date(clock.nowMs() + SESSION_DAYS * 86_400_000).toISOString(),
    );
  deps.db.prepare("UPDATE sessions SET revoked_at = ? WHERE id = ?").run(now, old.session.id);
  res.setHeader(
    "Set-Cookie",
    `${SESSION_COOKIE}=${token}; HttpOnly; Path=/; SameSite=Lax; Max-Age=${SESSION_DAYS * 86400}`,
  );
  return loadAuth(deps.db, token)!;
}
