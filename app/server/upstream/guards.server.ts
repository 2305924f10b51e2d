import { data, redirect } from "@remix-run/node";
import { loginRedirectUrl } from "~/server/safe-redirect";
import { getSession, type SessionUser } from "./session.server";

/** The signed-in user, or a redirect to `/login?next=<path and query>`. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const session = await getSession(request);
  const user = session.get("user");
  if (!user || !session.get("apiSession")) throw redirect(loginRedirectUrl(request.url));
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
