import { z } from "zod";
import { submissionIdField } from "~/lib/submission-id";
import { FLAG_OUTCOMES } from "../../../shared/flag-outcome";

// The spending page's form schemas, apart from the bill rules the components import: the page validates on the
// server only, so its JavaScript carries no zod (tests/ops/js-budget.test.ts).

const positiveId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A flag answer form: the answer (the button pressed), the bill and flag, and the submission id (ADR 0010). */
export const flagAnswerSchema = z.object({
  intent: z.enum(["confirm", "investigate"]),
  statementId: positiveId,
  flagId: positiveId,
  submissionId: submissionIdField,
});

/** Staff close an investigation: the outcome, the credit in dollars (for "credit received") and a note. */
export const flagCloseSchema = z.object({
  intent: z.literal("close"),
  statementId: positiveId,
  flagId: positiveId,
  outcome: z.enum(FLAG_OUTCOMES, { errorMap: () => ({ message: "Choose an outcome" }) }),
  credit: z.string().trim().max(20).optional(),
  note: z
    .string({ required_error: "Write a note for the client" })
    .trim()
    .min(1, "Write a note for the client")
    .max(2000, "Keep the note under 2,000 characters"),
  submissionId: submissionIdField,
});

/** The spending page's one form schema: an answer (confirm, investigate) or staff closing (close). */
export const spendingFormSchema = z.discriminatedUnion("intent", [flagAnswerSchema, flagCloseSchema]);
