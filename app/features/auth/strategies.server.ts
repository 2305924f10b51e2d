import { Authenticator } from "remix-auth";
import { SignInStrategy, upstreamLogin, type AuthResult } from "~/server/auth.server";
import { codeSignInSchema, linkSignInSchema, passwordSignInSchema } from "./auth";

/**
 * One remix-auth strategy per way to sign in (docs/api-contract.md, "Sign-in"): each owns its form schema and
 * its upstream call.
 */
export const passwordStrategy = new SignInStrategy("password", passwordSignInSchema, ({ value, request }) =>
  upstreamLogin(request, "/auth/login", { email: value.email, password: value.password }),
);

export const loginCodeStrategy = new SignInStrategy("login-code", codeSignInSchema, ({ value, request }) =>
  upstreamLogin(request, "/auth/login-code", { email: value.email, code: value.code }),
);

/** The emailed link: the form's `next` wins over the one the link was requested with. */
export const loginLinkStrategy = new SignInStrategy(
  "login-link",
  linkSignInSchema,
  async ({ value, request }): Promise<AuthResult> => {
    const result = await upstreamLogin(request, "/auth/login-link", { token: value.token });
    return { ...result, next: value.next ?? result.next };
  },
);

export const authenticator = new Authenticator<AuthResult>()
  .use(passwordStrategy)
  .use(loginCodeStrategy)
  .use(loginLinkStrategy);
