/**
 * Idempotency keys (api/lib/idempotency.ts, ADR 0010): the answer of each keyed write, stored in the same
 * transaction as the write, so that a repeat of the request (the web tier resends a submission whose answer it
 * never got) is answered with it instead of acting again. A key belongs to its owner (the signed-in user and the
 * client the session acts for): another user's key never finds this row. `fingerprint` is the request it
 * answered (method, path and body); rows older than a day are deleted.
 */
export const m077_idempotency_keys = {
  id: "077_idempotency_keys",
  sql: /* sql */ `
CREATE TABLE idempotency_keys (
  owner TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status INTEGER NOT NULL,
  content_type TEXT,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (owner, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
`,
};
