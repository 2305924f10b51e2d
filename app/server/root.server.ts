import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { supportEmail } from "~/server/config.server";
import { setReportingUser } from "~/server/ops/sentry.server";
import { commitSession, getSession } from "~/server/upstream/session.server";
import { inlineStyles, stylesCookie, stylesVersion } from "~/server/stylesheets.server";

/**
 * The root route's loader: the flash toast, the support address, whether the user is staff, and whether this
 * visit inlines the stylesheet (`stylesheet` is the app stylesheet's built URL, whose hash is its version).
 */
export async function rootLoader({ request }: LoaderFunctionArgs, stylesheet: string) {
  const session = await getSession(request);
  const toast = session.get("toast") ?? null;
  const user = session.get("user");
  setReportingUser(user);
  const version = stylesVersion(stylesheet);
  const body = {
    toast,
    supportEmail: supportEmail(),
    isStaff: Boolean(user?.isStaff),
    inlineStyles: inlineStyles(request, version),
  };
  const headers = new Headers();
  // Reading a flash consumes it: write the session back only when there was one.
  if (toast) headers.append("Set-Cookie", await commitSession(session));
  if (body.inlineStyles) headers.append("Set-Cookie", stylesCookie(version));
  return [...headers.keys()].length ? data(body, { headers }) : body;
}
