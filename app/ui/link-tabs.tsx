import { Link, useNavigate } from "@remix-run/react";
import * as Tabs from "@radix-ui/react-tabs";
import { Fragment, type ReactNode } from "react";
import { useHydrated } from "./use-hydrated";

export type LinkTab = { value: string; label: ReactNode; href: string; count?: number };

/**
 * Radix Tabs whose triggers are links: without JavaScript each tab is a link that sets a query parameter and
 * the server renders that panel; with it, Radix handles keyboard use and the URL stays in sync.
 */
export function LinkTabs({
  tabs,
  value,
  label,
  children,
}: {
  tabs: LinkTab[];
  value: string;
  label: string;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  // Radix's roving focus gives every trigger tabindex=-1 until its effects run: without JavaScript they never
  // do, so each tab link stays an ordinary Tab stop (arrow keys take over once hydrated).
  const hydrated = useHydrated();
  return (
    <Tabs.Root
      value={value}
      activationMode="manual"
      onValueChange={(v) => {
        const tab = tabs.find((t) => t.value === v);
        if (tab) navigate(tab.href, { replace: true, preventScrollReset: true });
      }}
    >
      <Tabs.List className="tabs-list" aria-label={label}>
        {tabs.map((t) => (
          // The space keeps tabs apart in a text browser (the styled list is a flex row: no effect there).
          <Fragment key={t.value}>
            {" "}
            <Tabs.Trigger value={t.value} asChild>
              <Link
                to={t.href}
                replace
                preventScrollReset
                className="tabs-trigger"
                tabIndex={hydrated ? undefined : 0}
              >
                {t.label}
                {t.count !== undefined ? (
                  <>
                    <span className="text-only" aria-hidden="true">
                      {" ("}
                    </span>
                    <span className="count-badge" aria-label={`${t.count} devices`}>
                      {t.count}
                    </span>
                    <span className="text-only" aria-hidden="true">
                      )
                    </span>
                  </>
                ) : null}
              </Link>
            </Tabs.Trigger>
          </Fragment>
        ))}
      </Tabs.List>
      <Tabs.Content value={value} tabIndex={-1}>
        {children}
      </Tabs.Content>
    </Tabs.Root>
  );
}
