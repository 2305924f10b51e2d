import fs from "node:fs";
import type { Page } from "@playwright/test";
import { HARBOR_BUILDING_ROWS } from "../../api/db/seed/core";
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

    for (const path of ["/locations", "/locations?expanded=106", "/locations?q=new+york", "/impersonate"]) {
      await page.goto(path);
      const html = await page.content();
      for (const real of REAL) expect(html, `${path} shows ${real}`).not.toContain(real);
    }
    await page.goto("/locations");
    await expect(page.getByTestId("location-row-104")).toContainText("DEMO-104");
    await expect(page.getByTestId("location-row-104")).toContainText("New York, NY");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download Bill Statements Summary" }).click(),
    ]);
    const csv = fs.readFileSync((await download.path())!, "utf8");
    for (const real of REAL) expect(csv).not.toContain(real);

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
});
