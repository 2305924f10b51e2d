import { useLocation, useNavigate } from "@remix-run/react";
import {
  createContext,
  useCallback,
  useContext,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from "react";

/*
 * Links in the rows of a long table (ADR 0021, amendment of 2026-11-29): the locations table, five a row (expander,
 * name, and the ⋯ menu's three), up to 375 on a page of 75 rows. A Remix `<Link>` resolves its href through the
 * router three times while rendering (its own `useHref`, React Router's, and its click handler's): about 10 µs
 * each on the server, a tenth of the 14-location dashboard's render. Here each row link is a plain anchor and
 * the table owns one click handler that does what `<Link>` does on a click: a plain left click on a same-window
 * link becomes a router navigation (same document, only the page's data fetched); anything else (a new tab, a
 * modifier, a download) is left to the browser. Without JavaScript they are the same links. Elsewhere, `<Link>`.
 */

type Follow = (event: MouseEvent<HTMLAnchorElement>, preventScrollReset: boolean) => void;
const FollowContext = createContext<Follow | null>(null);

/** A click the router should take over, as React Router's `<Link>` decides it. */
export function isPlainClick(event: {
  defaultPrevented: boolean;
  button: number;
  metaKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  currentTarget: { getAttribute(name: string): string | null; hasAttribute(name: string): boolean };
}) {
  const target = event.currentTarget.getAttribute("target");
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) &&
    (!target || target === "_self") &&
    !event.currentTarget.hasAttribute("download")
  );
}

/** Around the rows: one navigation for all their links. */
export function RowLinks({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const here = pathname + search + hash;
  const follow = useCallback<Follow>(
    (event, preventScrollReset) => {
      if (!isPlainClick(event)) return;
      event.preventDefault();
      const to = event.currentTarget.getAttribute("href") ?? here;
      // As <Link>: a link to the page already shown replaces its history entry.
      navigate(to, { preventScrollReset, replace: to === here });
    },
    [navigate, here],
  );
  return <FollowContext.Provider value={follow}>{children}</FollowContext.Provider>;
}

/** A row's link: an absolute path, followed by the router when inside `RowLinks`. */
export function RowLink({
  to,
  preventScrollReset = false,
  children,
  ...props
}: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href" | "onClick"> & {
  to: string;
  preventScrollReset?: boolean;
}) {
  const follow = useContext(FollowContext);
  return (
    <a {...props} href={to} onClick={follow ? (event) => follow(event, preventScrollReset) : undefined}>
      {children}
    </a>
  );
}
