import { CLIENT, DEMO_PASSWORD, USER } from "../../api/db/seed/ids";
import type { SessionUser } from "../../app/server/upstream/session.server";

/** Dana of the demo data as the web session holds her (client admin of Harbor Coffee Co.). */
export const DANA_SESSION_USER: SessionUser = {
  id: USER.dana,
  email: "dana@harborcoffee.test",
  firstName: "Dana",
  lastName: "Reyes",
  clientId: CLIENT.harbor,
  client: { id: CLIENT.harbor, name: "Harbor Coffee Co.", clientType: "SMB" },
  isStaff: false,
  isClientAdmin: true,
  isImpersonating: false,
  canImpersonate: false,
  isDemoMode: false,
};

/** Morgan of the demo data as the web session holds them (staff, may impersonate any client). */
export const MORGAN_SESSION_USER: SessionUser = {
  ...DANA_SESSION_USER,
  id: USER.morgan,
  email: "morgan@energyops.test",
  firstName: "Morgan",
  lastName: "Lee",
  clientId: null,
  client: null,
  isStaff: true,
  isClientAdmin: false,
  canImpersonate: true,
};

/** The api session of a demo user who signs in to the api at `apiUrl` with the demo password. */
export async function apiSessionOf(apiUrl: string, email: string): Promise<string> {
  const res = await fetch(`${apiUrl}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("api_session="))!;
  return cookie.split(";")[0].slice("api_session=".length);
}

/**
 * The web's session cookie (`name=value`) of `user` holding `apiSession`. Imports the session module when
 * called, so a test sets SESSION_SECRET first.
 */
export async function webSessionCookie(user: SessionUser, apiSession: string): Promise<string> {
  const sessions = await import("../../app/server/upstream/session.server");
  const session = await sessions.sessionStorage().getSession(null);
  session.set("user", user);
  session.set("apiSession", apiSession);
  return (await sessions.commitSession(session)).split(";")[0];
}
