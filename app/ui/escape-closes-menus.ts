import { useEffect } from "react";

/** The <details> used as menus: the location switcher, the row "⋯" menu, the phone Menu, the month picker. */
export const MENU_SELECTOR =
  "details.location-select, details.row-menu, details.nav-disclosure, details.month-picker";

/**
 * With JavaScript, Escape closes the open menu that holds the focus (or the last one opened when the focus is
 * elsewhere) and puts the focus back on its summary. Without JavaScript the summary still toggles it.
 */
export function closeMenuOnEscape(event: Pick<KeyboardEvent, "key" | "defaultPrevented">, doc: Document) {
  if (event.key !== "Escape" || event.defaultPrevented) return false;
  const isOpenMenu = (d: Element | null | undefined): d is HTMLDetailsElement =>
    d instanceof HTMLDetailsElement && d.open && d.matches(MENU_SELECTOR);
  const holding = doc.activeElement?.closest("details[open]");
  // A menu whose summary is hidden (the sections on a wide screen) is not a menu there.
  const shown = (d: HTMLDetailsElement) => {
    const summary = d.querySelector("summary");
    return Boolean(summary && summary.getClientRects().length > 0);
  };
  const menus = [...doc.querySelectorAll(MENU_SELECTOR)].filter(isOpenMenu).filter(shown);
  const menu = isOpenMenu(holding) && shown(holding) ? holding : menus.at(-1);
  if (!menu) return false;
  menu.open = false;
  menu.querySelector<HTMLElement>("summary")?.focus();
  return true;
}

export function useEscapeClosesMenus() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (closeMenuOnEscape(event, document)) event.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}
