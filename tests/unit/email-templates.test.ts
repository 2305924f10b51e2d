import { describe, expect, it } from "vitest";
import { renderEmail } from "../../api/mail/layout";
import { loginCodeEmail, loginLinkEmail, passwordResetEmail } from "../../api/mail/sign-in";
import { emailProblems } from "../support/email-checks";
import {
  billFlagAlertEmail,
  issueAlertEmail,
  monthlyRecapEmail,
  weeklyRundownEmail,
} from "../../api/mail/notifications";

const BASE = "https://app.energyops.example";

describe("sign-in email templates", () => {
  it("login code: both parts, the code and its sentence in the text, a good email", async () => {
    const mail = await renderEmail(loginCodeEmail(BASE, "123456", 10));
    expect(mail.subject).toBe("Your login code");
    expect(mail.text).toContain("Your login code is 123456. It expires in 10 minutes.");
    expect(mail.html).toContain("123456");
    expect(emailProblems(mail, BASE)).toEqual([]);
  });

  it("login link: the link first, absolute, in both parts", async () => {
    const href = `${BASE}/login/link?token=abc&next=%2Fsettings`;
    const mail = await renderEmail(loginLinkEmail(BASE, href, 15));
    expect(mail.links[0]).toBe(href);
    expect(mail.links).toContain(`${BASE}/settings`);
    expect(mail.text).toContain("Use this link to log in. It expires in 15 minutes and works once:");
    expect(mail.html).toContain("Log in to EnergyOps</");
    expect(emailProblems(mail, BASE)).toEqual([]);
  });

  it("password reset: subject by whether a password exists", async () => {
    const href = `${BASE}/reset-password?token=xyz`;
    const set = await renderEmail(passwordResetEmail(BASE, href, 60, false));
    const reset = await renderEmail(passwordResetEmail(BASE, href, 60, true));
    expect(set.subject).toBe("Set your password");
    expect(reset.subject).toBe("Reset your password");
    expect(reset.links[0]).toBe(href);
    expect(emailProblems(reset, BASE)).toEqual([]);
    expect(emailProblems(set, BASE)).toEqual([]);
  });

  it("the checks find a relative link, a vague link and a missing lang", () => {
    const bad = {
      subject: "x",
      html: '<html><body><h1>x</h1><a href="/settings">here</a><img src="x.png"></body></html>',
      text: "",
      links: ["/settings"],
    };
    expect(emailProblems(bad, BASE)).toEqual(
      expect.arrayContaining([
        "no lang on <html>",
        "an image",
        `link not absolute to ${BASE}: /settings`,
        'link words say nothing alone: "here"',
      ]),
    );
  });
});

describe("notification email templates", () => {
  const common = { baseUrl: BASE, unsubscribeHref: `${BASE}/unsubscribe?token=u1` };
  const bill = {
    statementDate: "2026-11-07",
    serviceStartDate: "2026-10-08",
    serviceEndDate: "2026-11-06",
    totalChargesCents: 323844,
    totalElectricChargesCents: 291460,
    consumptionKwh: 18342,
    rateCents: 14.21,
    supplier: "Direct Energy Business",
    utility: "ComEd",
  };

  it("Bill Audit Alert: the spec's heading and question, the figures, both answers, unsubscribe", async () => {
    const mail = await renderEmail(
      billFlagAlertEmail({
        ...common,
        location: { id: 106, name: "Wicker Park", address: "1425 N Milwaukee Ave" },
        bill,
        previousBill: { rateCents: 12.6 },
        flag: { id: 77, type: "supplier_change", status: "unacknowledged", previousSupplier: "ComEd" },
        billId: 501,
        account: { id: 1006, number: "4410-2231-09", accountsAtLocation: 1 },
        confirmToken: "yes1",
        investigateToken: "no1",
      }),
    );
    expect(mail.subject).toBe("Please verify energy supplier change: Wicker Park");
    // The first line prices the change from the bill's own figures (rule flag-price).
    expect(mail.text.split("\n").find((l) => l.trim() && !l.includes("supplier change"))).toBe(
      "At stake on this bill: $0.1260 → $0.1421 per kWh × 18,342 kWh = $295.31.",
    );
    expect(mail.text).toContain("Account: Acct # 4410-2231-09");
    expect(mail.html).toContain("Did you expect this change?");
    expect(mail.text).toContain("Total charges: $3,238.44");
    expect(mail.links.slice(0, 2)).toEqual([
      `${BASE}/fix-my-bill/dismissed?token=yes1`,
      `${BASE}/fix-my-bill/action_requested?token=no1`,
    ]);
    expect(mail.text).toContain(`Yes, this is expected:\n${BASE}/fix-my-bill/dismissed?token=yes1`);
    expect(mail.text).toContain(`Unsubscribe from Bill Audit Alerts: ${BASE}/unsubscribe?token=u1`);
    expect(emailProblems(mail, BASE)).toEqual([]);
  });

  it("rate class change uses its own heading", async () => {
    const doc = billFlagAlertEmail({
      ...common,
      location: { id: 1, name: "A", address: "x" },
      bill,
      previousBill: null,
      flag: { id: 1, type: "rate_class_change", status: "unacknowledged", previousSupplier: null },
      billId: 2,
      account: { id: 3, number: "X-1", accountsAtLocation: 1 },
      confirmToken: "a",
      investigateToken: "b",
    });
    expect(doc.heading).toBe("Your utility delivery rate increased");
    expect(doc.blocks[0]).toEqual({
      type: "p",
      text: "At stake on this bill: not priced, there is no previous bill of this account to compare the rate with.",
    });
  });

  it("Bill Audit Alert at a location with several accounts: the subject names the account; the link opens it and the bill", async () => {
    const mail = await renderEmail(
      billFlagAlertEmail({
        ...common,
        location: { id: 109, name: "Slope", address: "x" },
        bill,
        previousBill: { rateCents: 14.5 },
        flag: { id: 88, type: "rate_class_change", status: "unacknowledged", previousSupplier: null },
        billId: 612,
        account: { id: 1012, number: "77-0093-1", accountsAtLocation: 2 },
        confirmToken: "a",
        investigateToken: "b",
      }),
    );
    expect(mail.subject).toBe("Your utility delivery rate increased: Slope, Acct # 77-0093-1");
    expect(mail.links).toContain(`${BASE}/locations/109/spending?accountId=1012&billId=612#flag-88`);
    expect(mail.text).toContain("Slope bills, Acct # 77-0093-1");
    expect(mail.text).toContain(
      "At stake on this bill: nothing, the rate did not rise ($0.1450 → $0.1421 per kWh).",
    );
    expect(emailProblems(mail, BASE)).toEqual([]);
  });

  it("thermostat alerts: the issue's words, the control room and the dismissal link", async () => {
    for (const kind of ["device_issue", "customer_comfort"] as const) {
      const mail = await renderEmail(
        issueAlertEmail({
          ...common,
          kind,
          location: { id: 104, name: "Pike Place" },
          thermostat: { id: 1024, name: "Front Counter" },
          issueSlug: "permanent_hold",
          foundAt: "2026-11-12T09:00:00Z",
        }),
      );
      expect(mail.links).toContain(
        `${BASE}/dismiss-thermostat-issue?thermostatId=1024&issueSlug=permanent_hold`,
      );
      expect(mail.links).toContain(`${BASE}/locations/104/control`);
      expect(mail.html).toContain("Inactive schedule");
      expect(emailProblems(mail, BASE)).toEqual([]);
    }
  });

  it("digests: every line's link in both parts", async () => {
    const rundown = await renderEmail(
      weeklyRundownEmail({
        ...common,
        from: "2026-11-09",
        to: "2026-11-16",
        locations: [
          {
            id: 101,
            name: "Capitol Hill",
            openIssues: 2,
            consumptionKwh: 4312,
            consumptionChange: "6% more than the week before",
            peakKw: 38.2,
            upcomingEvents: [{ startsAt: "2026-11-19T21:00:00Z" }],
            newBills: [{ statementDate: "2026-11-12", totalChargesCents: 184512 }],
          },
        ],
      }),
    );
    expect(rundown.subject).toBe("Your Weekly Rundown: Nov 9 – Nov 15, 2026");
    expect(rundown.links).toContain(`${BASE}/locations/101/usage/consumption`);
    expect(emailProblems(rundown, BASE)).toEqual([]);
    const recap = await renderEmail(
      monthlyRecapEmail({
        ...common,
        month: "2026-10",
        clientCompliancePct: 87.4,
        locations: [
          { id: 101, name: "Capitol Hill", spendingCents: 812344, compliancePct: 91.2, gridEvents: 2 },
        ],
      }),
    );
    expect(recap.subject).toBe("Your Monthly Recap: October 2026");
    expect(recap.text).toContain("Schedule compliance: 87%");
    expect(emailProblems(recap, BASE)).toEqual([]);
  });
});
