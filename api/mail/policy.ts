/**
 * The rules of email delivery, as pure functions: which SMTP failures are worth retrying, how long to wait
 * before the next try, when to give up, and what may be written down about a failure.
 */

/** The first retry waits about this long; each later one twice as long as the one before. */
export const RETRY_BASE_MS = 10_000;
/** No wait between two tries is longer than this (a mail server back after an outage is used within it). */
export const RETRY_CAP_MS = 10 * 60_000;
/**
 * How long a claimed row belongs to the process that claimed it. Longer than the worst send the transport
 * allows (10 s to connect, 10 s for the greeting, 30 s of silence per step), so a slow send is never taken over
 * by a second process while the first may still finish; a row still `sending` past it was left by a crash.
 */
export const LEASE_MS = 5 * 60_000;
/**
 * Sign-in mails carry codes and links that expire within the hour (the password reset's lasts longest):
 * delivered later they would only confuse, so their retries stop after an hour. Other mail is retried for two
 * days, as mail servers retry between themselves.
 */
export const GIVE_UP_AFTER_MS: Readonly<Record<string, number>> = { sign_in: 60 * 60_000 };
export const DEFAULT_GIVE_UP_AFTER_MS = 48 * 60 * 60_000;
/** Tries at most, whatever the age: also ends a row that crashed its sender each time it was claimed. */
export const MAX_ATTEMPTS = 30;

/** What nodemailer's errors carry: `code` (`ECONNECTION`, `ETIMEDOUT`, `EAUTH`, `EENVELOPE`, …) and the SMTP reply code. */
export type SmtpFailure = { code?: string; responseCode?: number; message?: string };

/**
 * `permanent` only when the server refused this message itself with a 5xx reply: its recipients (`EENVELOPE`)
 * or its content (`EMESSAGE`). Everything else is `transient`: no connection, time-outs, 4xx replies, and also
 * a 5xx refusal of us rather than of the message (bad credentials, a greeting that turns us away), which an
 * operator fixes once for every queued mail; failing each mail for it would lose them all.
 */
export function classifySmtpFailure(error: SmtpFailure): "permanent" | "transient" {
  const reply = error.responseCode ?? 0;
  const aboutMessage = error.code === "EENVELOPE" || error.code === "EMESSAGE";
  return reply >= 500 && reply < 600 && aboutMessage ? "permanent" : "transient";
}

/**
 * The wait before try `attempts + 1` after `attempts` failed ones: capped exponential backoff with jitter
 * between half and all of it, so rows that failed together (a mail server outage) do not all come back at once.
 * `random` is in [0, 1).
 */
export function retryDelayMs(attempts: number, random: number): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  const full = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** exponent);
  return Math.round(full / 2 + (full / 2) * Math.min(Math.max(random, 0), 1));
}

export type NextStep = { status: "failed"; reason: string } | { status: "queued"; delayMs: number };

/** After a failed try: fail the row for good, or queue it again after a delay. */
export function afterFailure(input: {
  error: SmtpFailure;
  /** Tries so far, this one included. */
  attempts: number;
  /** Since the row was written. */
  ageMs: number;
  kind: string;
  random: number;
}): NextStep {
  if (classifySmtpFailure(input.error) === "permanent")
    return { status: "failed", reason: "refused by the mail server" };
  const delayMs = retryDelayMs(input.attempts, input.random);
  const giveUpAfter = GIVE_UP_AFTER_MS[input.kind] ?? DEFAULT_GIVE_UP_AFTER_MS;
  if (input.attempts >= MAX_ATTEMPTS)
    return { status: "failed", reason: `gave up after ${input.attempts} tries` };
  if (input.ageMs + delayMs > giveUpAfter)
    return { status: "failed", reason: `gave up after ${input.attempts} tries: too old to be of use` };
  return { status: "queued", delayMs };
}

/**
 * A failure as it may be stored and logged: without the SMTP password or user (in any form the URL holds them)
 * or any other URL's credentials, on one line, at most 500 characters.
 */
export function scrubSmtpError(message: string, smtpUrl: string | undefined): string {
  let text = message.replace(/\s+/g, " ").trim();
  const secrets: string[] = [];
  if (smtpUrl) {
    try {
      const url = new URL(smtpUrl);
      for (const raw of [url.password, url.username]) {
        if (!raw) continue;
        secrets.push(raw);
        try {
          secrets.push(decodeURIComponent(raw));
        } catch {
          // A malformed escape is only ever sent as written.
        }
      }
    } catch {
      // Not a URL: nothing to take out of it.
    }
  }
  for (const secret of secrets.filter((s) => s.length > 0).sort((a, b) => b.length - a.length))
    text = text.split(secret).join("***");
  text = text.replace(/\/\/[^/\s@]+@/g, "//***@");
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}

/** The domain a Message-ID ends with: the sender's (`MAIL_FROM`), else the web's host, else `outbox.invalid`. */
export function messageIdDomain(mailFrom: string | undefined, webBaseUrl: string | undefined): string {
  const fromDomain = mailFrom && /@([A-Za-z0-9.-]+)>?\s*$/.exec(mailFrom)?.[1];
  if (fromDomain) return fromDomain.toLowerCase();
  try {
    const host = webBaseUrl ? new URL(webBaseUrl).hostname : "";
    if (/^[a-z0-9.-]+$/i.test(host)) return host.toLowerCase();
  } catch {
    // Fall through to the placeholder.
  }
  return "outbox.invalid";
}

/** A Message-ID (RFC 5322 `<left@right>`) from a random `unique` part. */
export const messageId = (unique: string, domain: string) => `<${unique}@${domain}>`;
