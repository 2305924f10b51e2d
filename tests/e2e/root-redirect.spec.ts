import { apiUrl, expect, loginAs, outboxMark, test, USERS, waitForMail } from "./fixtures";
import type { Page, TestInfo } from "@playwright/test";

/** Residential and migrated accounts cannot pass the login options step: they arrive through an emailed link. */
async function signInByLink(page: Page, info: TestInfo, email: string) {
  const since = await outboxMark(info);
  const res = await fetch(`${apiUrl(info)}/auth/login-link/request`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });
  expect(res.status).toBe(204);
  const mail = await waitForMail(info, email, since, /link/i);
  const link = new URL(mail.links[0]);
  // The login-link page ships no app JavaScript (an email deep-link page): nothing to wait for.
  await page.goto(`${link.pathname}${link.search}`);
  await page.getByRole("button", { name: "Continue" }).click();
}

test.describe("root redirect by client type", () => {
  test("SMB goes to /locations", async ({ page }) => {
    await loginAs(page, USERS.dana);
    await page.goto("/");
    await expect(page).toHaveURL(/\/locations$/);
  });

  test("RESI goes to the residential site", async ({ page }, info) => {
    await page.route("https://home.energyops.test/**", (route) =>
      route.fulfill({
        status: 200,
        contentType: "text/html",
        body: "<title>Residential</title><h1>Residential site</h1>",
      }),
    );
    await signInByLink(page, info, USERS.riley);
    await expect(page).toHaveURL("https://home.energyops.test/");
    await expect(page.getByRole("heading", { name: "Residential site" })).toBeVisible();
  });

  test("LARGE_COMMERCIAL is logged out and sent to /mycor", async ({ page }, info) => {
    await page.route("https://mycor.energyops.test/**", (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Migrated app</h1>" }),
    );
    await signInByLink(page, info, USERS.jordan);
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
