import { describe, expect, it } from "vitest";
import {
  isKnownAddress,
  mailLedgerHorizonMs,
  maySendSignInMail,
  requesterFromForwardedFor,
  signInMailWaitMs,
  SIGN_IN_MAIL_LIMITS,
  UNKNOWN_REQUESTER,
  type KnownAddress,
  type SentSignInMail,
} from "../../api/domain/sign-in-mail";

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const now = Date.parse("2026-11-18T12:00:00Z");
const ago = (minutes: number) => now - minutes * MIN;

const OWNER = "198.51.100.20";
const STRANGER = "203.0.113.9";
const from = (requester: string, times: number[]): SentSignInMail[] =>
  times.map((sentAtMs) => ({ sentAtMs, requester }));
/** `n` sends, one an hour from 20 minutes ago back, each from its own address (none over its own limits). */
const manyAddresses = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ sentAtMs: ago(20 + i * 40), requester: `192.0.2.${i + 1}` }));
const ownerKnown: KnownAddress[] = [{ address: OWNER, signedInAtMs: now - 3 * DAY }];
const may = (sent: SentSignInMail[], requester: string, known: KnownAddress[] = []) =>
  maySendSignInMail(sent, requester, known, now);

describe("sign-in mail limits per requesting address (5 in 15 minutes, 10 a day)", () => {
  it("lets an address's fifth mail of a quarter hour go and refuses its sixth", () => {
    expect(may(from(STRANGER, [ago(1), ago(2), ago(3), ago(4)]), STRANGER)).toBe(true);
    expect(may(from(STRANGER, [ago(1), ago(2), ago(3), ago(4), ago(14)]), STRANGER)).toBe(false);
  });

  it("the quarter hour is (now - 15 min, now]: a send exactly 15 minutes ago no longer counts", () => {
    const four = [ago(1), ago(2), ago(3), ago(4)];
    expect(may(from(STRANGER, [...four, ago(15)]), STRANGER)).toBe(true);
    expect(may(from(STRANGER, [...four, ago(15) + 1]), STRANGER)).toBe(false);
  });

  it("refuses an address's 11th mail of a day however spread out; the day is (now - 24 h, now]", () => {
    const day = Array.from({ length: 10 }, (_, i) => ago(20 + i * 120));
    expect(may(from(STRANGER, day), STRANGER)).toBe(false);
    expect(may(from(STRANGER, day.slice(1)), STRANGER)).toBe(true);
    expect(may(from(STRANGER, [...day.slice(1), now - DAY]), STRANGER)).toBe(true);
    expect(may(from(STRANGER, [...day.slice(1), now - DAY + 1]), STRANGER)).toBe(false);
  });

  it("a stranger spending its share leaves another address's untouched", () => {
    const spent = from(
      STRANGER,
      Array.from({ length: 10 }, (_, i) => ago(20 + i * 60)),
    );
    expect(may(spent, STRANGER)).toBe(false);
    expect(may(spent, OWNER)).toBe(true);
    expect(may(spent, "192.0.2.77")).toBe(true);
  });

  it("a known address is held to its own limits too", () => {
    expect(may(from(OWNER, [ago(1), ago(2), ago(3), ago(4), ago(5)]), OWNER, ownerKnown)).toBe(false);
    const day = from(
      OWNER,
      Array.from({ length: 10 }, (_, i) => ago(20 + i * 60)),
    );
    expect(may(day, OWNER, ownerKnown)).toBe(false);
  });

  it("does not count sends stamped after now (a clock set back)", () => {
    const later = from(STRANGER, [now + MIN, now + 2 * MIN, now + 3 * MIN, now + 4 * MIN, now + 5]);
    expect(may(later, STRANGER)).toBe(true);
  });
});

describe("sign-in mails per recipient over all addresses (30 a day)", () => {
  it("refuses the 31st mail of a day from a new address, however many addresses sent the 30", () => {
    expect(may(manyAddresses(29), STRANGER)).toBe(true);
    expect(may(manyAddresses(30), STRANGER)).toBe(false);
    expect(may(manyAddresses(30), UNKNOWN_REQUESTER)).toBe(false);
  });

  it("counts the day as (now - 24 h, now]", () => {
    const sends = manyAddresses(29);
    expect(may([...sends, { sentAtMs: now - DAY, requester: "192.0.2.200" }], STRANGER)).toBe(true);
    expect(may([...sends, { sentAtMs: now - DAY + 1, requester: "192.0.2.200" }], STRANGER)).toBe(false);
  });

  it("an address the person signed in from within 30 days is not held back by the total", () => {
    expect(may(manyAddresses(30), OWNER, ownerKnown)).toBe(true);
    expect(may(manyAddresses(200), OWNER, ownerKnown)).toBe(true);
  });

  it("an address is known for 30 days after the sign-in: (now - 30 days, …)", () => {
    const at = (signedInAtMs: number) => [{ address: OWNER, signedInAtMs }];
    expect(isKnownAddress(OWNER, at(now - 30 * DAY + 1), now)).toBe(true);
    expect(isKnownAddress(OWNER, at(now - 30 * DAY), now)).toBe(false);
    expect(may(manyAddresses(30), OWNER, at(now - 30 * DAY))).toBe(false);
    expect(may(manyAddresses(30), OWNER, at(now - 30 * DAY + 1))).toBe(true);
  });

  it("another person's known address, or another address, is not known", () => {
    expect(isKnownAddress(STRANGER, ownerKnown, now)).toBe(false);
    expect(may(manyAddresses(30), STRANGER, ownerKnown)).toBe(false);
  });

  it("the unknown requester is never a known address", () => {
    const known = [{ address: UNKNOWN_REQUESTER, signedInAtMs: now - MIN }];
    expect(isKnownAddress(UNKNOWN_REQUESTER, known, now)).toBe(false);
    expect(may(manyAddresses(30), UNKNOWN_REQUESTER, known)).toBe(false);
  });

  it("without a requester every call shares one bucket: the old per-recipient caps of one address", () => {
    const unknown = from(UNKNOWN_REQUESTER, [ago(1), ago(2), ago(3), ago(4), ago(5)]);
    expect(may(unknown, UNKNOWN_REQUESTER)).toBe(false);
    expect(may(unknown, STRANGER)).toBe(true);
  });

  it("keeps the log for the longest window", () => {
    expect(mailLedgerHorizonMs()).toBe(DAY);
    expect(SIGN_IN_MAIL_LIMITS.perAddress.map((l) => l.max)).toEqual([5, 10]);
    expect(SIGN_IN_MAIL_LIMITS.perRecipient.map((l) => l.max)).toEqual([30]);
  });
});

describe("the requester of a call (X-Forwarded-For as the web tier sends it)", () => {
  it("an IPv4 address is itself; the first entry of a list counts", () => {
    expect(requesterFromForwardedFor("203.0.113.9")).toBe("203.0.113.9");
    expect(requesterFromForwardedFor(" 203.0.113.9 , 10.0.0.1")).toBe("203.0.113.9");
  });

  it("an IPv4-mapped IPv6 address is its IPv4 address", () => {
    expect(requesterFromForwardedFor("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(requesterFromForwardedFor("::FFFF:7f00:1")).toBe("127.0.0.1");
  });

  it("an IPv6 address is its /64, so one household's changing addresses are one requester", () => {
    expect(requesterFromForwardedFor("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(requesterFromForwardedFor("2001:0db8:0001:0002:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(requesterFromForwardedFor("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(requesterFromForwardedFor("::1")).toBe("0:0:0:0::/64");
    expect(requesterFromForwardedFor("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(requesterFromForwardedFor("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
  });

  it("no header, or anything that is not an address, is the shared unknown requester", () => {
    for (const value of [
      undefined,
      "",
      "unknown",
      "not-an-ip",
      "203.0.113.9:443",
      "[2001:db8::1]",
      "x".repeat(80),
    ])
      expect(requesterFromForwardedFor(value)).toBe(UNKNOWN_REQUESTER);
  });
});

describe("how long a requester waits for its next sign-in mail (signInMailWaitMs)", () => {
  it("no wait while both windows have room", () => {
    expect(signInMailWaitMs([], now)).toBe(0);
    expect(signInMailWaitMs([ago(1), ago(2), ago(3), ago(4)], now)).toBe(0);
    // Older than 15 minutes: out of the short window.
    expect(signInMailWaitMs([ago(1), ago(2), ago(3), ago(4), ago(16)], now)).toBe(0);
  });

  it("the sixth ask in 15 minutes waits until the oldest of the five leaves the window", () => {
    expect(signInMailWaitMs([ago(1), ago(2), ago(3), ago(4), ago(10)], now)).toBe(5 * MIN);
    expect(signInMailWaitMs([ago(10), ago(4), ago(3), ago(2), ago(1), ago(12)], now)).toBe(5 * MIN);
  });

  it("the eleventh in a day waits for the day window, the longer of the two", () => {
    const day = [ago(1), ago(2), ...Array.from({ length: 8 }, (_, i) => ago(60 + i * 60))];
    // The tenth newest was asked 8 hours ago: 16 hours to wait.
    expect(signInMailWaitMs(day, now)).toBe(DAY - 8 * 60 * MIN);
  });

  it("asks stamped after now (a clock set back) do not count", () => {
    expect(signInMailWaitMs([now + MIN, now + 2 * MIN, ago(1), ago(2), ago(3)], now)).toBe(0);
  });
});
