/**
 * Screenshots of every email's HTML part at 600 px (a desktop mail client's reading pane) and 390 px (a phone),
 * light, dark and darkened by the mail app, and with images blocked (VIEWS below), from the templates with
 * sample data: `npx tsx scripts/email-screenshots.ts [outDir]` (default /tmp/emails).
 * Look at them after changing the layout or a template.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { renderEmail, type EmailDoc } from "../api/mail/layout";
import { loginCodeEmail, loginLinkEmail, passwordResetEmail } from "../api/mail/sign-in";
import {
  billFlagAlertEmail,
  flagOutcomeEmail,
  issueAlertEmail,
  monthlyRecapEmail,
  weeklyRundownEmail,
} from "../api/mail/notifications";

const out = process.argv[2] ?? "/tmp/emails";
const base = "https://app.energyops.example";
const common = { baseUrl: base, unsubscribeHref: `${base}/unsubscribe?token=sample` };
const loc = (id: number, name: string) => ({ id, name });
const tz = "America/Los_Angeles";
const enode = (id: number, name: string, t: number | null, heat: number | null, cool: number | null) => ({
  id,
  name,
  vendor: "enode",
  issueAutoresolve: false,
  tempIndoorF: t,
  heatSetpointF: heat,
  coolSetpointF: cool,
  mode: heat !== null && cool !== null ? "auto" : heat !== null ? "heat" : "cool",
});

const docs: Record<string, EmailDoc> = {
  "login-code": loginCodeEmail(base, "482913", 10),
  "login-link": loginLinkEmail(base, `${base}/login/link?token=sample`, 15),
  "password-reset": passwordResetEmail(base, `${base}/reset-password?token=sample`, 60, true),
  "bill-flag": billFlagAlertEmail({
    ...common,
    location: {
      id: 106,
      name: "Harbor Coffee Wicker Park",
      address: "1425 N Milwaukee Ave, Chicago, IL 60622",
    },
    bill: {
      statementDate: "2026-11-07",
      serviceStartDate: "2026-10-08",
      serviceEndDate: "2026-11-06",
      totalChargesCents: 323844,
      totalElectricChargesCents: 291460,
      consumptionKwh: 18342,
      rateCents: 14.21,
      supplier: "Direct Energy Business",
      utility: "ComEd",
    },
    previousBill: { rateCents: 12.6 },
    flag: { id: 9001, type: "supplier_change", status: "unacknowledged", previousSupplier: "ComEd" },
    billId: 5001,
    account: { id: 1006, number: "4410-2231-09", accountsAtLocation: 2 },
    confirmToken: "sample-yes",
    investigateToken: "sample-no",
  }),
  "flag-outcome": flagOutcomeEmail({
    ...common,
    location: { id: 105, name: "Harbor Coffee South Congress" },
    flag: { id: 7009, type: "rate_class_change", status: "completed", previousSupplier: null },
    bill: { id: 5001, statementDate: "2026-11-18", supplier: null },
    account: { id: 1006, number: "AE-30019-881" },
    outcome: {
      outcome: "credit_received",
      creditCents: 120450,
      note: "Austin Energy moved the account back to its small-commercial rate class and credited the difference.",
      by: "Morgan Ellis",
      closedAt: "2026-11-28T15:00:00.000Z",
      timezone: "America/Chicago",
    },
  }),
  "device-issue": issueAlertEmail({
    ...common,
    kind: "device_issue",
    location: { ...loc(104, "Harbor Coffee Pike Place"), timeZone: tz },
    thermostat: enode(1024, "Front Counter", 70, 68, 74),
    issueSlug: "permanent_hold",
    currentStatus: "active",
    foundAt: "2026-11-12T09:00:00Z",
  }),
  "customer-comfort": issueAlertEmail({
    ...common,
    kind: "customer_comfort",
    location: { ...loc(103, "Harbor Coffee Fremont"), timeZone: tz },
    thermostat: enode(1015, "Seating Area", 66, 70, null),
    issueSlug: "heat_setpoint_above_indoor_temp",
    currentStatus: "active",
    foundAt: "2026-11-14T09:00:00Z",
  }),
  "weekly-rundown": weeklyRundownEmail({
    ...common,
    from: "2026-11-09",
    to: "2026-11-16",
    locations: [
      {
        ...loc(101, "Harbor Coffee Capitol Hill"),
        timeZone: tz,
        thermostats: { label: "Offline", attention: true, count: 2 },
        utilityAccounts: 1,
        consumptionKwh: 4312.4,
        consumptionChange: "6% more than the week before",
        peakKw: 38.2,
        upcomingEvents: [{ id: 7, startsAt: "2026-11-19T21:00:00Z", endsAt: "2026-11-20T01:00:00Z" }],
        newBills: [{ statementDate: "2026-11-12", totalChargesCents: 184512 }],
      },
      {
        ...loc(102, "Harbor Coffee Ballard"),
        timeZone: tz,
        thermostats: { label: "Operating", attention: false, count: 3 },
        utilityAccounts: 1,
        consumptionKwh: 2980,
        consumptionChange: "3% less than the week before",
        peakKw: 22.7,
        upcomingEvents: [],
        newBills: [],
      },
    ],
  }),
  "monthly-recap": monthlyRecapEmail({
    ...common,
    month: "2026-10",
    clientCompliancePct: 87.4,
    locations: [
      {
        ...loc(101, "Harbor Coffee Capitol Hill"),
        spendingCents: 812344,
        utilityAccounts: 1,
        compliancePct: 91.2,
        gridEvents: 2,
      },
      {
        ...loc(102, "Harbor Coffee Ballard"),
        spendingCents: null,
        utilityAccounts: 0,
        compliancePct: null,
        gridEvents: 0,
      },
    ],
  }),
};

/**
 * How each email is looked at: as sent (light); with the reader's system in dark mode (prefers-color-scheme:
 * dark: the email's own `color-scheme` answer applies); darkened by the mail app whatever the email says (the
 * Gmail and Outlook apps on Android render mail in a WebView with its forced dark mode: Chromium's
 * `forceDarkModeEnabled`); and with images blocked (requests for images refused, as many clients do by default).
 */
const VIEWS = ["light", "dark", "forced-dark", "images-off"] as const;
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath });
const forcedDark = await chromium.launch({
  executablePath,
  args: ["--blink-settings=forceDarkModeEnabled=true"],
});
try {
  for (const [name, doc] of Object.entries(docs)) {
    const { html } = await renderEmail(doc);
    fs.writeFileSync(path.join(out, `${name}.html`), html);
    for (const view of VIEWS) {
      for (const width of [600, 390]) {
        const page = await (view === "forced-dark" ? forcedDark : browser).newPage({
          viewport: { width, height: 800 },
          colorScheme: view === "dark" ? "dark" : "light",
        });
        if (view === "images-off")
          await page.route("**/*", (route) =>
            route.request().resourceType() === "image" ? route.abort() : route.continue(),
          );
        await page.setContent(html);
        const suffix = view === "light" ? "" : `-${view}`;
        await page.screenshot({ path: path.join(out, `${name}-${width}${suffix}.png`), fullPage: true });
        await page.close();
      }
    }
  }
} finally {
  await browser.close();
  await forcedDark.close();
}
console.log(`screenshots in ${out}`);
