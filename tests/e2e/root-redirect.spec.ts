import { expect, loginAs, test, USERS } from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * Residential and migrated clients' own people get no session (tests/e2e/sign-in-mail.spec.ts): the root
 * redirect by their client type is what staff meet while impersonating such a client.
 */
async function impersonate(page: Page, client: string) {
  await loginAs(page, USERS.morgan);
  await page.goto(`/impersonate?q=${encodeURIComponent(client.split(" ")[0])}`);
  await page.getByRole("radio", { name: new RegExp(client) }).check();
  await page.getByRole("textbox", { name: "Reason" }).fill("Checking the root redirect");
  await page.getByRole("button", { name: "Start impersonating" }).click();
  await expect(page.getByTestId("impersonation-banner")).toBeVisible();
}

test.describe("root redirect by client type", () => {
  test("SMB goes to /locations", async ({ page }) => {
    await loginAs(page, USERS.dana);
    await page.goto("/");
    await expect(page).toHaveURL(/\/locations$/);
  });

  test("RESI goes to the residential site", async ({ page }) => {
    await impersonate(page, "Greenway Homes");
    const res = await page.request.get("/", { maxRedirects: 0 });
    expect(res.status()).toBe(302);
    expect(res.headers().location).toBe("https://home.energyops.test/");
  });

  test("LARGE_COMMERCIAL is logged out and sent to /mycor", async ({ page }) => {
    await page.route("https://mycor.energyops.test/**", (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Migrated app</h1>" }),
    );
    await impersonate(page, "Metro Towers");
    await page.goto("/");
    await expect(page).toHaveURL(/\/mycor$/);
    await expect(page.getByRole("heading", { name: "Your account has moved" })).toBeVisible();
    await expect(page.getByTestId("countdown")).toBeVisible();
    // After the 5-second countdown (or the no-JS refresh) the migrated application opens.
    await expect(page).toHaveURL("https://mycor.energyops.test/", { timeout: 9000 });
    // The session was ended on the way.
    await page.goto("/locations");
    await expect(page).toHaveURL(/\/login\?next=%2Flocations$/);
  });
});
