/**
 * Each Connect session the api minted (a Connect token or a hosted Connect URL): for which client and person,
 * which utility, which location the new accounts go to, and which stored credential in update mode. A provider
 * credential id the browser reports is accepted only against such a session of the same client, person and
 * utility (rule arcadia-credential-claim), and the session keeps what the person chose.
 */
export const m082_arcadia_connect_sessions = {
  id: "082_arcadia_connect_sessions",
  sql: /* sql */ `
CREATE TABLE arcadia_connect_sessions (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('token', 'url')),
  client_id INTEGER NOT NULL REFERENCES clients(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  utility_id INTEGER NOT NULL REFERENCES utilities(id),
  building_id INTEGER REFERENCES buildings(id),
  credential_id INTEGER REFERENCES utility_credentials(id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX arcadia_connect_sessions_person ON arcadia_connect_sessions(client_id, user_id, utility_id, expires_at);
`,
};
