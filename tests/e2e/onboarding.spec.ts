import {
  expect,
  expectJsState,
  expectNoSeriousA11yViolations,
  isJs,
  loginAs,
  ready,
  test,
  USERS,
} from "./fixtures";

test.describe("onboarding", () => {
  test("the checklist shows every status; starting User Preferences completes it", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/onboarding");
    await expectJsState(page, info);
    await expect(page.getByRole("heading", { name: "Welcome, Dana!" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Setup Checklist" })).toBeVisible();
    await expect(page.getByTestId("onboarding-step-bill_monitoring")).toContainText("Bill Monitoring");
    // Not Started as seeded; In Progress once any test has opened the connect flow.
    await expect(page.getByTestId("onboarding-step-bill_monitoring")).toContainText(
      /Not Started|In Progress/,
    );
    await expect(page.getByTestId("onboarding-step-thermostats")).toContainText("Thermostat Information");
    await expect(page.getByTestId("onboarding-step-thermostats")).toContainText("Complete");
    const prefs = page.getByTestId("onboarding-step-user_preferences");
    await expect(prefs).toContainText("User Preferences");
    if (isJs(info)) await expectNoSeriousA11yViolations(page);
    await ready(page, info);
    // In Progress as seeded; Complete already if a retry follows one that got this far.
    await expect(prefs).toContainText(/In Progress|Complete/);
    await prefs.getByRole("button", { name: /(Continue|Review) User Preferences/ }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await page.goto("/onboarding");
    await expect(page.getByTestId("onboarding-step-user_preferences")).toContainText("Complete");
    await expect(page.getByRole("button", { name: "Review User Preferences" })).toBeVisible();
  });

  test("Connect Utility Accounts is a POST that marks Bill Monitoring in progress, then shows the flow", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    const step = page.getByTestId("onboarding-step-bill_monitoring");
    // A GET of the flow records nothing (with JavaScript too).
    await page.goto("/authorize-arcadia");
    await ready(page, info);
    await expect(page.getByRole("heading", { name: "Select Utility" })).toBeVisible();
    await page.goto("/onboarding");
    await expect(step).toContainText("Not Started");

    await page.goto("/accounts");
    await ready(page, info);
    // A button (a form's POST), not a link.
    await expect(page.getByRole("link", { name: "Connect a utility account" })).toHaveCount(0);
    await page.getByRole("button", { name: "Connect a utility account" }).first().click();
    if (isJs(info)) {
      // With JavaScript the flow shows in the shell's dialog over the page.
      await expect(page).toHaveURL(/\/accounts\?connect=1$/);
      await expect(page.getByRole("dialog").getByRole("heading", { name: "Select Utility" })).toBeVisible();
    } else {
      await expect(page).toHaveURL(/\/authorize-arcadia$/);
      await expect(page.getByRole("heading", { name: "Select Utility" })).toBeVisible();
    }
    await page.goto("/onboarding");
    await expect(step).toContainText("In Progress");
    await ready(page, info);
    await step.getByRole("button", { name: "Continue Bill Monitoring" }).click();
    await expect(page).toHaveURL(/\/authorize-arcadia$/);
    await expect(page.getByRole("heading", { name: "Select Utility" })).toBeVisible();
  });

  test("a client without steps sees the empty state", async ({ page }) => {
    await loginAs(page, USERS.alex);
    await page.goto("/onboarding");
    await expect(page.getByText("No onboarding steps to complete.")).toBeVisible();
  });
});
