import { data } from "@remix-run/node";
import { loadAnswerPage, parseTokenForm, submitAnswer } from "~/features/email-answers/email-answers.server";
import { failureStatus, getPublicApi } from "~/server/upstream/upstream.server";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  BillAnswerQuestion,
  BillAnswerRefused,
  BillFeedbackConfirmation,
} from "~/features/email-answers/components/answer-pages";
import { feedbackHeading } from "~/features/bills/feedback";
import { tokenPageStatus } from "~/features/email-answers/email-answers";
import { PublicPage } from "~/ui/brand";
import { NO_SCRIPTS } from "~/ui/static-page";

/** Opened from an email: complete without JavaScript, so it ships none of the app's JavaScript. */
export const handle = NO_SCRIPTS;

/** The token is a credential for one act: never cached, never shared. */
const noStore = { "Cache-Control": "private, no-store" };
export const headers: HeadersFunction = () => noStore;

const answerOf = (status: string | undefined) =>
  status === "action_requested" ? ("action_requested" as const) : ("dismissed" as const);

/**
 * The two answer links of a Bill Audit Alert (rule email-answer-links, docs/rules.md). With a token, the GET
 * names the bill and the flag and offers one button (mail scanners open links: nothing changes here); the POST
 * records the answer through the api, the token its only authority. Without one, the spec's confirmation.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const status = answerOf(params.status);
  const token = new URL(request.url).searchParams.get("token")?.slice(0, 200) ?? "";
  if (!token) return data({ status, token, page: null }, { headers: noStore });
  const page = await loadAnswerPage(getPublicApi(request), status, token);
  const code =
    page.kind !== "refused" ? 200 : page.error ? failureStatus(page.error) : tokenPageStatus(page.state);
  return data({ status, token, page: { ...page, error: undefined } }, { status: code, headers: noStore });
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseTokenForm(await request.formData());
  if (submission.status !== "success")
    return data({ kind: "refused" as const, state: "invalid" as const }, { status: 400, headers: noStore });
  const result = await submitAnswer(getPublicApi(request), submission.value.token);
  if (result.kind === "refused" && result.error)
    return data(
      { kind: "refused" as const, state: result.state },
      { status: failureStatus(result.error), headers: noStore },
    );
  return data(result.kind === "refused" ? { kind: result.kind, state: result.state } : result, {
    headers: noStore,
  });
}

export default function FixMyBill() {
  const { status, token, page } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <PublicPage>
      {result?.kind === "recorded" ? (
        <BillFeedbackConfirmation status={result.answer} />
      ) : result?.kind === "refused" ? (
        <BillAnswerRefused state={result.state} />
      ) : page?.kind === "question" ? (
        <BillAnswerQuestion answer={page.answer} token={token} target={page.target} />
      ) : page?.kind === "refused" ? (
        <BillAnswerRefused state={page.state} />
      ) : (
        <BillFeedbackConfirmation status={status} />
      )}
    </PublicPage>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: `${data?.page ? "Your answer about a bill" : feedbackHeading(data?.status ?? "dismissed")} · EnergyOps`,
  },
  { name: "referrer", content: "no-referrer" },
];
