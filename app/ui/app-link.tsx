import { useNavigate } from "@remix-run/react";
import {
  createContext,
  useCallback,
  useContext,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from "react";

type ClickHandler = (event: MouseEvent<HTMLAnchorElement>) => void;
const LinkNavigation = createContext<ClickHandler | undefined>(undefined);

/** True when the browser should handle the click itself (new tab, download, another site, …). */
export function leaveToBrowser(
  event: Pick<MouseEvent, "defaultPrevented" | "button" | "metaKey" | "altKey" | "ctrlKey" | "shiftKey">,
  anchor: { target: string; hasAttribute(name: string): boolean; origin: string },
  origin: string,
) {
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.altKey ||
    event.ctrlKey ||
    event.shiftKey
  )
    return true;
  if (anchor.target && anchor.target !== "_self") return true;
  if (anchor.hasAttribute("download")) return true;
  return anchor.origin !== origin;
}

/**
 * One client-side click handler for every AppLink under it (placed once, in the root). A Remix `<Link>`
 * runs several router hooks each; a table or menu of dozens of links pays that on every server render.
 */
export function LinkNavigationProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const onClick = useCallback<ClickHandler>(
    (event) => {
      const a = event.currentTarget;
      if (leaveToBrowser(event, a, window.location.origin)) return;
      event.preventDefault();
      navigate(`${a.pathname}${a.search}${a.hash}`, {
        preventScrollReset: a.dataset.preventScrollReset === "true",
        replace: a.dataset.replace === "true",
      });
    },
    [navigate],
  );
  return <LinkNavigation.Provider value={onClick}>{children}</LinkNavigation.Provider>;
}

type Props = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  to: string;
  preventScrollReset?: boolean;
  /** Replace the current history entry instead of adding one (sorting, toggling: not worth a Back step). */
  replace?: boolean;
  /**
   * `false`: no `data-discover`. In a long list of links to the same few routes, one link per route is enough
   * for Remix to discover it (its manifest then matches every path of that route), and each attribute left
   * out is 20 bytes of HTML.
   */
  discover?: boolean;
};

/**
 * A plain `<a href>` that navigates client-side once JavaScript runs: for long lists of in-app links.
 * It keeps Remix's route discovery (`data-discover`), so the click costs no extra manifest request.
 */
export function AppLink({
  to,
  preventScrollReset,
  replace,
  discover = true,
  onClick,
  children,
  ...rest
}: Props) {
  const navigateOnClick = useContext(LinkNavigation);
  return (
    <a
      {...rest}
      href={to}
      data-discover={discover ? "true" : undefined}
      data-prevent-scroll-reset={preventScrollReset ? "true" : undefined}
      data-replace={replace ? "true" : undefined}
      onClick={(event) => {
        onClick?.(event);
        navigateOnClick?.(event);
      }}
    >
      {children}
    </a>
  );
}
