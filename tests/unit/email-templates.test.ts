import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EMAIL_COLORS, renderEmail } from "../../api/mail/layout";
import { loginCodeEmail, loginLinkEmail, passwordResetEmail } from "../../api/mail/sign-in";
import { emailProblems } from "../support/email-checks";
import {
  alertEmail,
  billFlagAlertEmail,
  comfortDirection,
  comfortReading,
  issueAlertEmail,
  monthlyRecapEmail,
  weeklyRundownEmail,
  type IssueAlertData,
} from "../../api/mail/notifications";

const BASE = "https://app.energyops.example";

describe("sign-in email templates", () => {
  it("login code: both parts, the code and its sentence in the text, a good email", async () => {
    const mail = await renderEmail(loginCodeEmail(BASE, "123456", 10));
    expect(mail.subject).toBe("Your login code");
    expect(mail.text).toContain("Your login code is 123456. It expires in 10 minutes.");
    expect(mail.html).toContain("123456");
    expect(mail.links).toEqual([`${BASE}/login`]);
    expect(emailProblems(mail, BASE)).toEqual([]);
  });

  it("sign-in emails carry no Manage preferences link: their reader is signed out", async () => {
    const mails = await Promise.all([
      renderEmail(loginCodeEmail(BASE, "123456", 10)),
      renderEmail(loginLinkEmail(BASE, `${BASE}/login/link?token=abc`, 15)),
      renderEmail(passwordResetEmail(BASE, `${BASE}/reset-password?token=xyz`, 60, true)),
    ]);
    for (const mail of mails) {
      expect(mail.links).not.toContain(`${BASE}/settings`);
      expect(mail.html).not.toContain("Manage preferences");
      expect(mail.text).not.toContain("Manage preferences");
    }
  });

  it("the emails' colours are the app's (app/styles/app.css tokens)", async () => {
    const css = readFileSync("app/styles/app.css", "utf8");
    const token = (name: string) => new RegExp(`--${name}:\\s*(#[0-9a-f]{6});`, "i").exec(css)?.[1];
    expect(EMAIL_COLORS).toEqual({
      text: token("text"),
      muted: token("muted"),
      brand: token("primary"),
      border: token("border"),
      bg: token("bg"),
    });
    const mail = await renderEmail(loginLinkEmail(BASE, `${BASE}/login/link?token=abc`, 15));
    expect(mail.html).toContain(`background-color:${token("primary")}`);
  });

  it("login link: the link first, absolute, in both parts", async () => {
    const href = `${BASE}/login/link?token=abc&next=%2Fsettings`;
    const mail = await renderEmail(loginLinkEmail(BASE, href, 15));
    expect(mail.links[0]).toBe(href);
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
      "At stake on this bill, from the rate per kWh alone: $0.1260 → $0.1421 per kWh × 18,342 kWh = $295.31.",
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

  it("rate class change: headed by what its figures show, the measured change in place of 50-70%", async () => {
    const alert = (previousBill: { rateCents: number } | null) =>
      billFlagAlertEmail({
        ...common,
        location: { id: 1, name: "A", address: "x" },
        bill,
        previousBill,
        flag: { id: 1, type: "rate_class_change", status: "unacknowledged", previousSupplier: null },
        billId: 2,
        account: { id: 3, number: "X-1", accountsAtLocation: 1 },
        confirmToken: "a",
        investigateToken: "b",
      });
    const rose = alert({ rateCents: 12.6 });
    expect(rose.heading).toBe("Your utility delivery rate increased");
    expect(rose.blocks[1]).toEqual({
      type: "p",
      text: "Your utility moved this account to a different delivery rate class. On this bill the rate per kWh rose from $0.1260 to $0.1421 per kWh (+12.8%). Did you expect this change? If not, we will look into it and respond by email within 1 business day.",
    });
    const unknown = alert(null);
    expect(unknown.heading).toBe("Your utility changed this account's rate class");
    expect(unknown.blocks[0]).toEqual({
      type: "p",
      text: "At stake on this bill, from the rate per kWh alone: not priced, there is no previous bill of this account to compare the rate with.",
    });
    for (const doc of [rose, unknown]) expect(JSON.stringify(doc)).not.toContain("50-70%");
  });

  it("a second flag of a bill says its amount is counted with the first (rule findings-totals)", () => {
    const second: Parameters<typeof billFlagAlertEmail>[0] = {
      ...common,
      location: { id: 1, name: "A", address: "x" },
      bill,
      previousBill: { rateCents: 12.6 },
      countedWith: { type: "supplier_change", inThisEmail: false },
      flag: { id: 2, type: "rate_class_change", status: "unacknowledged", previousSupplier: null },
      billId: 2,
      account: { id: 3, number: "X-1", accountsAtLocation: 1 },
      confirmToken: "a",
      investigateToken: "b",
    };
    expect(billFlagAlertEmail(second).blocks[0]).toEqual({
      type: "p",
      text: "At stake on this bill, from the rate per kWh alone: counted with the supplier change of this bill ($295.31), not added to it.",
    });
    // With that flag in the same email, the amount is said once, there.
    const both = billFlagAlertEmail({
      ...second,
      countedWith: { type: "supplier_change", inThisEmail: true },
    });
    expect(both.blocks[0]).toEqual({
      type: "p",
      text: "At stake on this bill, from the rate per kWh alone: counted with the supplier change of this bill in this email, not added to it.",
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
    // The rate did not rise on this bill: not headed "increased".
    expect(mail.subject).toBe("Your utility changed this account's rate class: Slope, Acct # 77-0093-1");
    expect(mail.text).toContain(
      "On this bill the rate per kWh did not rise: it went from $0.1450 to $0.1421 per kWh (−2.0%).",
    );
    // The flag in the query too: signed out, sign-in keeps it where the fragment is lost (rule sign-in-keeps-flag).
    expect(mail.links).toContain(`${BASE}/locations/109/spending?accountId=1012&billId=612&flag=88#flag-88`);
    expect(mail.text).toContain("Slope bills, Acct # 77-0093-1");
    expect(mail.text).toContain(
      "At stake on this bill, from the rate per kWh alone: nothing, the rate did not rise ($0.1450 → $0.1421 per kWh).",
    );
    expect(emailProblems(mail, BASE)).toEqual([]);
  });

  it("thermostat alerts: the issue's words, the control room and the dismissal link", async () => {
    for (const kind of ["device_issue", "customer_comfort"] as const) {
      const mail = await renderEmail(
        issueAlertEmail({
          ...common,
          kind,
          location: { id: 104, name: "Pike Place", timeZone: "America/Los_Angeles" },
          thermostat: {
            id: 1024,
            name: "Front Counter",
            vendor: "enode",
            issueAutoresolve: false,
            tempIndoorF: 70,
            coolSetpointF: 74,
            heatSetpointF: 68,
            mode: "auto",
          },
          issueSlug: "permanent_hold",
          currentStatus: "active",
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

  it("Weekly Rundown: a missing bill in the app's words, linked to the findings", async () => {
    const rundown = await renderEmail(
      weeklyRundownEmail({
        ...common,
        from: "2026-11-09",
        to: "2026-11-16",
        locations: [
          {
            id: 113,
            name: "Midtown",
            timeZone: "America/New_York",
            thermostats: { label: "Operating", attention: false, count: 1 },
            utilityAccounts: 2,
            consumptionKwh: 2100,
            consumptionChange: null,
            peakKw: 12.5,
            upcomingEvents: [],
            newBills: [],
            missingBills: [
              { accountNumber: "08812-44190", text: "No statement since Sep 19, 2026 (60 days)" },
            ],
          },
        ],
      }),
    );
    expect(rundown.text).toContain(
      "Missing bill: No statement since Sep 19, 2026 (60 days), account 08812-44190.",
    );
    expect(rundown.links).toContain(`${BASE}/findings`);
    expect(emailProblems(rundown, BASE)).toEqual([]);
  });

  it("Weekly Rundown: findings awaiting an answer, per location, with their at stake, count in need attention", async () => {
    const location = {
      timeZone: "America/Chicago",
      thermostats: { label: "Operating", attention: false, count: 1 },
      utilityAccounts: 1,
      consumptionKwh: 2100,
      consumptionChange: null,
      peakKw: 12.5,
      upcomingEvents: [],
      newBills: [],
    };
    const rundown = await renderEmail(
      weeklyRundownEmail({
        ...common,
        from: "2026-11-09",
        to: "2026-11-16",
        locations: [
          { ...location, id: 106, name: "Wicker Park", awaitingAnswer: { count: 2, stakeCents: 5439 } },
          { ...location, id: 107, name: "Loop", awaitingAnswer: null },
        ],
      }),
    );
    expect(rundown.text).toContain("1 of 2 locations needs attention.");
    expect(rundown.text).toContain(
      `- Wicker Park: 2 bill findings awaiting your answer, $54.39 at stake.\n  Findings at your locations: ${BASE}/findings`,
    );
    expect(rundown.text).toContain("- Bill findings: 2 bill findings awaiting your answer, $54.39 at stake.");
    expect(rundown.text.split("awaiting your answer")).toHaveLength(3);
    expect(rundown.subject).toBe("Your Weekly Rundown: Nov 9 – Nov 15, 2026, 1 location needs attention");
    expect(emailProblems(rundown, BASE)).toEqual([]);
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
            timeZone: "America/Los_Angeles",
            thermostats: { label: "Offline", attention: true, count: 2 },
            utilityAccounts: 1,
            consumptionKwh: 4312,
            consumptionChange: "6% more than the week before",
            peakKw: 38.2,
            upcomingEvents: [{ id: 7, startsAt: "2026-11-19T21:00:00Z", endsAt: "2026-11-20T01:00:00Z" }],
            newBills: [{ statementDate: "2026-11-12", totalChargesCents: 184512 }],
          },
        ],
      }),
    );
    expect(rundown.subject).toBe("Your Weekly Rundown: Nov 9 – Nov 15, 2026, 1 location needs attention");
    expect(rundown.links).toContain(`${BASE}/locations/101/usage/consumption?period=week&start=2026-11-09`);
    expect(rundown.links).toContain(`${BASE}/locations/101/usage/demand?period=week&start=2026-11-09`);
    expect(rundown.links).toContain(
      `${BASE}/grid-services?q=Capitol+Hill&from=2026-11-19&to=2026-11-19&open=7`,
    );
    expect(rundown.text).toContain("Your location needs attention.");
    expect(rundown.text).toContain("Thermostats: Offline.");
    expect(rundown.text).toContain("Upcoming grid event: Nov 19, 2026, 1:00 PM – 5:00 PM PST.");
    expect(emailProblems(rundown, BASE)).toEqual([]);
    const recap = await renderEmail(
      monthlyRecapEmail({
        ...common,
        month: "2026-10",
        clientCompliancePct: 87.4,
        locations: [
          {
            id: 101,
            name: "Capitol Hill",
            spendingCents: 812344,
            utilityAccounts: 1,
            compliancePct: 91.2,
            gridEvents: 2,
          },
        ],
      }),
    );
    expect(recap.subject).toBe("Your Monthly Recap: October 2026");
    expect(recap.text).toContain("Schedule compliance: 87%");
    expect(emailProblems(recap, BASE)).toEqual([]);
  });
});

describe("what an alert says", () => {
  const common = { baseUrl: BASE, unsubscribeHref: `${BASE}/unsubscribe?token=u` };
  const thermostat = {
    id: 1015,
    name: "Drive-Thru",
    vendor: "enode",
    issueAutoresolve: false,
    tempIndoorF: 66,
    coolSetpointF: 76,
    heatSetpointF: 70,
    mode: "heat",
  };
  const location = { id: 105, name: "South Congress", timeZone: "America/Chicago" };

  it("a comfort alert: the indoor temperature against the setpoint, and since when (rule comfort-alert-reading)", () => {
    expect(
      comfortReading({
        thermostat,
        location,
        issueSlug: "heat_setpoint_above_indoor_temp",
        foundAt: "2026-11-07T03:55:00Z",
      }),
    ).toBe(
      "It reads 66°F indoors against a heating setpoint of 70°F (4°F cooler). The issue has been open since Nov 6, 2026, 9:55 PM CST.",
    );
    expect(
      comfortReading({
        thermostat: { ...thermostat, tempIndoorF: 78, mode: "auto" },
        location,
        issueSlug: "unexpected_temperature",
        foundAt: "2026-11-07T03:55:00Z",
      }),
    ).toContain(
      "against a heating setpoint of 70°F (8°F warmer) and a cooling setpoint of 76°F (2°F warmer)",
    );
    expect(
      comfortReading({
        thermostat: { ...thermostat, tempIndoorF: null },
        location,
        issueSlug: "x",
        foundAt: "2026-11-07T03:55:00Z",
      }),
    ).toMatch(/^We have no indoor reading from it right now\./);
  });

  it("a comfort alert's first sentence says which: too warm or too cold", () => {
    const first = (over: Partial<IssueAlertData["thermostat"]>, issueSlug: string) =>
      (
        issueAlertEmail({
          ...common,
          kind: "customer_comfort",
          location,
          thermostat: { ...thermostat, ...over },
          issueSlug,
          currentStatus: "active",
          foundAt: "2026-11-07T03:55:00Z",
        }).blocks[0] as { text: string }
      ).text;
    expect(first({}, "heat_setpoint_above_indoor_temp")).toMatch(/ is too cold\.$/);
    expect(first({ tempIndoorF: 80, mode: "auto" }, "unexpected_temperature")).toMatch(/ is too warm\.$/);
    expect(first({ tempIndoorF: null }, "unexpected_temperature")).toMatch(/ may be too warm or too cold\.$/);
    expect(
      comfortDirection({ thermostat: { ...thermostat, tempIndoorF: 72, mode: "auto" }, issueSlug: "x" }),
    ).toBeNull();
  });

  it("an Airzone thermostat's alert offers no dismissal and says what to do instead (rule dismissal-offer)", async () => {
    const mail = await renderEmail(
      issueAlertEmail({
        ...common,
        kind: "device_issue",
        location,
        thermostat: { ...thermostat, id: 1019, name: "Downstairs", vendor: "airzone" },
        issueSlug: "permanent_hold",
        currentStatus: "active",
        foundAt: "2026-11-11T07:05:00Z",
      }),
    );
    expect(mail.links.some((l) => l.includes("/dismiss-thermostat-issue"))).toBe(false);
    expect(mail.text).not.toContain("Dismiss this thermostat issue");
    expect(mail.text).toContain("Issues on Airzone thermostats cannot be resolved or dismissed in EnergyOps");
    // A hold: no longer follows its schedule, and what to do (rule hold-alert-advice).
    expect(mail.text).toContain(
      "Downstairs is on a permanent hold since Nov 11, 2026, 1:05 AM CST: it no longer follows its schedule",
    );
    expect(mail.text).toContain("change it on the thermostat or in the Airzone app");
  });

  it("one email for several alerts, by location then kind, each with its own links; the day's last says so", async () => {
    const bill = (id: number, name: string, token: string) =>
      billFlagAlertEmail({
        ...common,
        location: { id, name, address: "1 Main St" },
        bill: {
          statementDate: "2026-11-12",
          serviceStartDate: "2026-10-10",
          serviceEndDate: "2026-11-09",
          totalChargesCents: 100,
          totalElectricChargesCents: 90,
          consumptionKwh: 10,
          rateCents: 14,
          supplier: null,
          utility: "Util",
        },
        flag: { id, type: "rate_class_change", status: "unacknowledged", previousSupplier: null },
        billId: 500 + id,
        previousBill: null,
        account: { id: 100 + id, number: `A-${id}`, accountsAtLocation: 1 },
        confirmToken: `${token}-yes`,
        investigateToken: `${token}-no`,
      });
    const mail = await renderEmail(
      alertEmail({
        baseUrl: BASE,
        items: [
          { kind: "bill_flag", location: { id: 1, name: "Alpha" }, doc: bill(1, "Alpha", "a") },
          { kind: "bill_flag", location: { id: 2, name: "Beta" }, doc: bill(2, "Beta", "b") },
        ],
        lastOfDay: { nextAt: "Nov 19, 2026, 7:05 AM PST" },
        unsubscribes: [{ kind: "bill_flag", href: `${BASE}/unsubscribe?token=u` }],
      }),
    );
    expect(mail.subject).toBe("Your utility changed this account's rate class: Alpha, and 1 more alert");
    expect(mail.text.indexOf("ALPHA")).toBeLessThan(mail.text.indexOf("BETA"));
    for (const t of ["a-yes", "a-no", "b-yes", "b-no"])
      expect(mail.links.some((l) => l.endsWith(`token=${t}`))).toBe(true);
    // The day's last email under the cap says so in true words, and where what is open is meanwhile: bill
    // findings on the findings page (not the dashboard), thermostat issues on the dashboard.
    expect(mail.text).toContain(
      "This is the last of the 3 alert emails we send you at most in 24 hours: anything we find before Nov 19, 2026, 7:05 AM PST waits, and comes in one email then.",
    );
    expect(mail.text).not.toMatch(/more alerts? (is|are) waiting|next alert email/);
    expect(mail.text).toContain(
      `Bill findings, with what is at stake and your answers:\n  Findings at your locations: ${BASE}/findings`,
    );
    expect(mail.links).toContain(`${BASE}/findings`);
    expect(mail.links).toContain(`${BASE}/locations`);
    // Not the day's last: no such note.
    const first = await renderEmail(
      alertEmail({
        baseUrl: BASE,
        items: [{ kind: "bill_flag", location: { id: 1, name: "Alpha" }, doc: bill(1, "Alpha", "a") }],
        lastOfDay: null,
        unsubscribes: [{ kind: "bill_flag", href: `${BASE}/unsubscribe?token=u` }],
      }),
    );
    expect(first.text).not.toContain("alert emails we send you");
    expect(emailProblems(mail, BASE)).toEqual([]);
  });

  it("a recap with no utility account connected says so, with a link, and no $0.00 (rule nothing-connected)", async () => {
    const recap = await renderEmail(
      monthlyRecapEmail({
        ...common,
        month: "2026-10",
        clientCompliancePct: null,
        locations: [
          {
            id: 201,
            name: "Office",
            spendingCents: null,
            utilityAccounts: 0,
            compliancePct: null,
            gridEvents: 0,
          },
        ],
      }),
    );
    expect(recap.text).not.toContain("$0.00");
    expect(recap.text).toContain("Spending on bills: no utility account connected");
    expect(recap.links).toContain(`${BASE}/authorize-arcadia`);
  });
});
