import { Form, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { withQuery } from "~/lib/query";
import { useHydrated } from "~/ui/use-hydrated";

/**
 * "Connect Utility Accounts": a POST (a button in a form) to the connect page's action, which records the
 * opening (Bill Monitoring in progress, onboarding task step 1) and then shows the flow: the /authorize-arcadia
 * page without JavaScript; with it, the same flow in the shell's dialog (`?connect=1` on the current page,
 * sent as `next`). A GET of the flow never records anything.
 */
export function ConnectLink({ children, className }: { children: ReactNode; className?: string }) {
  const hydrated = useHydrated();
  const location = useLocation();
  return (
    <Form method="post" action="/authorize-arcadia" className="connect-open" preventScrollReset>
      <input type="hidden" name="intent" value="opened" />
      {hydrated ? (
        <input
          type="hidden"
          name="next"
          value={location.pathname + withQuery(location.search, { connect: "1" })}
        />
      ) : null}
      <button type="submit" className={className}>
        {children}
      </button>
    </Form>
  );
}

/** Where closing the dialog goes: the current page without `connect`. */
export function connectCloseHref(pathname: string, search: string) {
  return pathname + withQuery(search, { connect: null });
}
