import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { settle } from "~/server/upstream/api-error";
import {
  billWindow,
  FLAG_ANSWERS,
  type FlagAnswer,
  FLAG_UPDATE_FAILED,
  type FlagError,
  flagAnchor,
  flagAnswerSchema,
} from "./bills";
import { now } from "~/server/clock.server";
import { idParam, parseId } from "~/lib/ids";
import { feedbackHeading } from "./feedback";
import { idempotentAction, type ActionOutcome } from "~/server/idempotency.server";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { invalidSubmission, parseForm } from "~/server/forms.server";
import { requireSmb } from "~/server/upstream/guards.server";

export const billFlagSchema = z.object({
  id: z.number(),
  billStatementId: z.number(),
  type: z.string(),
  status: z.string(),
  details: z.object({ previousSupplier: z.string().nullish() }).passthrough().nullish(),
});
export type BillFlag = z.infer<typeof billFlagSchema>;

export const billStatementSchema = z.object({
  id: z.number(),
  buildingId: z.number().nullish(),
  buildingAddress: z.string().nullish(),
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
  flags: z.array(billFlagSchema).default([]),
});
export type BillStatement = z.infer<typeof billStatementSchema>;

export const accountSchema = z.object({ id: z.number(), number: z.string() }).passthrough();
export type Account = z.infer<typeof accountSchema>;

const accountsAnswer = z.object({ items: z.array(accountSchema) });
const statementsAnswer = z.object({ items: z.array(billStatementSchema) });

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

/** The location id of the URL, or a redirect to the locations list (an id that cannot exist). */
export const locationIdParam = (value: string | undefined) => idParam(value, () => redirect("/locations"));

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
 * An api 404 for the building redirects to the locations list.
 */
export async function loadLocationBills(api: ApiClient, locationId: number, accountParam: string | null) {
  const { minDate, maxDate } = billWindow(todayUtc());
  // Only an id goes to the api: anything else in the query is treated as no choice (the api refuses it with a
  // 400, which the page would show and report as an upstream failure, and the CSV would answer 502).
  const requested = parseId(accountParam);
  const [accounts, bills] = await Promise.all([
    settle(listAccounts(api, locationId)),
    settle(listBills(api, { buildingId: locationId, minDate, maxDate, accountId: requested ?? undefined })),
  ]);
  if (isNotFound(accounts) || isNotFound(bills)) throw redirect("/locations");
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
  };
}

export async function spendingLoader({ request, params, context }: LoaderFunctionArgs) {
  await requireSmb(request);
  const locationId = locationIdParam(params.locationId);
  const accountParam = new URL(request.url).searchParams.get("accountId");
  const result = await loadLocationBills(await getApi(request, context), locationId, accountParam);
  if (!result.ok)
    return withPrimaryStatus(
      { state: "error" as const, locationId, accounts: [], accountId: null, bills: [] },
      result,
    );
  return {
    state: result.bills.length ? ("ok" as const) : ("empty" as const),
    locationId,
    ...result,
    submissionId: crypto.randomUUID(),
  };
}

export async function spendingAction({ request, params, context }: ActionFunctionArgs) {
  const user = await requireSmb(request);
  locationIdParam(params.locationId);
  const form = await request.formData();
  // One schema: a missing or unknown answer (intent) fails here like any other field.
  const submission = parseForm(form, { schema: flagAnswerSchema });
  if (submission.status !== "success")
    return invalidSubmission(submission, { flagId: null, message: FLAG_UPDATE_FAILED });
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
        // No reply but maybe recorded: say so, and keep the submission id so the same answer again is the same
        // submission (the api answers it from its Idempotency-Key instead of refusing an answered flag).
        const maybe =
          result.error.maybeApplied && submissionId ? { maybeApplied: true, retryId: submissionId } : {};
        return { kind: "reply", status, body: { flagId, message: FLAG_UPDATE_FAILED, ...maybe } };
      }
      return {
        kind: "redirect",
        to: `${url.pathname}${url.search}#${flagAnchor(flagId)}`,
        toast: { kind: "success", message: feedbackHeading(FLAG_ANSWERS[intent]) },
      };
    },
  );
}
