import { isIP } from "node:net";

/**
 * How many sign-in mails (login codes, login links, password resets) one person may be sent, and how many of
 * what they were sent stay usable. Anybody can ask for these mails for any address, so without a bound a loop
 * floods the owner's inbox, and if each new code voided the last one, the owner could never type a code in
 * time. The api decides whether to send (it is the one that sends), and a refusal looks exactly like a send to
 * whoever asked: the same 204, no hint that the address exists or that a limit was reached.
 *
 * A cap per recipient alone can be spent by anybody: a stranger asking twenty times would leave the owner
 * without a sign-in mail for a day. So the limits are kept per recipient AND per requesting address (the
 * web tier passes the browser's address as X-Forwarded-For): a stranger's address only spends its own share,
 * a total per recipient bounds what many addresses together can send to one inbox, and an address the owner
 * signed in from recently is not held to that total, so the owner at their usual place always gets mail.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** One limit: at most `max` mails within any `windowMs`. */
export type MailLimit = { windowMs: number; max: number };

export type SignInMailLimits = {
  /** Per recipient and requesting address: what one address (a stranger's too) may have sent to one person. */
  perAddress: readonly MailLimit[];
  /** Per recipient over every address: the bound on a flood from many addresses. Known addresses skip it. */
  perRecipient: readonly MailLimit[];
  /** How long after a successful sign-in from an address that address counts as the owner's. */
  knownForMs: number;
};

/**
 * 5 mails in 15 minutes covers a person asking again because a mail was slow or went to spam; 10 a day from one
 * address is more than anyone signing in needs; 30 a day to one inbox bounds what many addresses together can
 * send. Every limit counts every kind together: a flood of one kind would otherwise move on to the next. An
 * address that signed in as the person within 30 days is exempt from the per-recipient total.
 */
export const SIGN_IN_MAIL_LIMITS: SignInMailLimits = {
  perAddress: [
    { windowMs: 15 * MINUTE, max: 5 },
    { windowMs: DAY, max: 10 },
  ],
  perRecipient: [{ windowMs: DAY, max: 30 }],
  knownForMs: 30 * DAY,
};

/** Known addresses kept per person, newest first: a few places a person signs in from, not a history. */
export const KNOWN_ADDRESSES_KEPT = 10;

/**
 * The requester of a call that did not say who asked (no usable X-Forwarded-For): every such call shares this
 * one bucket, so an upstream caller that sends no header gets the per-recipient caps of a single address. It is
 * never a known address.
 */
export const UNKNOWN_REQUESTER = "unknown";

/** One sign-in mail sent, as the ledger keeps it. */
export type SentSignInMail = { sentAtMs: number; requester: string };

/** An address the person signed in from, and when they last did. */
export type KnownAddress = { address: string; signedInAtMs: number };

/** The longest window: sends older than this no longer matter and are forgotten. */
export const mailLedgerHorizonMs = (limits: SignInMailLimits = SIGN_IN_MAIL_LIMITS) =>
  Math.max(...[...limits.perAddress, ...limits.perRecipient].map((l) => l.windowMs));

/** Whether fewer than each limit's `max` of the sends fall in its window, (now - windowMs, now]. */
function underLimits(sentAtMs: readonly number[], nowMs: number, limits: readonly MailLimit[]) {
  return limits.every(
    ({ windowMs, max }) => sentAtMs.filter((t) => t > nowMs - windowMs && t <= nowMs).length < max,
  );
}

/** Whether the person signed in from `requester` within the known window, (now - knownForMs, …). */
export function isKnownAddress(
  requester: string,
  known: readonly KnownAddress[],
  nowMs: number,
  limits: SignInMailLimits = SIGN_IN_MAIL_LIMITS,
): boolean {
  if (requester === UNKNOWN_REQUESTER) return false;
  return known.some((k) => k.address === requester && k.signedInAtMs > nowMs - limits.knownForMs);
}

/**
 * Whether one more sign-in mail may go to a person, asked for from `requester`, given the mails the person was
 * sent (any order, any requester) and the addresses they signed in from. The requester's own sends must be
 * under the per-address limits; unless the requester is a known address, all the person's sends must also be
 * under the per-recipient limits. Sends stamped after now (a clock set back) are not counted.
 */
export function maySendSignInMail(
  sent: readonly SentSignInMail[],
  requester: string,
  known: readonly KnownAddress[],
  nowMs: number,
  limits: SignInMailLimits = SIGN_IN_MAIL_LIMITS,
): boolean {
  const own = sent.filter((s) => s.requester === requester).map((s) => s.sentAtMs);
  if (!underLimits(own, nowMs, limits.perAddress)) return false;
  if (isKnownAddress(requester, known, nowMs, limits)) return true;
  return underLimits(
    sent.map((s) => s.sentAtMs),
    nowMs,
    limits.perRecipient,
  );
}

/**
 * How long until one more ask for a sign-in mail would be taken, given when this requester's earlier asks for
 * the same address were taken (any order): 0 while each per-address limit has room, otherwise the time until
 * the ask that fills the fullest window leaves it. Asks, not sends: it is the same whether or not the address
 * has an account, so the page may say it (rule sign-in-mail-limit) without telling who has one.
 */
export function signInMailWaitMs(
  askedAtMs: readonly number[],
  nowMs: number,
  limits: SignInMailLimits = SIGN_IN_MAIL_LIMITS,
): number {
  let wait = 0;
  for (const { windowMs, max } of limits.perAddress) {
    const inWindow = askedAtMs.filter((t) => t > nowMs - windowMs && t <= nowMs).sort((a, b) => b - a);
    if (inWindow.length >= max) wait = Math.max(wait, inWindow[max - 1] + windowMs - nowMs);
  }
  return wait;
}

/** The 8 16-bit groups of an IPv6 address that `isIP` accepted (zone id already removed). */
function ipv6Groups(ip: string): number[] {
  let text = ip;
  // A dotted IPv4 tail (`::ffff:192.0.2.1`) is the last two groups.
  const last = text.lastIndexOf(":") + 1;
  if (text.includes(".", last)) {
    const [a, b, c, d] = text.slice(last).split(".").map(Number);
    text = `${text.slice(0, last)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const part = (s: string) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  if (!text.includes("::")) return part(text);
  const [head, tail] = text.split("::");
  const left = part(head);
  const right = part(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The requester as the mail limits key it, from the X-Forwarded-For the web tier sends (the browser's address,
 * which the web tier reads through its trusted proxies only): its first entry, an IPv4 address as it is, an
 * IPv4-mapped IPv6 address as its IPv4 address, and any other IPv6 address as its /64 network, since one
 * household or phone is given a whole /64 and changes addresses inside it every day. Anything else, or no
 * header, is the shared unknown requester.
 */
export function requesterFromForwardedFor(header: string | undefined): string {
  const entry = header?.split(",")[0]?.trim() ?? "";
  // An IPv6 zone (`fe80::1%eth0`) names the web server's interface, not the requester.
  const first = entry.includes("%") ? entry.slice(0, entry.indexOf("%")) : entry;
  if (first.length > 64) return UNKNOWN_REQUESTER;
  const version = isIP(first);
  if (version === 4) return first;
  if (version !== 6) return UNKNOWN_REQUESTER;
  const g = ipv6Groups(first.toLowerCase());
  if (g.length !== 8) return UNKNOWN_REQUESTER;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff)
    return [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join(".");
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(":")}::/64`;
}

/**
 * Login codes that stay valid at once: a new code does not void the earlier ones (the one the owner is typing
 * keeps working while a stranger asks for more), and with 5 mails in 15 minutes from one address and codes
 * living 10 minutes, 5 covers every code the owner asked for that is still alive. Beyond it the oldest is
 * dropped.
 */
export const LIVE_CODES_KEPT = 5;

/** Login links and reset tokens kept per person and kind, newest first; older ones are dropped. */
export const TOKENS_KEPT_PER_KIND = 5;

/**
 * How long an expired link or reset token is kept, so that opening it still says "expired" rather than
 * "invalid"; after that it is purged.
 */
export const EXPIRED_TOKEN_GRACE_MS = 24 * 60 * 60_000;
