import fs from "node:fs";
import { inflateSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { TEAM_USERS } from "../../api/db/seed/accounts";
import { HARBOR_BUILDING_ROWS } from "../../api/db/seed/core";
import { THERMOSTAT_ROWS } from "../../api/db/seed/devices";
import { demoProviderId, demoUtilityName } from "../../shared/demo-stand-ins";
import { expect, expectNoSeriousA11yViolations, loginAs, ready, test, USERS } from "./fixtures";

async function impersonate(page: Page, client: string, reason: string) {
  await page.goto(`/impersonate?q=${encodeURIComponent(client.split(" ")[0])}`);
  await page.getByRole("radio", { name: new RegExp(client) }).check();
  await page.getByRole("textbox", { name: "Reason" }).fill(reason);
  await page.getByRole("button", { name: "Start impersonating" }).click();
}

/** Every real name, nickname, code, street and city line of Harbor Coffee Co. (utility names like "Seattle City Light" may stay). */
const REAL = [
  "Harbor",
  ...HARBOR_BUILDING_ROWS.flatMap(([, name, nickname, code, line1, , city, state, zip]) =>
    [name, nickname, code, line1, `${city}, ${state} ${zip}`].filter((v): v is string => Boolean(v)),
  ),
];

// Harbor's people: names as whole words (a "Sam" inside "Same" is not a person), emails by their domain.
const PEOPLE = [
  "Dana",
  "Reyes",
  "Sam",
  "Okafor",
  ...Object.values(TEAM_USERS).flatMap((u) => [u.first, u.last]),
];
// A thermostat's own name ("Roastery Floor") is a device, not a person, client or address: demo mode keeps it.
const withoutDeviceNames = (text: string) =>
  THERMOSTAT_ROWS.reduce((t, d) => t.split(d.name).join("[device]"), text);
const leaks = (raw: string, text = withoutDeviceNames(raw)) => [
  ...REAL.filter((real) => text.includes(real)),
  ...(text.includes("harborcoffee") ? ["an @harborcoffee email"] : []),
  ...PEOPLE.filter((name) => new RegExp(`(^|[^\\p{L}])${name}([^\\p{L}]|$)`, "u").test(text)),
];

/** The text a pdfkit PDF shows: its content streams inflated, the hex strings of each TJ array joined. */
function pdfText(pdf: Buffer) {
  const raw = pdf.toString("latin1");
  const parts: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index! + m[0].length;
    const end = raw.indexOf("endstream", start);
    try {
      parts.push(inflateSync(pdf.subarray(start, end)).toString("latin1"));
    } catch {
      parts.push(raw.slice(start, end));
    }
  }
  return parts
    .join("\n")
    .split(/TJ/)
    .map((chunk) =>
      [...chunk.matchAll(/<([0-9a-fA-F]+)>/g)]
        .map((h) => Buffer.from(h[1], "hex").toString("latin1"))
        .join(""),
    )
    .join("\n");
}

test("staff impersonating a residential or large-commercial client reach the login-required pages", async ({
  page,
}, info) => {
  test.slow();
  for (const client of ["Greenway Homes", "Metro Towers"]) {
    await loginAs(page, USERS.morgan);
    await impersonate(page, client, "Checking the account pages");
    await expect(page.getByTestId("impersonation-banner")).toBeVisible();
    for (const path of ["/settings", "/accounts", "/onboarding", "/authorize-arcadia"]) {
      const res = await page.goto(path);
      await ready(page, info);
      expect(res?.status(), `${client}: ${path}`).toBeLessThan(400);
      await expect(page, `${client}: ${path} is not sent to the home page`).toHaveURL(new RegExp(`${path}$`));
    }
    await page.context().clearCookies();
  }
});

test.describe("staff: impersonation and demo mode", () => {
  test("a regular user is refused the staff pages and actions", async ({ page }) => {
    await loginAs(page, USERS.dana);
    const res = await page.goto("/impersonate");
    expect(res!.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Forbidden" })).toBeVisible();
    const post = await page.request.post("/impersonate", {
      form: { intent: "start", clientId: "2", reason: "Nope nope" },
      maxRedirects: 0,
    });
    expect(post.status()).toBe(403);
  });

  test("staff start impersonating with a reason, see the banner everywhere, and stop", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.morgan);
    await page.goto("/");
    await expect(page).toHaveURL(/\/impersonate$/);
    await ready(page, info);
    await expectNoSeriousA11yViolations(page);

    // No reason: the message sits next to the field and the chosen client is kept.
    await page.goto("/impersonate?q=harbor");
    await page.getByRole("radio", { name: /Harbor Coffee Co\./ }).check();
    await page.getByRole("button", { name: "Start impersonating" }).click();
    const reason = page.getByRole("textbox", { name: "Reason" });
    await expect(reason).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#reason-error")).toHaveText("Please give a reason (at least 3 characters)");
    await expect(page.getByRole("radio", { name: /Harbor Coffee Co\./ })).toBeChecked();

    await reason.fill("Ticket 5521: thermostat offline");
    await page.getByRole("button", { name: "Start impersonating" }).click();
    await expect(page).toHaveURL(/\/locations$/);
    const banner = page.getByTestId("impersonation-banner");
    await expect(banner).toContainText("You are impersonating Harbor Coffee Co.");

    // Staff see location codes, sorted by code number.
    await page.getByTestId("location-select").locator("summary").click();
    const entries = await page.getByRole("list", { name: "Locations" }).getByRole("link").allTextContents();
    expect(entries.slice(1, 4)).toEqual(["HCC-001", "HCC-002", "HCC-003"]);
    await expect(page.getByRole("link", { name: "Impersonate" })).toBeVisible();

    // Impersonating staff see each thermostat's vendor and device model on the card back.
    await page.goto("/locations/113/control");
    const lobby = page.getByRole("article", { name: "Lobby" });
    await lobby.locator("details.thermo-back > summary").click();
    const vendor = lobby.getByTestId("vendor-detail");
    await expect(vendor).toBeVisible();
    await expect(vendor.locator("dt")).toHaveText(["Vendor", "Device model"]);
    await expect(vendor.locator("dd").first()).toHaveText(/^(Enode|Airzone)$/);
    await expect(vendor.locator("dd").nth(1)).toHaveText(/\S/);
    await expect(vendor.locator("dd").nth(1)).not.toHaveText("Unknown");

    await page.goto("/impersonate");
    await expect(page.getByTestId("impersonation-banner")).toContainText("Harbor Coffee Co.");
    await page.getByTestId("impersonation-banner").getByRole("button", { name: "Stop" }).click();
    await expect(page).toHaveURL(/\/impersonate$/);
    await expect(page.getByTestId("impersonation-banner")).toHaveCount(0);
  });

  test("demo mode hides every real name and address", async ({ page }, info) => {
    await loginAs(page, USERS.morgan);
    await impersonate(page, "Harbor Coffee Co.", "Sales demo for a prospect");
    await expect(page).toHaveURL(/\/locations$/);
    await page.getByTestId("impersonation-banner").getByRole("button", { name: "Turn on demo mode" }).click();
    await expect(page.getByTestId("impersonation-banner")).toContainText("You are impersonating Demo Client");
    await ready(page, info);

    for (const path of [
      "/locations",
      "/locations?expanded=106",
      "/locations?q=new+york",
      "/impersonate",
      "/settings?tab=team",
      "/accounts",
      "/locations/101/control",
      "/locations/101/spending",
      "/locations/101/usage/demand",
      "/override-report",
    ]) {
      await page.goto(path);
      expect(leaks(await page.content()), `${path} shows`).toEqual([]);
    }
    // The Team tab lists the members under demo names; the accounts page does not repeat a name.
    await page.goto("/settings?tab=team");
    await expect(page.getByTestId("team-table")).toContainText("demo-user-");
    await page.goto("/accounts");
    await expect(page.locator("body")).not.toContainText("Demo Location 101 (Demo Location 101)");
    // Downloads: the location CSVs and a bill's PDF.
    for (const path of ["/locations/101/spending/csv", "/locations/101/usage/demand/csv"]) {
      const res = await page.request.get(path);
      expect(res.status(), path).toBe(200);
      expect(leaks(await res.text()), `${path} shows`).toEqual([]);
    }
    await page.goto("/locations/101/spending");
    const pdfHref = await page
      .getByRole("link", { name: /Download the bill/ })
      .first()
      .getAttribute("href");
    const pdf = await page.request.get(pdfHref!);
    expect(pdf.headers()["content-type"]).toMatch(/application\/pdf/);
    const text = pdfText(await pdf.body());
    expect(text).toContain("Service address");
    expect(text).toContain("New York, NY");
    expect(leaks(text), "the bill PDF shows").toEqual([]);
    await page.goto("/locations");
    await expect(page.getByTestId("location-row-104")).toContainText("DEMO-104");
    await expect(page.getByTestId("location-row-104")).toContainText("New York, NY");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download Bill Statements Summary" }).click(),
    ]);
    const csv = fs.readFileSync((await download.path())!, "utf8");
    expect(leaks(csv), "the bill statements CSV shows").toEqual([]);

    await page
      .getByTestId("impersonation-banner")
      .getByRole("button", { name: "Turn off demo mode" })
      .click();
    await expect(page.getByTestId("impersonation-banner")).toContainText(
      "You are impersonating Harbor Coffee Co.",
    );
    await page.getByTestId("impersonation-banner").getByRole("button", { name: "Stop" }).click();
    await expect(page.getByTestId("impersonation-banner")).toHaveCount(0);
  });

  test("demo mode connects a utility from a link carrying its provider id stand-in", async ({
    page,
  }, info) => {
    // Every step is a page load without JavaScript.
    test.slow();
    // A real provider id ("prov_scl"); the stand-ins ("prov_demo_…") are what demo mode shows instead.
    const realProviderId = /prov_(?!demo_)/;
    const standIn = demoProviderId("prov_scl");
    const utility = demoUtilityName("Seattle City Light");
    await loginAs(page, USERS.morgan);
    await impersonate(page, "Harbor Coffee Co.", "Sales demo of the connect flow");
    await expect(page).toHaveURL(/\/locations$/);
    await page.getByTestId("impersonation-banner").getByRole("button", { name: "Turn on demo mode" }).click();
    await expect(page.getByTestId("impersonation-banner")).toContainText("You are impersonating Demo Client");

    await page.goto(`/authorize-arcadia?step=review_accounts&utility=${standIn}`);
    await expect(page.getByRole("heading", { name: "Review accounts" })).toBeVisible();
    // Harbor's Seattle accounts: upstream was asked with the real id, the page shows demo numbers.
    await expect(page.getByRole("table", { name: `Accounts already on file with ${utility}` })).toContainText(
      "DEMO-",
    );
    expect(await page.content()).not.toMatch(realProviderId);
    await ready(page, info);
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
    await ready(page, info);
    await page.getByLabel(`${utility} username`).fill("demo-viewer");
    await page.getByLabel(`${utility} password`).fill("s3cret");
    await page.getByRole("button", { name: "Connect" }).click();

    await expect(page.getByRole("heading", { name: "Connection(s) Initiated" })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`utility=${standIn}`));
    expect(await page.content()).not.toMatch(realProviderId);
  });
});
