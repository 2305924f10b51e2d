import { Form, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { withQuery } from "~/lib/query";
import { useHydrated } from "~/ui/use-hydrated";
import { SubmitButton } from "~/ui/pending";

/**
 * "Connect Utility Accounts": a POST (a button in a form) to the connect page's action, which records the
 * opening (Bill Monitoring in progress, onboarding task step 1) and then shows the flow: the /authorize-arcadia
 * page without JavaScript; with it, the same flow in the shell's dialog (`?connect=1` on the current page,
 * sent as `next`). A GET of the flow never records anything.
 */
export function ConnectLink({
  children,
  className,
  building,
}: {
  children: ReactNode;
  className?: string;
  /** The location new accounts go to (a location's page): the flow starts with it chosen (rule connect-keeps-location). */
  building?: number;
}) {
  const hydrated = useHydrated();
  const location = useLocation();
  return (
    <Form method="post" action="/authorize-arcadia" className="connect-open" preventScrollReset>
      <input type="hidden" name="intent" value="opened" />
      {building ? <input type="hidden" name="building" value={building} /> : null}
      {hydrated ? (
        <input
          type="hidden"
          name="next"
          value={
            location.pathname +
            withQuery(location.search, { connect: "1", connect_at: building ? String(building) : null })
          }
        />
      ) : null}
      <SubmitButton className={className}>{children}</SubmitButton>
    </Form>
  );
}

/** Where closing the dialog goes: the current page without `connect`. */
export function connectCloseHref(pathname: string, search: string) {
  return pathname + withQuery(search, { connect: null, connect_at: null });
}
