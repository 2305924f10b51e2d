/** Every sign-in message (the sign-in rules of docs/rules.md), word for word (no dependencies: browser-safe). */
export const AUTH_MESSAGES = {
  invalidEmail: "Please enter a valid email address",
  wrongPassword: "Your email or password is incorrect",
  unknownEmail: "We could not find an account for that email address",
  resi: "Login has not yet been enabled for this account",
  somethingWrong: "Something went wrong",
  linkSent: "A login link will be sent if there is an account connected to this email address",
  codeSent: "We've sent a 6-digit code to your email. Please enter it to log in.",
  resetSent: "Check your email for a link to reset your password.",
  codeRequestFailed: "Oops! Something went wrong.",
  resetRequestFailed: "Unexpected error. Please try again.",
  invalidToken: "Invalid token. Please try again.",
  passwordMin: "Password must contain at least 8 characters",
  passwordsMatch: "Passwords must match",
  passwordChanged: "Password successfully changed",
  resetFailed: "We couldn't change your password. Please try again or request a new link.",
} as const;

/**
 * Why no sign-in email comes for a while (rule sign-in-mail-limit): this browser's address asked for several
 * for this email address within the limits' windows. Said the same whether or not an account exists.
 */
export function signInMailWaitText(seconds: number) {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const wait =
    minutes >= 120 ? `${Math.ceil(minutes / 60)} hours` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `You have asked for several sign-in emails for this address in a short time. To protect the inbox, no more are sent from here for ${wait}. If there is an account for this address, use the most recent email it received, and check the spam folder.`;
}

/**
 * The standard email pattern, for the browser (Continue is enabled only when it matches). The server checks
 * the same field with Zod's email rule; this pattern accepts the same everyday addresses.
 */
const EMAIL = /^(?!\.)(?!.+\.\.)([A-Z0-9_'+\-.]*)[A-Z0-9_+-]@([A-Z0-9][A-Z0-9-]*\.)+[A-Z]{2,}$/i;
export const looksLikeEmail = (value: string) => value.length <= 254 && EMAIL.test(value.trim());

export type LoginIntent = "password" | "link" | "request-code" | "code" | "reset";
export const LOGIN_INTENTS: LoginIntent[] = ["password", "link", "request-code", "code", "reset"];

/**
 * The login page that goes on to `next` once signed in (`/login` alone for the home page). Here, beside the
 * messages, because the login page's components need it in the browser and auth.ts brings zod with it.
 */
export const loginPath = (next: string) =>
  next === "/" ? "/login" : `/login?next=${encodeURIComponent(next)}`;
