import type { HeadersFunction, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { UnsubscribeCard } from "~/features/email-answers/components/answer-pages";
import { PublicPage } from "~/ui/brand";
import { NO_SCRIPTS } from "~/ui/static-page";
import { unsubscribeLoader, unsubscribeAction, noStore } from "~/features/email-answers/email-answers.server";

/** Opened from an email: complete without JavaScript, so it ships none of the app's JavaScript. */
export const handle = NO_SCRIPTS;

export const headers: HeadersFunction = () => noStore;

export const loader = unsubscribeLoader;

export const action = unsubscribeAction;

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
