import { z } from "zod";
import { formatMoney } from "~/features/bills/bills";
import { formatCalendarDate } from "~/lib/dates";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { isApiError, type ApiError } from "~/server/upstream/api-error";
import { parseForm } from "~/server/forms.server";
import { refusedTokenState, type TokenState } from "./email-answers";

/** Upstream calls and form schemas of the email answer and unsubscribe pages (docs/api-contract.md, Email answers). */

/** A token as the links carry it: opaque, bounded. */
export const tokenField = z.string().trim().min(1).max(200);

/** The answer page's form: the token only (the answer is the token's own). */
export const tokenFormSchema = z.object({ token: tokenField });

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

const billAnswerSchema = z.object({
  state: z.enum(["open", "answered", "expired", "recorded"]),
  answer: z.enum(["dismissed", "action_requested"]),
  flag: z.object({ id: z.number(), type: z.string(), status: z.string(), heading: z.string() }),
  bill: z.object({
    id: z.number(),
    statementDate: z.string(),
    totalCharges: z.number(),
    location: z.object({ id: z.number(), name: z.string() }),
  }),
});
export type BillAnswerView = z.infer<typeof billAnswerSchema>;

const unsubscribeSchema = z.object({
  state: z.enum(["open", "done", "expired"]),
  kind: z.string(),
  kindName: z.string(),
});
export type UnsubscribeView = z.infer<typeof unsubscribeSchema>;

export const getBillAnswer = (api: ApiClient, token: string) =>
  api.get("/email-answers/bill-flag", { query: { token }, schema: billAnswerSchema });

export const recordBillAnswer = (api: ApiClient, token: string) =>
  api.post("/email-answers/bill-flag", { body: { token }, schema: billAnswerSchema });

export const getUnsubscribe = (api: ApiClient, token: string) =>
  api.get("/email-answers/unsubscribe", { query: { token }, schema: unsubscribeSchema });

export const unsubscribe = (api: ApiClient, token: string) =>
  api.post("/email-answers/unsubscribe", { body: { token }, schema: unsubscribeSchema });

type Answer = "dismissed" | "action_requested";

/** What an answer link's page shows: the question, or why the token cannot answer (or that the api failed). */
export type AnswerPage =
  | { kind: "question"; answer: Answer; target: AnswerTarget }
  | { kind: "refused"; state: TokenState | "failed"; error?: ApiError };

/** What the page names, written here on the server: the page ships no script, and its chunks stay few. */
export type AnswerTarget = { locationName: string; billText: string; flagHeading: string };

const target = (v: BillAnswerView): AnswerTarget => ({
  locationName: v.bill.location.name,
  billText: `${formatCalendarDate(v.bill.statementDate)}, ${formatMoney(v.bill.totalCharges)}`,
  flagHeading: v.flag.heading,
});

function refused(error: unknown): AnswerPage {
  if (!isApiError(error)) throw error;
  const state = refusedTokenState(error.status);
  return state ? { kind: "refused", state } : { kind: "refused", state: "failed", error };
}

/** The GET: a token for another answer than the page's address is not valid here. */
export async function loadAnswerPage(api: ApiClient, status: Answer, token: string): Promise<AnswerPage> {
  try {
    const v = await getBillAnswer(api, token);
    if (v.answer !== status) return { kind: "refused", state: "invalid" };
    if (v.state !== "open") return { kind: "refused", state: v.state === "expired" ? "expired" : "answered" };
    return { kind: "question", answer: v.answer, target: target(v) };
  } catch (error) {
    return refused(error);
  }
}

/**
 * The POST: records the token's answer. The same form posted again (a double click with JavaScript off) finds
 * its own answer already on the flag and shows the same confirmation.
 */
export async function submitAnswer(
  api: ApiClient,
  token: string,
): Promise<{ kind: "recorded"; answer: Answer } | Extract<AnswerPage, { kind: "refused" }>> {
  try {
    return { kind: "recorded", answer: (await recordBillAnswer(api, token)).answer };
  } catch (error) {
    const page = refused(error) as Extract<AnswerPage, { kind: "refused" }>;
    if (page.state !== "answered") return page;
    const v = await getBillAnswer(api, token).catch(() => null);
    return v && v.flag.status === v.answer ? { kind: "recorded", answer: v.answer } : page;
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
