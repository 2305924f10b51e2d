import { z } from "zod";
import { anonymiseUser } from "~/features/demo-mode/demo-mode";
import type { ApiClient } from "~/server/api-client.server";
import { apiUserSchema, toSessionUser } from "~/server/auth.server";
import { commitSession, getSession, type Toast } from "~/server/session.server";

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

export const startImpersonation = (api: ApiClient, clientId: number, reason: string) =>
  api.post("/impersonation", { body: { clientId, reason }, schema: apiUserSchema });

export const stopImpersonation = (api: ApiClient) => api.delete("/impersonation", { schema: apiUserSchema });

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
