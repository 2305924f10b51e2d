import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
// The answers' schemas are zod 4 (faster to check, server-only); the spending forms' schema stays zod 3 (Conform).
import { z } from "zod/v4";
import type { z as z3 } from "zod";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { settle } from "~/server/upstream/api-error";
import {
  billWindow,
  FLAG_ALREADY_ANSWERED,
  FLAG_ANSWERS,
  type FlagAnswer,
  flagAnswerView,
  FLAG_UPDATE_FAILED,
  type FlagError,
  flagAnchor,
  FLAG_CLOSE_FAILED,
  outcomeRecordText,
  raisedText,
  firstStatementWait,
} from "./bills";
import { spendingFormSchema } from "./spending-form";
import { FLAG_OUTCOMES, outcomeProblem } from "../../../shared/flag-outcome";
import { FLAG_ANSWER_LIMIT_REACHED } from "../../../shared/bill-flags";
import { DOLLAR_AMOUNT_INVALID, parseDollarAmount } from "../../../shared/money-amount";
import { now } from "~/server/clock.server";
import { flagPrice, priceLine } from "../../../shared/flag-price";
import { flagCopy, flagHeading } from "../../../shared/bill-flags";
import { parseId } from "~/lib/ids";
import { feedbackHeading } from "./feedback";
import { idempotentAction, type ActionOutcome } from "~/server/idempotency.server";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { invalidSubmission, parseForm } from "~/server/forms.server";
import { requireSmb } from "~/server/upstream/guards.server";
import { locationUnavailable, requireLocationId } from "~/features/locations/locations.server";

const answerRecordSchema = z.object({
  answer: z.enum(["dismissed", "action_requested"]),
  by: z.object({ name: z.string(), you: z.boolean() }),
  source: z.enum(["app", "email"]),
  answeredAt: z.string(),
});

export const billFlagSchema = z.object({
  id: z.number(),
  billStatementId: z.number(),
  type: z.string(),
  status: z.string(),
  details: z.looseObject({ previousSupplier: z.string().nullish() }).nullish(),
  answerOnRecord: answerRecordSchema.nullish(),
  answers: z.array(answerRecordSchema).default([]),
  /** How the investigation ended (rule flag-outcome), or null. */
  outcome: z
    .object({
      outcome: z.enum(FLAG_OUTCOMES),
      creditCents: z.number().nullable(),
      note: z.string(),
      by: z.object({ name: z.string(), you: z.boolean() }),
      closedAt: z.string(),
    })
    .nullish(),
});
export type BillFlag = z.infer<typeof billFlagSchema>;

export const billStatementSchema = z.object({
  id: z.number(),
  buildingId: z.number().nullish(),
  buildingAddress: z.string().nullish(),
  buildingTimezone: z.string().nullish(),
  accountId: z.number().nullish(),
  accountNumber: z.string().nullish(),
  statementDate: z.string(),
  serviceStartDate: z.string(),
  serviceEndDate: z.string(),
  consumption: z.number().nullable(),
  demand: z.number().nullable(),
  rate: z.number().nullable(),
  totalCharges: z.number().nullable(),
  totalElectricCharges: z.number().nullish(),
  supplier: z.string().nullish(),
  utility: z.object({ id: z.number(), name: z.string() }).nullish(),
  /** The previous bill of the same account (rule flag-price); null for an account's first bill. */
  previousBill: z.object({ id: z.number(), rate: z.number().nullable() }).nullish(),
  flags: z.array(billFlagSchema).default([]),
});
export type BillStatement = z.infer<typeof billStatementSchema>;

export const accountSchema = z.looseObject({
  id: z.number(),
  number: z.string(),
  arcadiaAccountStatus: z.string().nullish(),
  connectedAt: z.string().nullish(),
  connectedOn: z.string().nullish(),
});
export type Account = z.infer<typeof accountSchema>;

const accountsAnswer = z.object({ items: z.array(accountSchema) });
const statementsAnswer = z.object({ items: z.array(billStatementSchema) });

/** The price of a finding on this bill (rule flag-price): this bill's rate against the previous bill's. */
export const billFlagPrice = (b: Pick<BillStatement, "rate" | "consumption" | "previousBill">) =>
  flagPrice(
    { rateCents: b.rate, kwh: b.consumption },
    b.previousBill ? { rateCents: b.previousBill.rate } : null,
  );

/** GET /building/{buildingId}/accounts */
export async function listAccounts(api: ApiClient, buildingId: number) {
  const res = await api.get(`/building/${buildingId}/accounts`, {
    schema: accountsAnswer,
  });
  return res.items;
}

/** The bill statements query: buildingId, minDate, maxDate, accountId (dates YYYY-MM-DD). */
export async function listBills(
  api: ApiClient,
  q: { buildingId: number; minDate: string; maxDate: string; accountId?: number | string | null },
) {
  const res = await api.get(`/building/${q.buildingId}/bill-statements`, {
    query: { minDate: q.minDate, maxDate: q.maxDate, accountId: q.accountId ?? undefined },
    schema: statementsAnswer,
  });
  return res.items;
}

/** The flag as answered, or an empty 204 (null): both are a success (api contract). */
const flagAnswerAnswer = billFlagSchema.nullable();

/** PATCH bill-statement/{statementId}/bill-flag/{flagId} with the status the customer's answer means. */
export function answerFlag(api: ApiClient, statementId: number, flagId: number, answer: FlagAnswer) {
  return api.patch(`/bill-statement/${statementId}/bill-flag/${flagId}`, {
    body: { status: FLAG_ANSWERS[answer] },
    schema: flagAnswerAnswer,
  });
}

/** POST bill-statement/{statementId}/bill-flag/{flagId}/outcome: staff close an investigation (rule flag-outcome). */
export function closeFlagInvestigation(
  api: ApiClient,
  statementId: number,
  flagId: number,
  body: { outcome: string; creditCents: number | null; note: string },
) {
  return api.post(`/bill-statement/${statementId}/bill-flag/${flagId}/outcome`, {
    body: { outcome: body.outcome, creditCents: body.creditCents, note: body.note },
    schema: billFlagSchema,
  });
}

/** A 404 from the api for the building: the location does not exist for this user. */
export const isNotFound = (r: { ok: boolean; error?: { status: number } }) =>
  !r.ok && r.error?.status === 404;

/** Today as a UTC calendar date. */
export function todayUtc(at = now()) {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

/**
 * The bills of a location for the spending page and its CSV: accounts and bills of the last 13 months together.
 * Without a chosen account, several accounts show the first one's bills (the same answer, filtered here).
 * An api 404 for the building goes back to the locations list, saying why.
 */
export async function loadLocationBills(
  request: Request,
  api: ApiClient,
  locationId: number,
  accountParam: string | null,
) {
  const { minDate, maxDate } = billWindow(todayUtc());
  // Only an id goes to the api: anything else in the query is treated as no choice (the api refuses it with a
  // 400, which the page would show and report as an upstream failure, and the CSV would answer 502).
  const requested = parseId(accountParam);
  const [accounts, bills] = await Promise.all([
    settle(listAccounts(api, locationId)),
    settle(listBills(api, { buildingId: locationId, minDate, maxDate, accountId: requested ?? undefined })),
  ]);
  if (isNotFound(accounts) || isNotFound(bills)) throw await locationUnavailable(request);
  if (!accounts.ok) return { ok: false as const, error: accounts.error };
  if (!bills.ok) return { ok: false as const, error: bills.error };
  const accountId = requested ?? (accounts.data.length > 1 ? accounts.data[0].id : null);
  const list =
    requested !== null || accountId === null
      ? bills.data
      : bills.data.filter((b) => b.accountId === accountId);
  return {
    ok: true as const,
    accounts: accounts.data.map((a) => ({ id: a.id, number: a.number })),
    accountId,
    bills: list,
    waiting: list.length ? null : firstStatementWait(accounts.data, requested),
  };
}

export async function spendingLoader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireSmb(request);
  const locationId = await requireLocationId(request, params.locationId);
  const accountParam = new URL(request.url).searchParams.get("accountId");
  const result = await loadLocationBills(request, await getApi(request, context), locationId, accountParam);
  if (!result.ok)
    return withPrimaryStatus(
      { state: "error" as const, locationId, accounts: [], accountId: null, bills: [], waiting: null },
      result,
    );
  // An alert's link names its bill (`billId`): that bill's row is marked, server-rendered.
  const billId = parseId(new URL(request.url).searchParams.get("billId"));
  return {
    state: result.bills.length ? ("ok" as const) : ("empty" as const),
    locationId,
    ...result,
    // Each flag's answers in words and its price (rule flag-price), written here so the page reads the same
    // with JavaScript on and off.
    bills: result.bills.map((b) => {
      const price = billFlagPrice(b);
      return {
        ...b,
        flags: b.flags.map((f) => {
          // Heading and copy from the flag's own figures (rule flag-headings): the bill's price, the outcome.
          const figures = { price, outcome: f.status === "completed" ? f.outcome : null };
          return {
            ...f,
            heading: flagHeading(f, figures),
            copy: flagCopy(f, b.supplier ?? b.utility?.name ?? null, figures),
            answerView: flagAnswerView(f, b.buildingTimezone),
            price: priceLine(price),
            // Its history (rule flag-outcome): raised with the bill, the answers, and how it ended.
            raised: raisedText(b.statementDate),
            outcome: f.outcome
              ? { text: outcomeRecordText(f.outcome, b.buildingTimezone, price.cents), note: f.outcome.note }
              : null,
            // Staff, on the client's account, may close an investigation.
            canClose: user.isStaff && f.status === "action_requested",
          };
        }),
      };
    }),
    targetBillId: result.bills.some((b) => b.id === billId) ? billId : null,
    submissionId: crypto.randomUUID(),
  };
}

export async function spendingAction({ request, params, context }: ActionFunctionArgs) {
  const user = await requireSmb(request);
  await requireLocationId(request, params.locationId);
  const form = await request.formData();
  // One schema: a missing or unknown answer (intent) fails here like any other field.
  const submission = parseForm(form, { schema: spendingFormSchema });
  const typed = {
    outcome: String(form.get("outcome") ?? ""),
    credit: String(form.get("credit") ?? ""),
    note: String(form.get("note") ?? ""),
  };
  const postedFlag = parseId(String(form.get("flagId") ?? ""));
  if (submission.status !== "success") {
    return form.get("intent") === "close" && postedFlag !== null
      ? invalidSubmission(submission, {
          flagId: postedFlag,
          message: firstError(submission.error) ?? FLAG_CLOSE_FAILED,
          values: typed,
        })
      : invalidSubmission(submission, { flagId: null, message: FLAG_UPDATE_FAILED });
  }
  if (submission.value.intent === "close")
    return closeAction({ request, context }, user, submission.value, form, typed);
  const { intent, statementId, flagId, submissionId } = submission.value;
  // Once per submission id: a double click or a browser resubmit answers the flag once (ADR 0010).
  const url = new URL(request.url);
  return idempotentAction(
    { request, context },
    { user, scope: "bill-flag", form, submissionId },
    async (api): Promise<ActionOutcome<FlagError>> => {
      const result = await settle(answerFlag(api, statementId, flagId, intent));
      if (!result.ok) {
        const status = result.error.status >= 400 && result.error.status < 500 ? result.error.status : 502;
        // Answered meanwhile (in another tab, by another person, from an email): the page reloads its flags.
        // No reply but maybe recorded: say so, and keep the submission id so the same answer again is the same
        // submission (the api answers it from its Idempotency-Key instead of refusing an answered flag).
        // The seed's 'Unable to process update' (seed 2 §8), then (flagErrorLines) who answered and when, or
        // why no more answers are taken.
        const limit = status === 409 && result.error.details.code === "answer_limit";
        const message = limit ? `${FLAG_UPDATE_FAILED}. ${FLAG_ANSWER_LIMIT_REACHED}` : FLAG_UPDATE_FAILED;
        const answered = status === 409 && !limit ? { answered: true } : {};
        const maybe =
          result.error.maybeApplied && submissionId ? { maybeApplied: true, retryId: submissionId } : {};
        return { kind: "reply", status, body: { flagId, message, ...answered, ...maybe } };
      }
      return {
        kind: "redirect",
        to: `${url.pathname}${url.search}#${flagAnchor(flagId)}`,
        toast: { kind: "success", message: feedbackHeading(FLAG_ANSWERS[intent]) },
      };
    },
  );
}

const firstError = (error: Record<string, string[] | null> | null | undefined) =>
  Object.values(error ?? {}).find((e) => e?.length)?.[0];

/** Staff close an investigation (rule flag-outcome): once per submission id; bad input keeps what was typed. */
async function closeAction(
  { request, context }: Pick<ActionFunctionArgs, "request" | "context">,
  user: Awaited<ReturnType<typeof requireSmb>>,
  v: Extract<z3.infer<typeof spendingFormSchema>, { intent: "close" }>,
  form: FormData,
  typed: { outcome: string; credit: string; note: string },
) {
  const url = new URL(request.url);
  const refuse = (status: number, message: string) =>
    data({ flagId: v.flagId, message, values: typed }, { status });
  if (!user.isStaff) return refuse(403, FLAG_CLOSE_FAILED);
  // One parser for every typed amount (rule money-amount-input): commas only between thousands.
  const credit = parseDollarAmount(v.credit);
  if (credit === "invalid") return refuse(400, DOLLAR_AMOUNT_INVALID);
  const problem = outcomeProblem(v.outcome, credit);
  if (problem) return refuse(400, problem);
  return idempotentAction(
    { request, context },
    // No submission id, so no Idempotency-Key: the api's close also sends the outcome email, which a keyed write
    // (answered inside its transaction) cannot; a second close is refused by rule (409) instead.
    { user, scope: "bill-flag-close", form, submissionId: null },
    async (api): Promise<ActionOutcome<{ flagId: number | null; message: string; values: typeof typed }>> => {
      const result = await settle(
        closeFlagInvestigation(api, v.statementId, v.flagId, {
          outcome: v.outcome,
          creditCents: credit,
          note: v.note,
        }),
      );
      if (!result.ok) {
        const status = result.error.status >= 400 && result.error.status < 500 ? result.error.status : 502;
        const message = status === 409 ? FLAG_ALREADY_ANSWERED : FLAG_CLOSE_FAILED;
        return { kind: "reply", status, body: { flagId: v.flagId, message, values: typed } };
      }
      return {
        kind: "redirect",
        to: `${url.pathname}${url.search}#${flagAnchor(v.flagId)}`,
        toast: { kind: "success", message: "Investigation closed: the client has been emailed the outcome" },
      };
    },
  );
}
