/**
 * Sign-in mail limits per requesting address (api/domain/sign-in-mail.ts): each send, code and token records the
 * address that asked for it ('unknown' when the caller did not say, as every row before this migration), so that
 * the limits and the trimming of codes and tokens count each address apart and a stranger's requests never
 * spend or push out the owner's. The addresses a person signed in from, with the latest time, make the known
 * addresses exempt from the per-recipient total; a few per person are kept (the newest), none older than the
 * known window.
 */
export const m073_sign_in_requester = {
  id: "073_sign_in_requester",
  sql: /* sql */ `
ALTER TABLE sign_in_mails ADD COLUMN requester TEXT NOT NULL DEFAULT 'unknown';
ALTER TABLE login_codes ADD COLUMN requester TEXT NOT NULL DEFAULT 'unknown';
ALTER TABLE auth_tokens ADD COLUMN requester TEXT NOT NULL DEFAULT 'unknown';
CREATE TABLE known_sign_in_addresses (
  user_id INTEGER NOT NULL REFERENCES users(id),
  address TEXT NOT NULL,
  signed_in_at TEXT NOT NULL,
  PRIMARY KEY (user_id, address)
);
CREATE INDEX known_sign_in_addresses_time ON known_sign_in_addresses(signed_in_at);
`,
};
