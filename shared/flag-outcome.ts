import { priceMoney } from "./flag-price";

/**
 * How an investigation ends (rule flag-outcome, docs/rules.md): staff, on the client's account, close a flag
 * whose answer on record is "No, please investigate" (`action_requested`) with one of three outcomes and a note;
 * the flag becomes `completed` (final). The spending page, the api and the outcome email share these words.
 */
export const FLAG_OUTCOMES = ["credit_received", "billing_correct", "closed_by_client"] as const;
export type FlagOutcome = (typeof FLAG_OUTCOMES)[number];

export const OUTCOME_LABELS: Record<FlagOutcome, string> = {
  credit_received: "Credit received",
  billing_correct: "Billing was correct",
  closed_by_client: "Closed by the client",
};

/** Only an investigation (action_requested) can be closed; anything else is refused. */
export const mayCloseFlag = (status: string) => status === "action_requested";

/** A credit is required for "credit received" (a positive amount, at most $1,000,000) and refused otherwise. */
export const MAX_CREDIT_CENTS = 100_000_000;
export function outcomeProblem(outcome: FlagOutcome, creditCents: number | null | undefined): string | null {
  if (outcome === "credit_received") {
    if (creditCents === null || creditCents === undefined) return "Enter the credit received";
    if (!Number.isInteger(creditCents) || creditCents <= 0 || creditCents > MAX_CREDIT_CENTS)
      return "Enter the credit as an amount above $0.00, in dollars and cents";
    return null;
  }
  return creditCents === null || creditCents === undefined
    ? null
    : "A credit goes only with “Credit received”";
}

/**
 * The outcome in words: "Credit received: $120.00", "Billing was correct"; with the amount that was at stake on
 * the bill (rule flag-price), a credit says how much of it came back: "Credit received: $68.40 of $74.27".
 */
export const outcomeWords = (
  o: { outcome: FlagOutcome; creditCents: number | null },
  stakeCents?: number | null,
) =>
  o.outcome === "credit_received" && o.creditCents !== null
    ? `${OUTCOME_LABELS.credit_received}: ${priceMoney(o.creditCents)}${stakeCents ? ` of ${priceMoney(stakeCents)}` : ""}`
    : OUTCOME_LABELS[o.outcome];
