import type { HeadersFunction, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BillAnswerCard, BillFeedbackConfirmation } from "~/features/email-answers/components/bill-answer";
import { feedbackHeading } from "~/features/bills/feedback";
import { PublicPage } from "~/ui/brand";
import { NO_SCRIPTS } from "~/ui/static-page";
import { fixMyBillLoader, fixMyBillAction, noStore } from "~/features/email-answers/email-answers.server";

/** Opened from an email: complete without JavaScript, so it ships none of the app's JavaScript. */
export const handle = NO_SCRIPTS;

export const headers: HeadersFunction = () => noStore;

export const loader = fixMyBillLoader;

export const action = fixMyBillAction;

export default function FixMyBill() {
  const { status, token, page } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const shown = result ?? page;
  return (
    <PublicPage>
      {shown ? <BillAnswerCard page={shown} token={token} /> : <BillFeedbackConfirmation status={status} />}
    </PublicPage>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: `${data?.page ? "Your answer about a bill" : feedbackHeading(data?.status ?? "dismissed")} · EnergyOps`,
  },
  { name: "referrer", content: "no-referrer" },
];
