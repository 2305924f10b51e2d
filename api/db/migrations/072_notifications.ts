/**
 * Notifications (api/mail/jobs.ts): the ledger of what was sent to whom, whose UNIQUE key makes each email
 * about one flag, issue or period go out once, across restarts and concurrent runs (written in the same
 * transaction as the outbox row); and the tokens of the answer and unsubscribe links in those emails, hashed,
 * single use, expiring, each bound to one flag and one answer, or to one recipient and kind.
 */
export const m072_notifications = {
  id: "072_notifications",
  sql: /* sql */ `
CREATE TABLE notifications_sent (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  kind TEXT NOT NULL,
  subject_key TEXT NOT NULL,
  sent_at TEXT NOT NULL,
  UNIQUE (user_id, kind, subject_key)
);
CREATE INDEX notifications_sent_limit ON notifications_sent(user_id, kind, sent_at);
CREATE TABLE email_tokens (
  id INTEGER PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  purpose TEXT NOT NULL CHECK (purpose IN ('bill_answer','unsubscribe')),
  user_id INTEGER NOT NULL REFERENCES users(id),
  bill_flag_id INTEGER REFERENCES bill_flags(id),
  answer TEXT CHECK (answer IN ('dismissed','action_requested')),
  kind TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  CHECK ((purpose = 'bill_answer' AND bill_flag_id IS NOT NULL AND answer IS NOT NULL)
      OR (purpose = 'unsubscribe' AND kind IS NOT NULL))
);
CREATE INDEX email_tokens_flag ON email_tokens(bill_flag_id);
`,
};
