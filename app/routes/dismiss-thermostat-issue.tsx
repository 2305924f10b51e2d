import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { MESSAGES } from "~/features/thermostats/messages";
import { dismissIssueBySlug } from "~/features/thermostats/thermostats.server";
import styles from "~/features/thermostats/thermostats.css";
import { settle } from "~/server/api-error";
import { requireUser } from "~/server/guards.server";
import { getApi } from "~/server/upstream.server";
import { PublicPage } from "~/ui/brand";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/**
 * The link in the issue email (rule dismissal-link, docs/rules.md): login required (`next` keeps this URL), then the dismissal
 * call. It changes state on GET by design; the upstream call is idempotent, so opening the link twice is safe.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request);
  const url = new URL(request.url);
  const thermostatId = Number(url.searchParams.get("thermostatId") ?? "");
  const issueSlug = url.searchParams.get("issueSlug")?.trim() ?? "";
  if (
    !url.searchParams.get("thermostatId") ||
    !Number.isSafeInteger(thermostatId) ||
    thermostatId <= 0 ||
    !/^[a-z0-9_]{1,100}$/.test(issueSlug)
  ) {
    return { ok: false };
  }
  const result = await settle(dismissIssueBySlug(await getApi(request, context), thermostatId, issueSlug));
  return { ok: result.ok };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.ok ? MESSAGES.feedbackReceived : MESSAGES.submissionFailed} · EnergyOps` },
];

export default function DismissThermostatIssue() {
  const { ok } = useLoaderData<typeof loader>();
  return (
    <PublicPage>
      <div className="card stack dismiss-page" role={ok ? "status" : "alert"}>
        {ok ? (
          <>
            <h1>{MESSAGES.feedbackReceived}</h1>
            <p>Thanks for letting us know. We will not flag this issue again for this thermostat.</p>
          </>
        ) : (
          <>
            <h1>{MESSAGES.submissionFailed}</h1>
            <p>{MESSAGES.submissionFailedBody}</p>
          </>
        )}
        <Link to="/" className="btn">
          {MESSAGES.returnToDashboard}
        </Link>
      </div>
    </PublicPage>
  );
}
