/** The account the tests' SMTP servers (tests/support/smtp.ts) accept, and the SMTP_URL that signs in with it. */
export const SMTP_USER = "mailer";
export const SMTP_PASS = "s3cret/pass:word";

/** `smtp://user:pass@127.0.0.1:port`, the password percent-encoded as in a real SMTP_URL. */
export const smtpUrl = (port: number) =>
  `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASS)}@127.0.0.1:${port}`;
