import { describe, expect, it } from "vitest";
import { transportOptions } from "../../api/mail/delivery";
import {
  afterFailure,
  classifySmtpFailure,
  MAX_ATTEMPTS,
  messageIdDomain,
  RETRY_BASE_MS,
  RETRY_CAP_MS,
  retryDelayMs,
  scrubSmtpError,
} from "../../api/mail/policy";

describe("which SMTP failures are retried", () => {
  it("fails for good only a 5xx refusal of the message itself", () => {
    expect(classifySmtpFailure({ code: "EENVELOPE", responseCode: 550 })).toBe("permanent");
    expect(classifySmtpFailure({ code: "EMESSAGE", responseCode: 554 })).toBe("permanent");
  });

  it("retries 4xx replies, lost connections, time-outs and refusals of us rather than of the message", () => {
    expect(classifySmtpFailure({ code: "EENVELOPE", responseCode: 451 })).toBe("transient");
    expect(classifySmtpFailure({ code: "ESOCKET" })).toBe("transient");
    expect(classifySmtpFailure({ code: "ETIMEDOUT" })).toBe("transient");
    expect(classifySmtpFailure({ code: "ECONNECTION", responseCode: 554 })).toBe("transient");
    expect(classifySmtpFailure({ code: "EAUTH", responseCode: 535 })).toBe("transient");
    expect(classifySmtpFailure({})).toBe("transient");
  });
});

describe("the wait before the next try", () => {
  it("doubles from the base up to the cap, with jitter between half and all of it", () => {
    expect(retryDelayMs(1, 0)).toBe(RETRY_BASE_MS / 2);
    expect(retryDelayMs(1, 0.999999)).toBeCloseTo(RETRY_BASE_MS, -1);
    expect(retryDelayMs(2, 0)).toBe(RETRY_BASE_MS);
    expect(retryDelayMs(3, 0)).toBe(RETRY_BASE_MS * 2);
    expect(retryDelayMs(20, 0)).toBe(RETRY_CAP_MS / 2);
    expect(retryDelayMs(1000, 1)).toBe(RETRY_CAP_MS);
  });

  it("queues a transient failure again, and gives up on old or endlessly tried mail", () => {
    const base = { error: { code: "ESOCKET" }, kind: "weekly_rundown", random: 0 };
    expect(afterFailure({ ...base, attempts: 1, ageMs: 0 })).toEqual({ status: "queued", delayMs: 5_000 });
    expect(afterFailure({ ...base, attempts: 5, ageMs: 47 * 3600_000 })).toMatchObject({ status: "queued" });
    expect(afterFailure({ ...base, attempts: 5, ageMs: 48 * 3600_000 })).toMatchObject({ status: "failed" });
    expect(afterFailure({ ...base, attempts: MAX_ATTEMPTS, ageMs: 0 })).toMatchObject({ status: "failed" });
    // Sign-in mails expire within the hour: no use delivering them later.
    expect(afterFailure({ ...base, kind: "sign_in", attempts: 3, ageMs: 30 * 60_000 })).toMatchObject({
      status: "queued",
    });
    expect(afterFailure({ ...base, kind: "sign_in", attempts: 3, ageMs: 60 * 60_000 })).toMatchObject({
      status: "failed",
    });
    expect(
      afterFailure({ ...base, error: { code: "EENVELOPE", responseCode: 550 }, attempts: 1, ageMs: 0 }),
    ).toEqual({ status: "failed", reason: "refused by the mail server" });
  });
});

describe("what is written down about a failure", () => {
  it("takes out the SMTP credentials in every form and any URL's user part", () => {
    const url = "smtp://mailer:s3cret%2Fpass%3Aword@mail.example.com:587";
    const scrubbed = scrubSmtpError(
      "Invalid login for mailer with s3cret/pass:word (s3cret%2Fpass%3Aword) at smtp://mailer:x@mail.example.com",
      url,
    );
    expect(scrubbed).not.toMatch(/s3cret|mailer/);
    expect(scrubbed).toContain("***");
    expect(scrubSmtpError("a\n  b", undefined)).toBe("a b");
    expect(scrubSmtpError("x".repeat(2000), url)).toHaveLength(500);
  });
});

describe("Message-ID and transport", () => {
  it("takes the Message-ID's domain from MAIL_FROM, else the web's host", () => {
    expect(messageIdDomain("EnergyOps <alerts@Mail.Example.com>", "http://web.test")).toBe(
      "mail.example.com",
    );
    expect(messageIdDomain("alerts@example.com", undefined)).toBe("example.com");
    expect(messageIdDomain(undefined, "https://app.energyops.test:8443/x")).toBe("app.energyops.test");
    expect(messageIdDomain(undefined, undefined)).toBe("outbox.invalid");
  });

  it("reads SMTP_URL into a pooled transport with decoded credentials and bounded waits", () => {
    expect(transportOptions("smtps://u%40x:p%2Fw@mail.example.com")).toMatchObject({
      pool: true,
      host: "mail.example.com",
      port: 465,
      secure: true,
      auth: { user: "u@x", pass: "p/w" },
      connectionTimeout: 10_000,
      socketTimeout: 30_000,
    });
    expect(transportOptions("smtp://[::1]:2525")).toMatchObject({
      host: "::1",
      port: 2525,
      secure: false,
      auth: undefined,
    });
  });
});
