import { expect, loginAs, moveClocks, test, USERS } from "./fixtures";
import { submitInConnect } from "./arcadia";

/**
 * What follows a verified Connect, the whole trip of the demo (rules connect-what-next, onboarding-matches-data):
 * Success says what happens next; the location's bills page says since when the account is Connected and that
 * the first statement is awaited; Bill Monitoring is complete; the simulator's first statement arrives a few
 * seconds later on the api's clock and the page shows the bill.
 */
test.describe("after Connect", () => {
  test("Maple Dental connects, waits for its first statement, and gets its first bill", async ({
    page,
  }, info) => {
    test.setTimeout(90_000);
    await loginAs(page, USERS.alex);
    await page.goto("/locations/201/spending");
    await expect(page.getByRole("heading", { name: "We're waiting for your first bill" })).toBeVisible();

    await page.goto("/authorize-arcadia?step=connect_arcadia&utility=prov_duke&building=201");
    await submitInConnect(page, info, "alex-dental", { utility: "Duke Energy" });
    await expect(page.getByTestId("connect-what-next")).toHaveText(
      "Bills usually arrive within a few days of connecting: the utility's first statement shows on the location's Bill History page, and an email follows if the connection needs your attention.",
    );

    // The provider verifies the login (its webhook, seconds later): Connected since today, no bill yet.
    const waiting = page.getByRole("heading", {
      name: "Connected on Nov 18, 2026; waiting for the utility's first statement",
    });
    await expect(async () => {
      await page.goto("/locations/201/spending");
      await expect(waiting).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByRole("link", { name: "Connect Utility Accounts" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Connect Utility Accounts" })).toHaveCount(0);
    await page.goto("/onboarding");
    await expect(page.getByTestId("onboarding-step-bill_monitoring")).toContainText("Complete");

    // A few seconds later on the api's clock, the utility's first statement: the bill shows.
    try {
      await moveClocks(info, "2026-11-19T12:00:00.000Z");
      await expect(async () => {
        await page.goto("/locations/201/spending");
        await expect(page.getByRole("heading", { name: "Your Bills" })).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 15_000 });
      await expect(waiting).toHaveCount(0);
    } finally {
      await moveClocks(info, null);
    }
  });
});
