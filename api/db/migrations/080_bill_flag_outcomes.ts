/**
 * How an investigation ended (rule flag-outcome, docs/rules.md): staff close an `action_requested` flag with an
 * outcome (a credit received, with its amount; the billing was correct; closed by the client) and a note. One
 * row per flag (a closed flag is `completed`, which is final); who closed it and when.
 */
export const m080_bill_flag_outcomes = {
  id: "080_bill_flag_outcomes",
  sql: /* sql */ `
CREATE TABLE bill_flag_outcomes (
  bill_flag_id INTEGER PRIMARY KEY REFERENCES bill_flags(id),
  outcome TEXT NOT NULL CHECK (outcome IN ('credit_received','billing_correct','closed_by_client')),
  credit_cents INTEGER CHECK (credit_cents IS NULL OR credit_cents > 0),
  note TEXT NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users(id),
  closed_at TEXT NOT NULL,
  CHECK ((outcome = 'credit_received') = (credit_cents IS NOT NULL))
);
`,
};
