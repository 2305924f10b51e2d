import { describe, expect, it } from "vitest";
import { mailLedgerHorizonMs, maySendSignInMail, SIGN_IN_MAIL_LIMITS } from "../../api/domain/sign-in-mail";

const MIN = 60_000;
const now = Date.parse("2026-11-18T12:00:00Z");
const ago = (minutes: number) => now - minutes * MIN;

describe("sign-in mail limits (5 in 15 minutes, 20 a day)", () => {
  it("lets the fifth mail of a quarter hour go and refuses the sixth", () => {
    expect(maySendSignInMail([ago(1), ago(2), ago(3), ago(4)], now)).toBe(true);
    expect(maySendSignInMail([ago(1), ago(2), ago(3), ago(4), ago(14)], now)).toBe(false);
  });

  it("forgets a send once its window has passed", () => {
    expect(maySendSignInMail([ago(15), ago(16), ago(20), ago(30), ago(40)], now)).toBe(true);
  });

  it("refuses the 21st mail of a day however spread out", () => {
    const day = Array.from({ length: 20 }, (_, i) => ago(20 + i * 60));
    expect(maySendSignInMail(day, now)).toBe(false);
    expect(maySendSignInMail(day.slice(1), now)).toBe(true);
    expect(
      maySendSignInMail(
        day.map((t) => t - 24 * 60 * MIN + 19 * 60 * MIN),
        now,
      ),
    ).toBe(true);
  });

  it("does not count sends stamped after now (a clock set back)", () => {
    expect(maySendSignInMail([now + MIN, now + 2 * MIN, now + 3 * MIN, now + 4 * MIN, now + 5], now)).toBe(
      true,
    );
  });

  it("keeps the log for the longest window", () => {
    expect(mailLedgerHorizonMs()).toBe(24 * 60 * MIN);
    expect(SIGN_IN_MAIL_LIMITS.every((l) => l.max > 0)).toBe(true);
  });
});
