import { destroySession, getSession } from "~/server/upstream/session.server";
import { getApi } from "~/server/upstream/upstream.server";
import { getConfig } from "~/server/config.server";
import { logoutUpstream } from "~/features/auth/logout.server";
import { redirect } from "@remix-run/node";
import { requireUser } from "~/server/upstream/guards.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/** The root redirect by client type (rule root-redirect-by-client-type, docs/rules.md). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  switch (user.client?.clientType) {
    case "SMB":
      throw redirect("/locations");
    case "RESI":
      throw redirect(getConfig().RESIDENTIAL_SITE_URL);
    case "LARGE_COMMERCIAL": {
      const session = await getSession(request);
      await logoutUpstream(await getApi(request, context)).catch(() => undefined);
      throw redirect("/mycor", { headers: { "Set-Cookie": await destroySession(session) } });
    }
    default:
      // Staff without a client to look at start by choosing one.
      if (user.isStaff) throw redirect("/impersonate");
      throw redirect("/login", {
        headers: { "Set-Cookie": await destroySession(await getSession(request)) },
      });
  }
}
