import { data } from "@remix-run/node";
import { loadUnsubscribe, parseUnsubscribeForm } from "~/features/email-answers/email-answers.server";
import { failureStatus, getPublicApi } from "~/server/upstream/upstream.server";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { UnsubscribeCard } from "~/features/email-answers/components/answer-pages";
import { tokenPageStatus } from "~/features/email-answers/email-answers";
import { PublicPage } from "~/ui/brand";
import { NO_SCRIPTS } from "~/ui/static-page";

/** Opened from an email: complete without JavaScript, so it ships none of the app's JavaScript. */
export const handle = NO_SCRIPTS;

const noStore = { "Cache-Control": "private, no-store" };
export const headers: HeadersFunction = () => noStore;

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token")?.slice(0, 200) ?? "";

/**
 * The unsubscribe address of every notification (`List-Unsubscribe`, rule email-answer-links). The GET only
 * asks, with one button; the POST turns that kind of email off for the token's recipient, without signing in.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = tokenOf(request);
  if (!token)
    return data({ token, state: "invalid" as const, what: null }, { status: 400, headers: noStore });
  const { error, ...view } = await loadUnsubscribe(getPublicApi(request), token, false);
  const status = error ? failureStatus(error) : tokenPageStatus(view.state);
  return data({ token, ...view }, { status, headers: noStore });
}

/**
 * Two senders post here: our page's button, and a mail provider's RFC 8058 one-click request (the body
 * `List-Unsubscribe=One-Click`, the token in the address), which carries neither our cookies nor a same-site
 * origin. Accepting it on the token alone is safe: the token is what authorises, and only this one act (one
 * recipient, one kind of email, turned off); no session or cookie is read, so a forged cross-site post gains
 * nothing that knowing the token would not already give (server.ts lets this path through its cross-site check).
 */
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseUnsubscribeForm(await request.formData());
  const token = submission.status === "success" ? (submission.value.token ?? tokenOf(request)) : "";
  if (!token) return data({ state: "invalid" as const, what: null }, { status: 400, headers: noStore });
  const { error, ...view } = await loadUnsubscribe(getPublicApi(request), token, true);
  return data(view, { status: error ? failureStatus(error) : tokenPageStatus(view.state), headers: noStore });
}

export default function Unsubscribe() {
  const view = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const shown = result ?? view;
  return (
    <PublicPage>
      <UnsubscribeCard state={shown.state} token={view.token} what={shown.what} />
    </PublicPage>
  );
}

export const meta: MetaFunction = () => [
  { title: "Unsubscribe · EnergyOps" },
  { name: "referrer", content: "no-referrer" },
];
