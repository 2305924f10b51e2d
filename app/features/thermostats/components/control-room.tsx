import { MESSAGES } from "../messages";
import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { LinkTabs } from "~/ui/link-tabs";
import { EmptyState, ErrorState } from "~/ui/states";
import { usePageToast } from "~/ui/toasts";
import {
  anchoredCard,
  hasDeviceIssue,
  MAX_POLLS,
  POLL_INTERVAL_MS,
  type CardTimes,
  type Tab,
  type ThermostatAction,
  type ThermostatInfo,
} from "../thermostats";
import type { SettingsReply } from "./settings-form";
import { ThermostatCard } from "./thermostat-card";
import { withQuery } from "~/lib/query";

/** What the control room renders: the route loader's data (`controlRoomView` in control-room.server.ts). */
export type ControlRoomData = {
  locationId: number;
  tab: Tab;
  poll: number;
  openCard: number | null;
  loadedAt: number;
  now: number;
  error: boolean;
  items: ThermostatInfo[];
  /** The instants the cards write out, written by the server (`cardTimesOf`). */
  times: CardTimes;
  watched: ThermostatAction | null;
  showVendor: boolean;
  supportEmail: string;
  submissionId: string;
};

/**
 * With JavaScript: while a change is pending, a fetcher reloads this page's data every 15 s (at most 20 times,
 * also in a background tab: setInterval keeps running there); the freshest data wins.
 */
export function usePolledData<T extends Pick<ControlRoomData, "loadedAt" | "items" | "times">>(
  loaderData: T,
) {
  const fetcher = useFetcher<T>({ key: "thermostat-poll" });
  const location = useLocation();
  const fetched = fetcher.data as T | undefined;
  const fresh = fetched && fetched.loadedAt > loaderData.loadedAt ? fetched : loaderData;
  const pending = fresh.items.some((i) => i.thermostatAction?.status === "pending");
  const load = useRef(fetcher.load);
  load.current = fetcher.load;
  const polls = useRef(0);
  const href = `${location.pathname}${location.search}`;
  useEffect(() => {
    polls.current = 0;
  }, [href]);
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => {
      if (polls.current >= MAX_POLLS) return clearInterval(timer);
      polls.current += 1;
      load.current(href);
    }, POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [pending, href]);
  return { ...fresh, pending };
}

const refreshUrl = (search: string, poll: number) => withQuery(search, { poll: poll + 1, card: null });

/** The control room: the cards of a location in two tabs, the outcome of a watched change, and the no-JS refresh. */
export function ControlRoom({
  page,
  reply,
  locationSuffix,
}: {
  page: ControlRoomData & { pending: boolean };
  /** What follows the title in the h1 (the location's name): the route passes the locations area's suffix. */
  locationSuffix?: ReactNode;
  /** The action's answer to a card's Save, placed on that card. */
  reply: SettingsReply | undefined;
}) {
  const location = useLocation();
  // After Save (a fetcher whose redirect carries `#thermostat-<id>`), focus goes to the card, where the
  // receipt and the outcome show, rather than falling to <body>: once per navigation.
  useEffect(() => {
    const id = anchoredCard(location.hash);
    if (id) document.getElementById(id)?.focus();
  }, [location.key, location.hash]);
  const issueItems = page.items.filter(hasDeviceIssue);
  const shown = page.tab === "issues" ? issueItems : page.items;
  const watched = page.watched;
  const outcome =
    watched && watched.status !== "pending"
      ? watched.status === "success"
        ? { kind: "success" as const, message: MESSAGES.completed(watched.thermostatName) }
        : { kind: "error" as const, message: MESSAGES.failed(watched.thermostatName) }
      : null;
  // The finished command's outcome joins the page's one toast region (bottom, with the receipt's toast).
  usePageToast(outcome, watched ? `thermostat-action-${watched.id}-${watched.status}` : null);
  const base = `/locations/${page.locationId}/control`;

  return (
    <div className="stack thermo-page">
      <h1>
        {MESSAGES.title}
        {locationSuffix}
      </h1>
      {page.pending && page.poll < MAX_POLLS ? (
        <noscript>
          <meta
            httpEquiv="refresh"
            content={`${POLL_INTERVAL_MS / 1000};url=${refreshUrl(location.search, page.poll)}`}
          />
        </noscript>
      ) : null}
      {page.error ? (
        <ErrorState title={MESSAGES.loadError}>
          <p>
            <a href={`mailto:${page.supportEmail}`}>Contact Customer Support</a>
          </p>
        </ErrorState>
      ) : page.items.length === 0 ? (
        <EmptyState title="No thermostats">
          <p>{MESSAGES.empty}</p>
        </EmptyState>
      ) : (
        <LinkTabs
          label="Thermostats"
          value={page.tab}
          tabs={[
            { value: "all", label: "All devices", href: base, count: page.items.length },
            {
              value: "issues",
              label: "Devices with Issues",
              href: `${base}?tab=issues`,
              count: issueItems.length,
            },
          ]}
        >
          {shown.length === 0 ? (
            <p className="muted thermo-none">No devices with issues at this location.</p>
          ) : (
            <div className="card-grid thermo-grid">
              {shown.map((item) => (
                <ThermostatCard
                  key={item.thermostat.id}
                  item={item}
                  tab={page.tab}
                  showVendor={page.showVendor}
                  now={page.now}
                  times={page.times}
                  openBack={page.openCard === item.thermostat.id}
                  submissionId={page.submissionId}
                  serverReply={reply && reply.thermostatId === item.thermostat.id ? reply : undefined}
                />
              ))}
            </div>
          )}
        </LinkTabs>
      )}
    </div>
  );
}
