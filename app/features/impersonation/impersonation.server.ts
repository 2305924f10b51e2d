import { redirect } from "@remix-run/node";
import { z } from "zod";
import { anonymiseUser } from "~/features/demo-mode/demo-mode";
import type { ApiClient } from "~/server/api-client.server";
import { apiUserSchema, toSessionUser, type ApiUser } from "~/server/auth.server";
import { loginRedirectUrl } from "~/server/safe-redirect";
import { commitSession, destroySession, getSession, newSession, type Toast } from "~/server/session.server";

export const CLIENTS_PAGE_SIZE = 20;

const clientSchema = z.object({
  id: z.number(),
  name: z.string(),
  clientType: z.enum(["SMB", "RESI", "LARGE_COMMERCIAL"]),
});
const clientsPage = z.object({
  items: z.array(clientSchema),
  total: z.number(),
  page: z.number(),
  size: z.number(),
});
export type ClientRow = z.infer<typeof clientSchema>;

export const searchClients = (api: ApiClient, search: string, page: number) =>
  api.get("/clients", { query: { search, page, size: CLIENTS_PAGE_SIZE }, schema: clientsPage });

/** Starts impersonating: the user as the api answers it, and the new upstream session token it issued. */
export const startImpersonation = (api: ApiClient, clientId: number, reason: string) =>
  api.withSessionCookie("POST", "/impersonation", { body: { clientId, reason }, schema: apiUserSchema });

export const stopImpersonation = (api: ApiClient) =>
  api.withSessionCookie("DELETE", "/impersonation", { schema: apiUserSchema });

/**
 * After a 401 (the cookie's upstream session was revoked, e.g. a form resubmitted after a rotation): the
 * login page, the session cleared, as every other upstream call does (getApi's onUnauthorized).
 */
export async function signInAgain(request: Request) {
  const cookie = await destroySession(await getSession(request));
  return redirect(loginRedirectUrl(request.url), { headers: { "Set-Cookie": cookie } });
}

/**
 * A privilege change (impersonation start or stop): a brand-new web session holding the fresh user and the
 * upstream's new session token (the api revoked the old one), so no cookie from before keeps working. An
 * upstream that does not rotate keeps its token. Per-area scratch state of the old session is dropped.
 * Answers the Set-Cookie header value.
 */
export async function rotatedSessionCookie(
  request: Request,
  answer: { data: ApiUser; apiSession: string | undefined },
  toast?: Toast,
) {
  const old = await getSession(request);
  const apiSession = answer.apiSession ?? old.get("apiSession");
  const session = await newSession();
  session.set("user", anonymiseUser(toSessionUser(answer.data)));
  if (apiSession) session.set("apiSession", apiSession);
  if (toast) session.flash("toast", toast);
  return commitSession(session);
}

/**
 * Re-reads the user (GET /user) and writes it into the cookie session, the client name anonymised while demo
 * mode is on. Answers the Set-Cookie header value, with an optional flash toast.
 */
export async function refreshSessionUser(request: Request, api: ApiClient, toast?: Toast) {
  const fresh = toSessionUser(await api.get("/user", { schema: apiUserSchema }));
  const session = await getSession(request);
  session.set("user", anonymiseUser(fresh));
  if (toast) session.flash("toast", toast);
  return commitSession(session);
}

/** The impersonation form: a client and a reason (the api records both in its audit log). */
export const impersonationSchema = z.object({
  clientId: z.coerce.number({ invalid_type_error: "Choose a client" }).int().positive("Choose a client"),
  reason: z
    .string({ required_error: "Please give a reason" })
    .trim()
    .min(3, "Please give a reason (at least 3 characters)")
    .max(500, "Keep the reason under 500 characters"),
});
