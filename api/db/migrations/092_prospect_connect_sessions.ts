/**
 * Each Connect session the api minted for a prospect of the free bill health check (no client, no person yet):
 * bound to the prospect's record, short-lived, used once. The provider credential its Connect made, how Connect
 * said it ended on the page (`connect_status`) and the provider's verdict by webhook (`verdict`) are kept with
 * it (rule prospect-connect-session). And when the provider first said a utility account is Connected, which the
 * bills page shows until the utility's first statement arrives (rule connect-what-next).
 */
export const m092_prospect_connect_sessions = {
  id: "092_prospect_connect_sessions",
  sql: /* sql */ `
CREATE TABLE prospect_connect_sessions (
  id TEXT PRIMARY KEY,
  prospect_id INTEGER NOT NULL REFERENCES prospects(id),
  kind TEXT NOT NULL CHECK (kind IN ('token', 'url')),
  utility_id INTEGER NOT NULL REFERENCES utilities(id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  provider_credential_id TEXT,
  connect_status TEXT
    CHECK (connect_status IS NULL OR connect_status IN ('verified', 'pending', 'rejected', 'timed_out')),
  verdict TEXT
);
CREATE INDEX prospect_connect_sessions_prospect ON prospect_connect_sessions(prospect_id, expires_at);
CREATE INDEX prospect_connect_sessions_credential ON prospect_connect_sessions(provider_credential_id);
ALTER TABLE utility_accounts ADD COLUMN connected_at TEXT;
`,
};
