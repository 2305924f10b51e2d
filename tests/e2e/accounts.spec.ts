import type { Page, TestInfo } from "@playwright/test";
import { submitInConnect } from "./arcadia";
import { expect, expectJsState, isJs, loginAs, ready, test, USERS, signInWithCode } from "./fixtures";

/** Picks a utility on the Select Utility step: typing to filter with JavaScript, the server search without. */
async function pickUtility(page: Page, info: TestInfo, search: string, name: string) {
  await ready(page, info);
  await expect(page.getByTestId("utility-filter-status")).toHaveText("Start typing");
  await page.getByLabel("Search utilities").fill(search);
  if (!isJs(info)) await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("utility-filter-status")).toHaveText(/utilit(y|ies) found/);
  await page.getByLabel("Utility", { exact: true }).selectOption({ label: name });
}

test.describe("accounts page", () => {
  test("lists buildings with accounts, every status label and the credential warnings", async ({
    page,
    a11y,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/accounts");
    await expectJsState(page, info);
    await expect(page.getByRole("heading", { name: "Connect Utility Accounts", level: 1 })).toBeVisible();
    const alerts = page.getByTestId("credential-alert");
    await expect(
      alerts.filter({ hasText: "Reconnect Required: Commonwealth Edison (ComEd) (harbor.chicago)" }),
    ).toHaveCount(1);
    await expect(
      alerts.filter({ hasText: "MFA Refresh Required: Eversource Energy (harbor.boston)" }),
    ).toHaveCount(1);
    await expect(alerts.first()).toContainText("Authentication Error");
    const reconnect = alerts.filter({ hasText: "harbor.chicago" }).getByRole("link", { name: /^RECONNECT/ });
    await expect(reconnect).toHaveAttribute("href", "/authorize-arcadia?utility=prov_comed&credential=3");
    await expect(
      alerts.filter({ hasText: "harbor.boston" }).getByRole("link", { name: /^REFRESH MFA/ }),
    ).toBeVisible();

    const wicker = page.getByRole("region", { name: "Harbor Coffee Wicker Park" });
    await expect(wicker.getByRole("row", { name: /0391-77120-4/ })).toContainText("Invalid Credentials");
    await expect(wicker.getByText("The credentials used were invalid. Please reconnect.")).toBeAttached();
    const labels = [
      "Connected",
      "Email Approval Required",
      "Processing",
      "Connection Failed",
      "Inactive",
      "Closed",
      "Not Connected",
    ];
    for (const label of labels)
      await expect(page.locator(".pill", { hasText: new RegExp(`^${label}$`) }).first()).toBeVisible();
    await expect(page.getByText("Final bill received for this account.")).toBeAttached();
    await expect(page.getByText("The data sharing connection was revoked. Please reconnect.")).toBeAttached();
    await a11y();

    await reconnect.click();
    await expect(page.getByRole("heading", { name: "Select Utility" })).toBeVisible();
    await expect(page.getByLabel("Utility", { exact: true })).toHaveValue("prov_comed");
  });

  test("a user limited to some locations sees only their locations' credential warnings", async ({
    page,
  }, info) => {
    await signInWithCode(page, info, USERS.sam, "/accounts");
    // Chicago's credential has an account at Wicker Park (one of Sam's); Boston's only at a location he may not see.
    await expect(page.getByTestId("credential-alert")).toHaveCount(1);
    await expect(page.getByTestId("credential-alert")).toContainText("Reconnect Required");
    await expect(page.getByTestId("credential-alert")).toContainText("harbor.chicago");
    await expect(page.getByText("harbor.boston")).toHaveCount(0);
    expect(await page.content()).not.toContain("harbor.boston");
  });

  test("a client with no accounts sees the empty state", async ({ page }) => {
    await loginAs(page, USERS.alex);
    await page.goto("/accounts");
    await expect(page.getByText("There are no accounts connected.")).toBeVisible();
    await expect(page.getByTestId("credential-alert")).toHaveCount(0);
  });
});

test.describe("connect utility accounts", () => {
  test("the wizard connects to success and the status moves on", async ({ page, a11y }, info) => {
    // Every step of the wizard is a page load (34 s without JavaScript on a busy 2-core machine).
    test.slow();
    await loginAs(page, USERS.dana);
    await page.goto("/authorize-arcadia");
    await expectJsState(page, info);
    await expect(page.getByRole("heading", { name: "Select Utility" })).toBeVisible();
    if (isJs(info)) {
      await ready(page, info);
      await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();
      await page.getByLabel("Search utilities").fill("du");
      await expect(page.getByTestId("utility-filter-status")).toHaveText("Type at least 3 characters");
      await page.getByLabel("Search utilities").fill("zzzz");
      await expect(page.getByTestId("utility-filter-status")).toHaveText("No utilities found");
      await page.getByLabel("Search utilities").fill("");
    }
    await pickUtility(page, info, "duke", "Duke Energy");
    await expect(page.getByLabel("Utility", { exact: true }).locator("option")).toHaveCount(2);
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page.getByRole("heading", { name: "Review accounts" })).toBeVisible();
    // BACK returns to the start and resets the form.
    await page.getByRole("link", { name: "Back" }).click();
    await expect(page.getByRole("heading", { name: "Select Utility" })).toBeVisible();
    await expect(page.getByLabel("Utility", { exact: true })).toHaveValue("");
    await pickUtility(page, info, "duke", "Duke Energy");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("heading", { name: "Review accounts" })).toBeVisible();
    await a11y();
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
    await expect(page.getByText("We read up to 12 months of bills from your utility account.")).toBeVisible();
    await ready(page, info);
    await a11y();
    // The provider's Connect: over the page with JavaScript, its hosted page without.
    await submitInConnect(page, info, "harbor-duke", { utility: "Duke Energy" });
    await page.goto("/accounts");
    const unassigned = page.getByRole("region", { name: "Not yet assigned to a location" });
    // The provider simulator settles the connection after a few seconds.
    await expect(async () => {
      await page.reload();
      await expect(unassigned.getByRole("row", { name: /Duke Energy.*Connected/ }).first()).toBeVisible({
        timeout: 1000,
      });
    }).toPass({ timeout: 25_000 });

    await page.goto("/authorize-arcadia?step=success&utility=prov_duke");
    await page.getByRole("link", { name: "Connect another utility account" }).click();
    await expect(page.getByRole("heading", { name: "Select Utility" })).toBeVisible();
  });

  test("a search that finds one utility selects it, says so, and Continue uses it", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/authorize-arcadia");
    await ready(page, info);
    const search = async (text: string) => {
      await page.getByLabel("Search utilities").fill(text);
      if (!isJs(info)) await page.getByRole("button", { name: "Search" }).click();
    };
    const status = page.getByTestId("utility-filter-status");
    const select = page.getByLabel("Utility", { exact: true });
    // Two matches: nothing is chosen for the user.
    await search("edison");
    await expect(status).toHaveText("2 utilities found");
    await expect(select).toHaveValue("");
    await search("duke");
    await expect(status).toHaveText("1 utility found, Duke Energy selected");
    await expect(select).toHaveValue("prov_duke");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("heading", { name: "Review accounts" })).toBeVisible();
    await expect(page.getByText("Utility: Duke Energy")).toBeVisible();
  });

  test("the JCPL notice and the e-bill text show on the provider's step", async ({ page }) => {
    await loginAs(page, USERS.dana);
    await page.goto("/authorize-arcadia?step=review_accounts&utility=prov_jcpl");
    await expect(
      page.getByText("E-bill must be enabled on this account before it can be connected."),
    ).toBeVisible();
    await page.goto("/authorize-arcadia?step=connect_arcadia&utility=prov_jcpl");
    await expect(
      page.getByText("E-bill must be enabled on this account before it can be connected."),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Connect", exact: true })).toBeVisible();
    // Rejected credentials, timeouts and MFA through Connect: tests/e2e/arcadia-connect.spec.ts.
  });

  test("the ConEd path submits account numbers, then warns when all were already submitted", async ({
    page,
    a11y,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/authorize-arcadia");
    await pickUtility(page, info, "edison", "Consolidated Edison (ConEd)");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();

    const number = "77-1000-2000"; // not in the reset data: submitted for the first time
    await ready(page, info);
    await page.getByLabel("Account number").fill("1$");
    await page.getByRole("button", { name: "Add account" }).click();
    await expect(page.getByText(/Enter a valid account number/)).toBeVisible();
    await page.getByLabel("Account number").fill(number);
    await page.getByRole("button", { name: "Add account" }).click();
    await expect(page.getByRole("list", { name: /Accounts to add/ }).getByText(number)).toBeVisible();
    await page.getByLabel("Account number").fill("88-0000-1111");
    await page.getByRole("button", { name: "Add account" }).click();
    await page.getByRole("button", { name: "Remove account 88-0000-1111" }).click();
    await expect(page.getByText("88-0000-1111")).toHaveCount(0);
    if (isJs(info)) await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();
    else {
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByText("Required", { exact: true })).toBeVisible();
    }
    await page
      .getByLabel("I have ensured all accounts listed above have an associated contact email.")
      .check();
    await a11y();
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page.getByText(/within 2-3 minutes/)).toBeVisible();
    await page.getByRole("button", { name: "Connect" }).click();
    await expect(page.getByRole("heading", { name: "Connection(s) Initiated" })).toBeVisible();
    await expect(page.getByText(/1 Consolidated Edison \(ConEd\) account submitted/)).toBeVisible();

    // Every listed account already submitted: the warning toast, and the user stays on the account list.
    await page.goto(
      `/authorize-arcadia?step=connect_arcadia&utility=prov_coned&confirmed=on&account=${encodeURIComponent(number)}&account=29-4410-8801-0001-2`,
    );
    await ready(page, info);
    await page.getByRole("button", { name: "Connect" }).click();
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("All listed accounts have already been submitted.");
    expect(await toast.textContent()).toContain(
      "All listed accounts have already been submitted.  Please contact support@energyops.test for more information",
    );
    await expect(page.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
  });
});
