/**
 * The utility-data provider's own protocol (Arcadia): a stored credential's id at the provider, the
 * time of the newest provider event applied to it (an older event delivered late never regresses its status),
 * and each received webhook event, keyed by the provider's event id, so a redelivery is applied once.
 * `applied_at` is set once the event has been applied (the endpoint answers before it applies).
 */
export const m081_arcadia = {
  id: "081_arcadia",
  sql: /* sql */ `
ALTER TABLE utility_credentials ADD COLUMN arcadia_credential_id TEXT;
ALTER TABLE utility_credentials ADD COLUMN arcadia_event_at TEXT;
CREATE UNIQUE INDEX utility_credentials_arcadia ON utility_credentials(arcadia_credential_id);
CREATE TABLE arcadia_webhook_events (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  occurred_at TEXT NOT NULL,
  body TEXT NOT NULL,
  received_at TEXT NOT NULL,
  applied_at TEXT,
  outcome TEXT
);
CREATE INDEX arcadia_webhook_events_pending ON arcadia_webhook_events(applied_at);
`,
};
