export const m001_core = {
  id: "001_core",
  sql: /* sql */ `
CREATE TABLE clients (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  client_type TEXT NOT NULL CHECK (client_type IN ('SMB','RESI','LARGE_COMMERCIAL'))
);
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  client_id INTEGER REFERENCES clients(id),
  password_hash TEXT,
  is_client_admin INTEGER NOT NULL DEFAULT 0,
  is_staff INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,               -- sha256 of the api_session cookie value
  user_id INTEGER NOT NULL REFERENCES users(id),
  impersonated_client_id INTEGER REFERENCES clients(id),
  is_demo_mode INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE TABLE login_codes (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  code_hash TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE TABLE auth_tokens (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('login_link','password_reset')),
  token_hash TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  next TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE TABLE outbox (
  id INTEGER PRIMARY KEY,
  to_email TEXT NOT NULL,
  subject TEXT NOT NULL,
  text TEXT NOT NULL,
  links_json TEXT NOT NULL DEFAULT '[]',
  code TEXT,
  sent_at TEXT NOT NULL
);
CREATE INDEX outbox_to ON outbox(to_email, id);
CREATE TABLE buildings (
  id INTEGER PRIMARY KEY,
  client_id INTEGER NOT NULL REFERENCES clients(id),
  name TEXT NOT NULL,
  nickname TEXT,
  code TEXT NOT NULL,                -- the location code staff see, e.g. HCC-007
  address_line1 TEXT NOT NULL,
  address_line2 TEXT,
  city TEXT NOT NULL,
  state TEXT NOT NULL,
  zipcode TEXT NOT NULL,
  timezone TEXT NOT NULL
);
CREATE INDEX buildings_client ON buildings(client_id);
CREATE TABLE user_building_access (
  user_id INTEGER NOT NULL REFERENCES users(id),
  building_id INTEGER NOT NULL REFERENCES buildings(id),
  has_access INTEGER NOT NULL,
  PRIMARY KEY (user_id, building_id)
);
CREATE TABLE utilities (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  arcadia_provider_id TEXT NOT NULL UNIQUE,
  requires_ebill INTEGER NOT NULL DEFAULT 0,
  is_coned INTEGER NOT NULL DEFAULT 0,
  is_jcpl INTEGER NOT NULL DEFAULT 0,
  mfa_exempt INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE utility_credentials (
  id INTEGER PRIMARY KEY,
  client_id INTEGER NOT NULL REFERENCES clients(id),
  utility_id INTEGER NOT NULL REFERENCES utilities(id),
  username TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'ok' CHECK (state IN ('ok','reconnect','mfa_refresh')),
  correlation_id TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE utility_accounts (
  id INTEGER PRIMARY KEY,
  client_id INTEGER NOT NULL REFERENCES clients(id),
  building_id INTEGER REFERENCES buildings(id),
  utility_id INTEGER NOT NULL REFERENCES utilities(id),
  credential_id INTEGER REFERENCES utility_credentials(id),
  number TEXT NOT NULL,
  arcadia_account_status TEXT NOT NULL,
  arcadia_account_status_detail TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX utility_accounts_building ON utility_accounts(building_id);
CREATE TABLE impersonation_audit (
  id INTEGER PRIMARY KEY,
  staff_user_id INTEGER NOT NULL REFERENCES users(id),
  client_id INTEGER NOT NULL REFERENCES clients(id),
  reason TEXT NOT NULL,
  started_at TEXT NOT NULL,
  ended_at TEXT
);
`,
};
