import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";

import { AUTH_MESSAGES } from "./messages";

export const emailSchema = z.object({
  email: z
    .string({ required_error: AUTH_MESSAGES.invalidEmail, invalid_type_error: AUTH_MESSAGES.invalidEmail })
    .trim()
    .max(254, AUTH_MESSAGES.invalidEmail)
    .email(AUTH_MESSAGES.invalidEmail),
});

export const passwordLoginSchema = emailSchema.extend({
  password: z
    .string({ required_error: "Password is required", invalid_type_error: AUTH_MESSAGES.wrongPassword })
    .min(1, "Password is required")
    .max(200, AUTH_MESSAGES.wrongPassword),
});

export const codeLoginSchema = emailSchema.extend({
  code: z
    .string({ required_error: "Enter the 6-digit code", invalid_type_error: "Enter the 6-digit code" })
    .trim()
    .length(6, "Enter the 6-digit code"),
});

export const resetPasswordSchema = z
  .object({
    password: z
      .string({ required_error: AUTH_MESSAGES.passwordMin, invalid_type_error: AUTH_MESSAGES.passwordMin })
      .min(8, AUTH_MESSAGES.passwordMin)
      .max(200, "Password must contain at most 200 characters"),
    confirmPassword: z.string({
      required_error: AUTH_MESSAGES.passwordsMatch,
      invalid_type_error: AUTH_MESSAGES.passwordsMatch,
    }),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: AUTH_MESSAGES.passwordsMatch,
    path: ["confirmPassword"],
  });

/** Where to go after signing in; anything but a string (a file) is no destination (safeRedirect decides). */
const nextField = z.string().optional().catch(undefined);

/**
 * The login page's action: one form per intent, told apart by the submit button's `intent`. Every intent
 * carries the email address (an invalid one is the form's own error) and `next`. The two sign-in intents are
 * the schemas of their remix-auth strategies (login.server.ts, login-link.server.ts).
 */
export const passwordSignInSchema = passwordLoginSchema.extend({
  intent: z.literal("password"),
  next: nextField,
});
export const codeSignInSchema = codeLoginSchema.extend({ intent: z.literal("code"), next: nextField });
/** The login link's Continue form: the emailed token and where to go next. */
export const linkSignInSchema = z.object({ token: z.string().trim().min(1), next: nextField });

/**
 * The login link page's one schema: Continue (the token; `intent` `sign-in`, or none, as the page always
 * posted), or, once the link failed, "Email me a new login link" (an address, `next` kept).
 */
export const linkPageActionSchema = z.union([
  emailSchema.extend({ intent: z.literal("request-link"), next: nextField }),
  linkSignInSchema.extend({ intent: z.literal("sign-in").optional() }),
]);

export const loginActionSchema = z.discriminatedUnion("intent", [
  passwordSignInSchema,
  codeSignInSchema,
  emailSchema.extend({ intent: z.literal("link"), next: nextField }),
  emailSchema.extend({ intent: z.literal("request-code"), next: nextField }),
  emailSchema.extend({ intent: z.literal("reset"), next: nextField }),
]);
export type LoginAction = z.infer<typeof loginActionSchema>;

/** What the login action answers the page (besides the redirect of a sign-in). null intent: an unknown one. */
export type LoginActionData = {
  intent: LoginIntent | null;
  message?: string;
  formError?: string;
  /** Why no sign-in mail goes out for a while (rule sign-in-mail-limit): said, not an error. */
  notice?: string;
  codeRequested?: boolean;
  /** A failure the spec shows as a toast, on the login page that answers the request. */
  toast?: { kind: "error"; message: string };
  lastResult?: SubmissionResult<string[]>;
};

export type LoginOption = "password" | "login_link" | "login_code";

export type LoginOptionsOutcome =
  | { kind: "options"; options: LoginOption[] }
  | { kind: "mycor" }
  | { kind: "resi" }
  | { kind: "unknown" }
  | { kind: "failed" };

/** The login-options lookup is retried up to 3 times, except when the answer is mycor or resi. */
export const LOGIN_OPTIONS_RETRIES = 3;

import type { LoginIntent } from "./messages";

/**
 * Why sign-in cannot work on this address, or null. The session cookie is Secure (and `__Host-`) in
 * production, so a browser keeps it only over HTTPS; over plain HTTP a sign-in "succeeds" and lands back on
 * the login page. Graphical browsers treat localhost as secure, text browsers (lynx, w3m) do not. The address
 * to use instead is the configured public one (`PUBLIC_URL`), never the request's Host, which anyone can set.
 */
export function plainHttpNotice(url: URL, secureCookie: boolean, publicUrl?: string | null): string | null {
  if (!secureCookie || url.protocol !== "http:") return null;
  const secure = publicUrl?.startsWith("https://") ? new URL("/login", publicUrl).href : null;
  if (/^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/.test(url.hostname))
    return `This page was opened over plain HTTP. Most browsers still sign in on this machine, but text browsers such as lynx and w3m do not keep the secure sign-in cookie: use ${secure ?? "HTTPS"}, or another browser.`;
  return `Sign-in needs a secure connection. This page was opened over plain HTTP, so your browser will not keep the sign-in and you would come back to this page. ${secure ? `Open ${secure} instead.` : "Open this site's https:// address instead, or ask whoever runs this site for it."}`;
}

/**
 * An upstream validation error on a form: errors about the form's own fields go next to them; any about a
 * field the form does not show (a token, say) would show nowhere, so the server's text is the form's error.
 */
export function validationReply(
  error: { message: string; fieldErrors: Record<string, string[]> },
  shownFields: readonly string[],
) {
  const fieldErrors = Object.fromEntries(
    Object.entries(error.fieldErrors).filter(([field]) => shownFields.includes(field)),
  );
  const hidden = Object.keys(error.fieldErrors).some((field) => !shownFields.includes(field));
  return { fieldErrors, formErrors: hidden ? [error.message] : [] };
}
