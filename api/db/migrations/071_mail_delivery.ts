/**
 * Delivery of each outbox row (api/mail/delivery.ts). `status`:
 * - `outbox`: no mail server is configured (no `SMTP_URL`); the row itself is the delivery, read on the demo's
 *   outbox page. Rows written before this migration are such rows.
 * - `queued`: waiting for the mail server, first try or retry, at `next_attempt_at`.
 * - `sending`: claimed by one api process until `lease_until` (its `claim_id` alone may record the outcome);
 *   a row still `sending` past its lease was left by a crash and is claimed again.
 * - `sent`: the mail server accepted it at `delivered_at`.
 * - `failed`: refused for good, or retried until it was no use; `last_error` says why (never a password).
 * `message_id` is chosen when the row is written, so every attempt sends the same Message-ID.
 */
export const m071_mail_delivery = {
  id: "071_mail_delivery",
  sql: /* sql */ `
ALTER TABLE outbox ADD COLUMN status TEXT NOT NULL DEFAULT 'outbox';
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN next_attempt_at TEXT;
ALTER TABLE outbox ADD COLUMN lease_until TEXT;
ALTER TABLE outbox ADD COLUMN claim_id TEXT;
ALTER TABLE outbox ADD COLUMN last_error TEXT;
ALTER TABLE outbox ADD COLUMN delivered_at TEXT;
ALTER TABLE outbox ADD COLUMN message_id TEXT;
UPDATE outbox SET message_id = '<' || lower(hex(randomblob(16))) || '@outbox.invalid>' WHERE message_id IS NULL;
CREATE UNIQUE INDEX outbox_message_id ON outbox(message_id);
CREATE INDEX outbox_due ON outbox(status, next_attempt_at) WHERE status IN ('queued', 'sending');
`,
};
