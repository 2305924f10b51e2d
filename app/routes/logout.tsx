import { destroySession, getSession } from "~/server/upstream/session.server";
import { getApi } from "~/server/upstream/upstream.server";
import { logoutUpstream } from "~/features/auth/logout.server";
import { redirect } from "@remix-run/node";
import type { ActionFunctionArgs } from "@remix-run/node";

export function loader() {
  return redirect("/");
}

/** POST only: ends the upstream session, then destroys the cookie session. */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await getSession(request);
  if (session.get("apiSession")) {
    const api = await getApi(request, context);
    await logoutUpstream(api).catch(() => undefined);
  }
  return redirect("/login", { headers: { "Set-Cookie": await destroySession(session) } });
}
