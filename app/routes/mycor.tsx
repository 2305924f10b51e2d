import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getConfig } from "~/server/config.server";
import { PublicPage } from "~/ui/brand";
import { Countdown, NoScriptRefresh } from "~/ui/countdown";
import { DESCRIPTIONS, description } from "~/features/public/seo";

const SECONDS = 5;

export function loader(_: LoaderFunctionArgs) {
  return { target: getConfig().MIGRATED_APP_URL };
}

/** The migration notice: a visible 5-second countdown, then the migrated application. */
export default function Mycor() {
  const { target } = useLoaderData<typeof loader>();
  return (
    <PublicPage>
      <div className="card stack">
        <h1>Your account has moved</h1>
        <p>
          Your organization now uses our new commercial platform. Please sign in there with your usual email
          address.
        </p>
        <Countdown seconds={SECONDS} to={target} before="Taking you there in " after="." />
        <a className="btn" href={target}>
          Go now
        </a>{" "}
        <NoScriptRefresh seconds={SECONDS} to={target} />
      </div>
    </PublicPage>
  );
}

export const meta: MetaFunction<typeof loader> = () => [
  { title: "Your account has moved · EnergyOps" },
  description(DESCRIPTIONS.mycor),
];
