/**
 * Asks for sign-in mails per address asked for and requesting address (api/domain/sign-in-mail.ts,
 * `signInMailWaitMs`), whether or not the address has an account: beyond the per-address limits the api answers
 * how long to wait, which the login page says, without telling whether an account exists. The address is kept
 * only as its SHA-256 (a stranger's typo is nobody's data); rows older than the longest window are deleted.
 */
export const m076_sign_in_mail_asks = {
  id: "076_sign_in_mail_asks",
  sql: /* sql */ `
CREATE TABLE sign_in_mail_asks (
  id INTEGER PRIMARY KEY,
  address_hash TEXT NOT NULL,
  requester TEXT NOT NULL,
  asked_at TEXT NOT NULL
);
CREATE INDEX sign_in_mail_asks_key ON sign_in_mail_asks(address_hash, requester);
CREATE INDEX sign_in_mail_asks_time ON sign_in_mail_asks(asked_at);
`,
};
