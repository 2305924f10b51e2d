import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Preferences } from "~/features/settings/components/preferences";
import { Team } from "~/features/settings/components/team";
import styles from "~/features/settings/settings.css";
import { LinkTabs } from "~/ui/link-tabs";
import { GeneralErrorBoundary } from "~/ui/error-boundary";
import { ErrorState } from "~/ui/states";
import { settingsLoader, settingsAction } from "~/features/settings/settings.server";

export const handle = { stylesheets: [styles] };
export const links: LinksFunction = () => handle.stylesheets.map((href) => ({ rel: "stylesheet", href }));

export const loader = settingsLoader;

export const action = settingsAction;

export default function Settings() {
  const { tab, canManage, toggles, team } = useLoaderData<typeof loader>();
  const tabs = [{ value: "preferences", label: "My Preferences", href: "/settings" }];
  if (canManage) tabs.push({ value: "team", label: "Team", href: "/settings?tab=team" });
  return (
    <div className="stack settings">
      <h1>Manage account</h1>
      <LinkTabs tabs={tabs} value={tab} label="Manage account">
        {tab === "preferences" ? <Preferences toggles={toggles} /> : team ? <Team team={team} /> : null}
      </LinkTabs>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Manage account · EnergyOps" }];

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        403: () => (
          <div className="stack settings">
            <h1>Manage account</h1>
            <ErrorState title="Forbidden">
              <p>
                <Link to="/settings">My Preferences</Link>
              </p>
            </ErrorState>
          </div>
        ),
      }}
    />
  );
}
