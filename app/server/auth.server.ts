import type { Submission } from "@conform-to/react";
import { parseForm } from "./forms.server";
import { Strategy } from "remix-auth/strategy";
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

/** Signs in upstream with one of the login endpoints; the api answers the user and sets its session cookie. */
export async function upstreamLogin(
  request: Request,
  path: string,
  body: Record<string, unknown>,
): Promise<AuthResult> {
  const { data, apiSession } = await getPublicApi(request).withSessionCookie("POST", path, {
    body,
    schema: apiUserSchema,
  });
  if (!apiSession) throw new ApiError("Got empty body", "empty-body", 200);
  return { user: toSessionUser(data), apiSession, next: data.next };
}

type SignInSubmission<S extends z.ZodTypeAny> = Submission<z.input<S>, string[], z.output<S>>;

/** A sign-in form the strategy's schema refused; `submission.reply()` gives the form its errors back. */
export class InvalidSignInForm<S extends z.ZodTypeAny = z.ZodTypeAny> extends Error {
  constructor(readonly submission: Exclude<SignInSubmission<S>, { status: "success" }>) {
    super("invalid sign-in form");
  }
}

/**
 * A remix-auth strategy for one way to sign in. It owns its form schema (parsed once, through
 * `parseForm`) and its upstream call (the verify function). `authenticate` reads the request's form
 * itself; a page that has already parsed its form (the login page's union of intents, built from these
 * schemas) hands the parsed value to `signIn`, so no form is read or parsed twice.
 */
export class SignInStrategy<S extends z.ZodTypeAny> extends Strategy<
  AuthResult,
  { value: z.output<S>; request: Request }
> {
  constructor(
    readonly name: string,
    readonly schema: S,
    verify: (params: { value: z.output<S>; request: Request }) => Promise<AuthResult>,
  ) {
    super(verify);
  }

  parse(form: FormData): SignInSubmission<S> {
    return parseForm(form, { schema: this.schema }) as SignInSubmission<S>;
  }

  signIn(value: z.output<S>, request: Request): Promise<AuthResult> {
    return this.verify({ value, request });
  }

  async authenticate(request: Request): Promise<AuthResult> {
    const submission = this.parse(await request.formData());
    if (submission.status !== "success") throw new InvalidSignInForm<S>(submission);
    return this.signIn(submission.value, request);
  }
}
