import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { z } from "zod";
import { ApiError } from "./api-error";
import { isStaffEmail } from "./config.server";
import type { SessionUser } from "./session.server";
import { getPublicApi } from "./upstream.server";

/** The user as the upstream's GET /user (and login endpoints) answer it, camelCased. */
export const apiUserSchema = z.object({
  id: z.number(),
  email: z.string(),
  firstName: z.string().nullish(),
  lastName: z.string().nullish(),
  clientId: z.number().nullable(),
  client: z
    .object({ id: z.number(), name: z.string(), clientType: z.enum(["SMB", "RESI", "LARGE_COMMERCIAL"]) })
    .nullable(),
  isImpersonating: z.boolean(),
  canImpersonate: z.boolean(),
  isClientAdmin: z.boolean(),
  isDemoMode: z.boolean().optional(),
  next: z.string().nullish(),
});
export type ApiUser = z.infer<typeof apiUserSchema>;

export function toSessionUser(u: ApiUser): SessionUser {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName ?? "",
    lastName: u.lastName ?? "",
    clientId: u.clientId,
    client: u.client,
    isStaff: isStaffEmail(u.email),
    isClientAdmin: u.isClientAdmin,
    isImpersonating: u.isImpersonating,
    canImpersonate: u.canImpersonate,
    isDemoMode: u.isDemoMode ?? false,
  };
}

export type AuthResult = { user: SessionUser; apiSession: string; next?: string | null };

async function login(request: Request, path: string, body: Record<string, unknown>): Promise<AuthResult> {
  const { data, apiSession } = await getPublicApi(request).withSessionCookie("POST", path, {
    body,
    schema: apiUserSchema,
  });
  if (!apiSession) throw new ApiError("Got empty body", "empty-body", 200);
  return { user: toSessionUser(data), apiSession, next: data.next };
}

const field = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

/** One remix-auth strategy per way to sign in: password, login code, login link (docs/api-contract.md). */
export const authenticator = new Authenticator<AuthResult>()
  .use(
    new FormStrategy(({ form, request }) =>
      login(request, "/auth/login", {
        email: field(form, "email"),
        password: String(form.get("password") ?? ""),
      }),
    ),
    "password",
  )
  .use(
    new FormStrategy(({ form, request }) =>
      login(request, "/auth/login-code", { email: field(form, "email"), code: field(form, "code") }),
    ),
    "login-code",
  )
  .use(
    new FormStrategy(({ form, request }) =>
      login(request, "/auth/login-link", { token: field(form, "token") }),
    ),
    "login-link",
  );
