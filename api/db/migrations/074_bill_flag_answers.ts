/**
 * The history of a bill flag's answers (rule flag-answer-history, docs/rules.md): every answer recorded, with
 * who gave it, when, and from where (the spending page: `app`; an alert's answer link: `email`). The flag's
 * status stays the answer on record; this table says who put it there and what came before. Flags answered
 * before this migration have no rows: their status stands without a name.
 *
 * And `email_tokens.revoked_at`: removing a person's access to a location ends that person's answer links for
 * that location's flags (api/routes/settings.ts); a revoked token is not valid, even if access is given back.
 */
export const m074_bill_flag_answers = {
  id: "074_bill_flag_answers",
  sql: /* sql */ `
CREATE TABLE bill_flag_answers (
  id INTEGER PRIMARY KEY,
  bill_flag_id INTEGER NOT NULL REFERENCES bill_flags(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  answer TEXT NOT NULL CHECK (answer IN ('dismissed','action_requested')),
  source TEXT NOT NULL CHECK (source IN ('app','email')),
  answered_at TEXT NOT NULL
);
CREATE INDEX bill_flag_answers_flag ON bill_flag_answers(bill_flag_id, id);
ALTER TABLE email_tokens ADD COLUMN revoked_at TEXT;
`,
};
