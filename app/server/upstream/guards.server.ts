import { data, redirect } from "@remix-run/node";
import { loginRedirectUrl } from "~/server/safe-redirect";
import { signInRefusal } from "../../../shared/sign-in-access";
import { destroySession, getSession, type SessionUser } from "./session.server";
import { revokeUpstreamSession } from "./upstream.server";

/**
 * Where a person who may not have a session goes (rule sign-in-by-client-type): a large commercial client's
 * to the migration page, a residential client's to the login page, whose lookup of their address says
 * "Login has not yet been enabled for this account".
 */
export const refusedSignInPath = (refusal: "mycor" | "resi", email: string) =>
  refusal === "mycor" ? "/mycor" : `/login?email=${encodeURIComponent(email)}`;

/**
 * The signed-in user, or a redirect to `/login?next=<path and query>`. A session of somebody who may not have
 * one (a residential or large commercial client's person: rule sign-in-by-client-type) is ended here, upstream
 * too, whatever page it asks for: they are logged out and sent on as the login page would send them.
 */
export async function requireUser(request: Request): Promise<SessionUser> {
  const session = await getSession(request);
  const user = session.get("user");
  const apiSession = session.get("apiSession");
  if (!user || !apiSession) throw redirect(loginRedirectUrl(request.url));
  const refusal = signInRefusal({ isStaff: user.isStaff, clientType: user.client?.clientType });
  if (refusal) {
    await revokeUpstreamSession(request, apiSession);
    throw redirect(refusedSignInPath(refusal, user.email), {
      headers: { "Set-Cookie": await destroySession(session) },
    });
  }
  return user;
}

/** The main application needs an SMB client; anyone else goes to the index, which sends them on. */
export async function requireSmb(request: Request) {
  const user = await requireUser(request);
  if (user.client?.clientType !== "SMB") throw redirect("/");
  return user as SessionUser & { client: NonNullable<SessionUser["client"]>; clientId: number };
}

/**
 * A signed-in user of any client (SMB, residential, large commercial; staff while impersonating one): the
 * spec gives Manage account, accounts, onboarding and the connect flow "login required" only, so they are
 * not limited to SMB clients like the main screens. No client at all goes to the index, which sends them on.
 */
export async function requireClientUser(request: Request) {
  const user = await requireUser(request);
  if (!user.client || !user.clientId) throw redirect("/");
  return user as SessionUser & { client: NonNullable<SessionUser["client"]>; clientId: number };
}

export async function requireStaff(request: Request) {
  const user = await requireUser(request);
  if (!user.isStaff || !user.canImpersonate) throw data({ message: "Forbidden" }, { status: 403 });
  return user;
}

/** Client admins, and staff while impersonating (Team tab, team access). */
export async function requireTeamManager(request: Request) {
  const user = await requireUser(request);
  if (!(user.isClientAdmin || (user.isStaff && user.isImpersonating)))
    throw data({ message: "Forbidden" }, { status: 403 });
  return user;
}

export const canManageTeam = (user: SessionUser) =>
  user.isClientAdmin || (user.isStaff && user.isImpersonating);
