/**
 * How many sign-in mails (login codes, login links, password resets) one person may be sent, and how many of
 * what they were sent stay usable. Anybody can ask for these mails for any address, so without a bound a loop
 * floods the owner's inbox, and if each new code voided the last one, the owner could never type a code in
 * time. The api decides whether to send (it is the one that sends), and a refusal looks exactly like a send to
 * whoever asked: the same 204, no hint that the address exists or that a limit was reached.
 */

/** One limit: at most `max` mails within any `windowMs`. */
export type MailLimit = { windowMs: number; max: number };

/**
 * 5 mails in 15 minutes covers a person asking again because a mail was slow or went to spam; 20 a day caps
 * what a stranger can send one inbox. Both count every kind together: a flood of one kind would otherwise move
 * on to the next.
 */
export const SIGN_IN_MAIL_LIMITS: readonly MailLimit[] = [
  { windowMs: 15 * 60_000, max: 5 },
  { windowMs: 24 * 60 * 60_000, max: 20 },
];

/** The longest window: sends older than this no longer matter and are forgotten. */
export const mailLedgerHorizonMs = (limits: readonly MailLimit[] = SIGN_IN_MAIL_LIMITS) =>
  Math.max(...limits.map((l) => l.windowMs));

/**
 * Whether one more sign-in mail may go to a person who was sent mails at `sentAtMs` (epoch ms, any order).
 * A window counts the sends in (now - windowMs, now].
 */
export function maySendSignInMail(
  sentAtMs: readonly number[],
  nowMs: number,
  limits: readonly MailLimit[] = SIGN_IN_MAIL_LIMITS,
): boolean {
  return limits.every(
    ({ windowMs, max }) => sentAtMs.filter((t) => t > nowMs - windowMs && t <= nowMs).length < max,
  );
}

/**
 * Login codes that stay valid at once: a new code does not void the earlier ones (the one the owner is typing
 * keeps working while a stranger asks for more), and with 5 mails in 15 minutes at most and codes living 10
 * minutes, 5 covers every code still alive. Beyond it the oldest is dropped.
 */
export const LIVE_CODES_KEPT = 5;

/** Login links and reset tokens kept per person and kind, newest first; older ones are dropped. */
export const TOKENS_KEPT_PER_KIND = 5;

/**
 * How long an expired link or reset token is kept, so that opening it still says "expired" rather than
 * "invalid"; after that it is purged.
 */
export const EXPIRED_TOKEN_GRACE_MS = 24 * 60 * 60_000;
