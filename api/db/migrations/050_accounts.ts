/**
 * Utility connections, onboarding, settings and the prospect flow: onboarding steps and the task
 * codes sent for them, communication preferences, ConEd account-number submissions, the utility-data
 * provider's pending connections (moved on by api/simulators/utility-provider.ts) and prospects.
 */
export const m050_accounts = {
  id: "050_accounts",
  sql: /* sql */ `
CREATE TABLE onboarding_steps (
  id INTEGER PRIMARY KEY,
  client_id INTEGER NOT NULL REFERENCES clients(id),
  name TEXT NOT NULL CHECK (name IN ('bill_monitoring','thermostats','user_preferences')),
  status TEXT NOT NULL CHECK (status IN ('not_started','in_progress','complete')),
  position INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (client_id, name)
);
CREATE TABLE onboarding_task_events (
  id INTEGER PRIMARY KEY,
  client_id INTEGER NOT NULL REFERENCES clients(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  onboarding_step INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE communication_preferences (
  user_id INTEGER NOT NULL REFERENCES users(id),
  communication_preference_type TEXT NOT NULL,
  delivery_method_preference TEXT NOT NULL CHECK (delivery_method_preference IN ('email','sms')),
  enabled INTEGER NOT NULL,
  PRIMARY KEY (user_id, communication_preference_type, delivery_method_preference)
);
CREATE TABLE prospects (
  id INTEGER PRIMARY KEY,
  correlation_id TEXT NOT NULL UNIQUE,
  first_name TEXT NOT NULL,
  email TEXT NOT NULL COLLATE NOCASE,
  prospect_name TEXT NOT NULL,
  arcadia_provider_id TEXT NOT NULL,
  rate_quote INTEGER NOT NULL DEFAULT 0,
  communications_consent INTEGER NOT NULL DEFAULT 0,
  utility_data_json TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE coned_submissions (
  id INTEGER PRIMARY KEY,
  client_id INTEGER REFERENCES clients(id),
  prospect_id INTEGER REFERENCES prospects(id),
  correlation_id TEXT NOT NULL,
  account_number TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX coned_submissions_client ON coned_submissions(client_id, account_number);
CREATE TABLE utility_connections (
  id INTEGER PRIMARY KEY,
  correlation_id TEXT NOT NULL,
  client_id INTEGER REFERENCES clients(id),
  prospect_id INTEGER REFERENCES prospects(id),
  credential_id INTEGER REFERENCES utility_credentials(id),
  outcome TEXT NOT NULL CHECK (outcome IN ('success','email_approval','invalid_credentials')),
  due_at TEXT NOT NULL,
  settled_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX utility_connections_due ON utility_connections(settled_at, due_at);
`,
};
