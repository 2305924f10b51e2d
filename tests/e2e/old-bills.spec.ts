import { expect, expectNoSeriousA11yViolations, loginAs, ready, test, USERS } from "./fixtures";

/**
 * An account that stopped billing warns on the dashboard (rule old-bill-45-days): Midtown's (113) account
 * 08812-44190 has had no statement for 60 days (the seed's one missing bill), while the location's Last Bill is
 * its other account's recent one. The row says so in the spec's words, and its expanded account says who acts
 * and how: on a phone, with JavaScript on and off.
 */
test.use({ viewport: { width: 390, height: 844 } });

test("Midtown's row and expanded account warn of the account with no recent bill, and say what to do", async ({
  page,
}, info) => {
  await loginAs(page, USERS.dana);
  await page.goto("/locations");
  await ready(page, info);
  const row = page.getByTestId("location-row-113");
  // The location's own Last Bill is recent: no icon on it; the stale account is named under it.
  await expect(row.getByRole("button", { name: "Warning: old bill" })).toHaveCount(0);
  const warning = row.getByTestId("stale-bill");
  await expect(warning).toHaveText(
    /^! Account 08812-44190, last bill [A-Z][a-z]{2} \d{1,2}, \d{4}: This bill is more than 45 days old\. What to do$/,
  );
  await expect(warning).toBeVisible();
  // The seed's only account past 45 days.
  await expect(page.getByTestId("stale-bill")).toHaveCount(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await warning.getByRole("link", { name: "What to do" }).click();
  await expect(page).toHaveURL(/[?&]expanded=113(&|$)/);
  await ready(page, info);
  const help = page.getByTestId("accounts-113").getByTestId("stale-bill-help");
  await expect(help).toHaveCount(1);
  await expect(help).toBeVisible();
  await expect(help).toContainText(
    /Account 08812-44190, last bill [A-Z][a-z]{2} \d{1,2}, \d{4}: This bill is more than 45 days old\./,
  );
  await expect(help).toContainText(
    /What you can do: check with .+ that the account is open and e-billing is on, then reconnect it on Connect Utility Accounts\. If the account was closed, tell us at \S+@\S+\./,
  );
  // It stands right under the stale account's row, not the recent one's.
  await expect(
    page
      .getByTestId("accounts-113")
      .getByRole("row")
      .filter({ has: page.getByTestId("stale-bill-help") }),
  ).toHaveCount(1);
  await expect(
    page
      .getByTestId("accounts-113")
      .locator("tr:has([data-testid=stale-bill-help])")
      .locator("xpath=preceding-sibling::tr[1]"),
  ).toContainText("08812-44190");
  await expect(help.getByRole("link", { name: /^tell us at / })).toHaveAttribute(
    "href",
    /^mailto:[^?]+\?subject=Account%2008812-44190%20was%20closed$/,
  );
  // The row's own link is gone once the guidance is open.
  await expect(row.getByRole("link", { name: "What to do" })).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoSeriousA11yViolations(page);
  await row.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath("old-bill-390.png") });

  // The reconnect path: the accounts page, where the same account reads as a missing bill.
  await help.getByRole("link", { name: "Connect Utility Accounts" }).click();
  await expect(page).toHaveURL(/\/accounts$/);
  await expect(page.getByRole("heading", { name: "Connect Utility Accounts", level: 1 })).toBeVisible();
  await expect(
    page.getByRole("row").filter({ hasText: "08812-44190" }).getByTestId("missing-bill"),
  ).toBeVisible();
});
