/**
 * The previous bill of the same account (rule flag-price, docs/rules.md): the one with the latest statement date
 * before this bill's (the lower id on the same date), as SQL columns to select next to a bill statement `s`.
 * Used by the bill list, the Bill Audit Alert and the bills CSV alike.
 */
export const PREVIOUS_BILL_COLUMNS = (s: string) => {
  const prev = `FROM bill_statements p WHERE p.account_id = ${s}.account_id
      AND (p.statement_date < ${s}.statement_date OR (p.statement_date = ${s}.statement_date AND p.id < ${s}.id))
      ORDER BY p.statement_date DESC, p.id DESC LIMIT 1`;
  return `(SELECT p.id ${prev}) AS previous_bill_id, (SELECT p.rate_cents ${prev}) AS previous_rate_cents`;
};

export type PreviousBillColumns = { previous_bill_id: number | null; previous_rate_cents: number | null };
