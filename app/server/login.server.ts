import { redirect } from "@remix-run/node";
import type { AuthResult } from "./auth.server";
import { commitSession, newSession } from "./session.server";
import { safeRedirect } from "./safe-redirect";

/** A new session for a fresh login (the old cookie's data is dropped), then the safe `next`. */
export async function completeLogin(result: AuthResult, next: string | null | undefined) {
  const session = await newSession();
  session.set("user", result.user);
  session.set("apiSession", result.apiSession);
  return redirect(safeRedirect(next ?? result.next ?? "/"), {
    headers: { "Set-Cookie": await commitSession(session) },
  });
}
