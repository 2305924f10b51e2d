import { z } from "zod";
import { ApiError } from "~/server/api-error";
import type { ApiClient } from "~/server/api-client.server";
import { parseForm } from "~/server/forms.server";
import {
  emailSchema,
  loginActionSchema,
  LOGIN_OPTIONS_RETRIES,
  resetPasswordSchema,
  type LoginOption,
  type LoginOptionsOutcome,
} from "./auth";

const optionsSchema = z.object({
  items: z.array(z.string()).default([]),
  error: z.string().nullish(),
});

/** GET /users/{email}/login-options with up to 3 retries (none for mycor/resi, none for a plain "no account"). */
export async function getLoginOptions(api: ApiClient, email: string): Promise<LoginOptionsOutcome> {
  for (let attempt = 0; attempt <= LOGIN_OPTIONS_RETRIES; attempt++) {
    try {
      const res = await api.get(`/users/${encodeURIComponent(email)}/login-options`, {
        schema: optionsSchema,
      });
      if (res.error === "mycor") return { kind: "mycor" };
      if (res.error === "resi") return { kind: "resi" };
      const options = res.items.filter(
        (o): o is LoginOption => o === "password" || o === "login_link" || o === "login_code",
      );
      return { kind: "options", options };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 404) return { kind: "unknown" };
      if (error.kind === "aborted") throw error;
      // A timeout has spent the whole time budget of the page: retry only failures that answer fast.
      if (error.kind === "timeout") return { kind: "failed" };
      if (attempt === LOGIN_OPTIONS_RETRIES) return { kind: "failed" };
    }
  }
  return { kind: "failed" };
}

export const requestLoginLink = (api: ApiClient, email: string, next: string) =>
  api.post("/auth/login-link/request", { body: { email, next } });
export const requestLoginCode = (api: ApiClient, email: string) =>
  api.post("/auth/login-code/request", { body: { email } });
export const requestPasswordReset = (api: ApiClient, email: string) =>
  api.post("/auth/password-reset/request", { body: { email } });

export const validateResetToken = (api: ApiClient, token: string) =>
  api.get("/user/password/token/validate", { query: { token } });

const resetAnswer = z.object({ message: z.string() });
export const resetPassword = (api: ApiClient, token: string, password: string, confirmPassword: string) =>
  api.post("/user/password/reset", {
    body: { token, password, confirmPassword },
    schema: resetAnswer,
  });

export const logoutUpstream = (api: ApiClient) => api.post("/auth/logout");

// Form parsing lives here, server-only, so the sign-in pages never ship zod or Conform to the browser.
export const parseEmail = (value: FormDataEntryValue | null) => emailSchema.safeParse({ email: value });
export const parseLoginAction = (form: FormData) => parseForm(form, { schema: loginActionSchema });
export const parseResetPassword = (form: FormData) => parseForm(form, { schema: resetPasswordSchema });
