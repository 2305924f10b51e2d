/**
 * Who may have a session (rule sign-in-by-client-type, docs/rules.md). Only customers of small and medium
 * commercial clients (SMB) sign in here: a large commercial client's people were migrated to another application
 * (`mycor`: logged out and sent to /mycor), a residential client's have no login yet (`resi`: "Login has not
 * yet been enabled for this account"). Staff sign in whatever client they look at. The api applies it to every
 * way into a session (password, code, link, a session already open) and to every sign-in email; the web tier
 * applies it again to the session it keeps, so neither alone has to be right.
 */
export type SignInRefusal = "mycor" | "resi";

export function signInRefusal(person: {
  isStaff: boolean;
  clientType: string | null | undefined;
}): SignInRefusal | null {
  if (person.isStaff) return null;
  if (person.clientType === "LARGE_COMMERCIAL") return "mycor";
  if (person.clientType === "RESI") return "resi";
  return null;
}
