import { z } from "zod";
import { answerRecordText, flagAnchor, formatMoney } from "~/features/bills/bills";
import { formatCalendarDate } from "~/lib/dates";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { isApiError, type ApiError } from "~/server/upstream/api-error";
import { parseForm } from "~/server/forms.server";
import { refusedTokenState, type TokenState, tokenPageStatus } from "./email-answers";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { failureStatus, getPublicApi } from "~/server/upstream/upstream.server";
import {
  ANSWER_AGAIN,
  FLAG_ANSWER_LIMIT_REACHED,
  FLAG_QUESTION,
  FLAG_WITHDRAW_SIGNED_IN,
} from "../../../shared/bill-flags";

/** Upstream calls and form schemas of the email answer and unsubscribe pages (docs/api-contract.md, Email answers). */

/** A token as the links carry it: opaque, bounded. */
export const tokenField = z.string().trim().min(1).max(200);

/**
 * The answer page's form: the token, and the answer of the button pressed (the link's own, or the email's
 * other answer: a wrong tap switched). Without an answer the token's own is recorded.
 */
export const tokenFormSchema = z.object({
  token: tokenField,
  answer: z.enum(["dismissed", "action_requested"]).optional(),
});

/**
 * The unsubscribe form: our page's button (token), or a mail provider's RFC 8058 one-click POST, whose body is
 * exactly `List-Unsubscribe=One-Click` and whose token is in the address.
 */
export const unsubscribeFormSchema = z.object({
  token: tokenField.optional(),
  "List-Unsubscribe": z.literal("One-Click").optional(),
});

export const parseTokenForm = (form: FormData | URLSearchParams) =>
  parseForm(form, { schema: tokenFormSchema });
export const parseUnsubscribeForm = (form: FormData | URLSearchParams) =>
  parseForm(form, { schema: unsubscribeFormSchema });

const answerStatus = z.enum(["dismissed", "action_requested"]);
const answerRecordSchema = z.object({
  answer: answerStatus,
  by: z.object({ name: z.string(), you: z.boolean() }),
  source: z.enum(["app", "email"]),
  answeredAt: z.string(),
});

const billAnswerSchema = z.object({
  state: z.enum(["open", "answered", "expired", "recorded"]),
  answer: answerStatus,
  flag: z.object({
    id: z.number(),
    type: z.string(),
    status: z.string(),
    heading: z.string(),
    /** What is at stake on the bill (rule flag-price), the spending page's line. */
    priceLine: z.string().nullish(),
  }),
  bill: z.object({
    id: z.number(),
    statementDate: z.string(),
    totalCharges: z.number(),
    accountNumber: z.string().nullish(),
    location: z.object({ id: z.number(), name: z.string(), timezone: z.string().nullish() }),
  }),
  onRecord: answerRecordSchema.nullish(),
  answersOpen: z.array(answerStatus).default([]),
  answerLimitReached: z.boolean().default(false),
});
export type BillAnswerView = z.infer<typeof billAnswerSchema>;

const unsubscribeSchema = z.object({
  state: z.enum(["open", "done", "kept", "expired"]),
  kind: z.string(),
  kindName: z.string(),
});
export type UnsubscribeView = z.infer<typeof unsubscribeSchema>;

export const getBillAnswer = (api: ApiClient, token: string) =>
  api.get("/email-answers/bill-flag", { query: { token }, schema: billAnswerSchema });

export const recordBillAnswer = (api: ApiClient, token: string, answer?: Answer) =>
  api.post("/email-answers/bill-flag", { body: { token, answer }, schema: billAnswerSchema });

export const getUnsubscribe = (api: ApiClient, token: string) =>
  api.get("/email-answers/unsubscribe", { query: { token }, schema: unsubscribeSchema });

export const unsubscribe = (api: ApiClient, token: string) =>
  api.post("/email-answers/unsubscribe", { body: { token }, schema: unsubscribeSchema });

type Answer = "dismissed" | "action_requested";

/** What the page names and says, written here on the server: the page ships no script, and its chunks stay few. */
export type AnswerTarget = {
  locationName: string;
  accountText: string | null;
  billText: string;
  flagHeading: string;
  /** "At stake on this bill, …" (rule flag-price): the price is shown where the answer is given. */
  priceLine: string | null;
  /** The answer on record (the flag's status); an unanswered flag reads as the link's answer. */
  status: Answer;
  /** The answer on record, who gave it, when and from where (rule flag-answer-history); null when none says. */
  onRecord: string | null;
  /** Whether the answer on record is the token's person's. */
  yours: boolean;
  /** The answers this person may give now, the link's own first (rule flag-answer-history). */
  options: Answer[];
  /** The email's own question (shared/bill-flags.ts FLAG_QUESTION), asked again above the answers. */
  question: string;
  /** Once an answer is on record, what the one answer left changes (shared/bill-flags.ts ANSWER_AGAIN). */
  again: string | null;
  /**
   * Why an answer is not offered here: the flag took its most answers, or the person's own investigation
   * request, which only the signed-in spending page withdraws (rule flag-answer-history); with that page's link.
   */
  note: { text: string; href: string | null } | null;
};

/**
 * What an answer link's page shows (rule email-answer-links): the email's question with the link's answer
 * (and the other one, to switch a wrong tap); the answer already on record (yours: the spec's confirmation;
 * another person's: who and when, and what may still be said); or why the token cannot answer.
 */
export type AnswerPage =
  | { kind: "question"; answer: Answer; target: AnswerTarget }
  | { kind: "answered"; answer: Answer; target: AnswerTarget }
  | { kind: "recorded"; answer: Answer; target: AnswerTarget }
  | { kind: "refused"; state: TokenState | "failed"; error?: ApiError };

function target(v: BillAnswerView): AnswerTarget {
  const options = [...v.answersOpen].sort((a, b) => Number(b === v.answer) - Number(a === v.answer));
  return {
    locationName: v.bill.location.name,
    accountText: v.bill.accountNumber ? `Acct # ${v.bill.accountNumber}` : null,
    billText: `${formatCalendarDate(v.bill.statementDate)}, ${formatMoney(v.bill.totalCharges)}`,
    flagHeading: v.flag.heading,
    priceLine: v.flag.priceLine ?? null,
    status: v.flag.status === "dismissed" || v.flag.status === "action_requested" ? v.flag.status : v.answer,
    onRecord: v.onRecord ? answerRecordText(v.onRecord, v.bill.location.timezone) : null,
    yours: Boolean(v.onRecord?.by.you),
    options,
    question: FLAG_QUESTION,
    again: options.length > 0 ? ANSWER_AGAIN[options[0]] : null,
    note: v.answerLimitReached
      ? { text: FLAG_ANSWER_LIMIT_REACHED, href: null }
      : v.flag.status === "action_requested" && v.onRecord?.by.you
        ? {
            text: FLAG_WITHDRAW_SIGNED_IN,
            // The flag in the query too: signed out, the fragment is lost through sign-in (signInLanding).
            href: `/locations/${v.bill.location.id}/spending?flag=${v.flag.id}#${flagAnchor(v.flag.id)}`,
          }
        : null,
  };
}

function refused(error: unknown): Extract<AnswerPage, { kind: "refused" }> {
  if (!isApiError(error)) throw error;
  const state = refusedTokenState(error.status);
  return state ? { kind: "refused", state } : { kind: "refused", state: "failed", error };
}

/** The page of a view: the question while the link's answer can be given, else what is on record. */
function pageOf(v: BillAnswerView): AnswerPage {
  if (v.state === "expired") return { kind: "refused", state: "expired" };
  if (v.state === "recorded") return { kind: "recorded", answer: v.answer, target: target(v) };
  if (v.state === "open") return { kind: "question", answer: v.answer, target: target(v) };
  return { kind: "answered", answer: v.answer, target: target(v) };
}

/** The GET: a token for another answer than the page's address is not valid here. */
export async function loadAnswerPage(api: ApiClient, status: Answer, token: string): Promise<AnswerPage> {
  try {
    const v = await getBillAnswer(api, token);
    if (v.answer !== status) return { kind: "refused", state: "invalid" };
    return pageOf(v);
  } catch (error) {
    return refused(error);
  }
}

/**
 * The POST: records the answer of the button pressed. The same answer again by the same person (a double
 * click with JavaScript off) is recorded once and confirmed again; a refusal (another person's answer on
 * record) shows what is on record, read again.
 */
export async function submitAnswer(api: ApiClient, token: string, answer?: Answer): Promise<AnswerPage> {
  try {
    return pageOf(await recordBillAnswer(api, token, answer));
  } catch (error) {
    const page = refused(error);
    if (page.state !== "answered") return page;
    const v = await getBillAnswer(api, token).catch(() => null);
    return v ? { kind: "answered", answer: answer ?? v.answer, target: target(v) } : page;
  }
}

/** The unsubscribe page's GET and POST: what the token turns off, and its state. */
export async function loadUnsubscribe(
  api: ApiClient,
  token: string,
  post: boolean,
): Promise<{ state: TokenState | "failed"; what: string | null; error?: ApiError }> {
  try {
    const v = await (post ? unsubscribe(api, token) : getUnsubscribe(api, token));
    return { state: v.state, what: v.kindName };
  } catch (error) {
    if (!isApiError(error)) throw error;
    const state = refusedTokenState(error.status);
    return state ? { state, what: null } : { state: "failed", what: null, error };
  }
}

/** The token is a credential for one act: its pages are never cached, never shared. */
export const noStore = { "Cache-Control": "private, no-store" };

const answerOf = (status: string | undefined) =>
  status === "action_requested" ? ("action_requested" as const) : ("dismissed" as const);

/**
 * The two answer links of a Bill Audit Alert (rule email-answer-links, docs/rules.md). With a token, the GET
 * names the bill and the flag and offers one button (mail scanners open links: nothing changes here); the POST
 * records the answer through the api, the token its only authority. Without one, the spec's confirmation.
 */
export async function fixMyBillLoader({ request, params }: LoaderFunctionArgs) {
  const status = answerOf(params.status);
  const token = new URL(request.url).searchParams.get("token")?.slice(0, 200) ?? "";
  if (!token) return data({ status, token, page: null }, { headers: noStore });
  const page = await loadAnswerPage(getPublicApi(request), status, token);
  const code =
    page.kind !== "refused" ? 200 : page.error ? failureStatus(page.error) : tokenPageStatus(page.state);
  return data({ status, token, page: { ...page, error: undefined } }, { status: code, headers: noStore });
}

export async function fixMyBillAction({ request }: ActionFunctionArgs) {
  const submission = parseTokenForm(await request.formData());
  if (submission.status !== "success")
    return data({ kind: "refused" as const, state: "invalid" as const }, { status: 400, headers: noStore });
  const { token, answer } = submission.value;
  const page = await submitAnswer(getPublicApi(request), token, answer);
  if (page.kind !== "refused") return data(page, { headers: noStore });
  const status = page.error ? failureStatus(page.error) : tokenPageStatus(page.state);
  return data({ kind: page.kind, state: page.state }, { status, headers: noStore });
}

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token")?.slice(0, 200) ?? "";

/**
 * The unsubscribe address of every notification (`List-Unsubscribe`, rule email-answer-links). The GET only
 * asks, with one button; the POST turns that kind of email off for the token's recipient, without signing in.
 */
export async function unsubscribeLoader({ request }: LoaderFunctionArgs) {
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
export async function unsubscribeAction({ request }: ActionFunctionArgs) {
  const submission = parseUnsubscribeForm(await request.formData());
  const token = submission.status === "success" ? (submission.value.token ?? tokenOf(request)) : "";
  if (!token) return data({ state: "invalid" as const, what: null }, { status: 400, headers: noStore });
  const { error, ...view } = await loadUnsubscribe(getPublicApi(request), token, true);
  return data(view, { status: error ? failureStatus(error) : tokenPageStatus(view.state), headers: noStore });
}
