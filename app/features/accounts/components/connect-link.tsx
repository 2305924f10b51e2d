import { Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { withQuery } from "~/lib/query";
import { useHydrated } from "~/ui/use-hydrated";

/**
 * "Connect Utility Accounts": the /authorize-arcadia page without JavaScript; with it, the same flow opens in
 * the shell's dialog (`?connect=1` on the current page).
 */
export function ConnectLink({ children, className }: { children: ReactNode; className?: string }) {
  const hydrated = useHydrated();
  const location = useLocation();
  return (
    <Link
      to={hydrated ? location.pathname + withQuery(location.search, { connect: "1" }) : "/authorize-arcadia"}
      className={className}
      preventScrollReset
    >
      {children}
    </Link>
  );
}

/** Where closing the dialog goes: the current page without `connect`. */
export function connectCloseHref(pathname: string, search: string) {
  return pathname + withQuery(search, { connect: null });
}
