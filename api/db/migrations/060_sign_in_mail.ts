/**
 * Sign-in mails (api/domain/sign-in-mail.ts): the log of what was sent to whom (the per-person limits read it;
 * rows older than the longest window are deleted), and indexes for trimming each person's codes and tokens.
 */
export const m060_sign_in_mail = {
  id: "060_sign_in_mail",
  sql: /* sql */ `
CREATE TABLE sign_in_mails (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  sent_at TEXT NOT NULL
);
CREATE INDEX sign_in_mails_user ON sign_in_mails(user_id, sent_at);
CREATE INDEX login_codes_user ON login_codes(user_id, id);
CREATE INDEX auth_tokens_user ON auth_tokens(user_id, kind, id);
`,
};
