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
    await expect(page.getByTestId("onboarding-step-bill_monitoring")).toContainText("In Progress");
    await expect(page.getByTestId("onboarding-step-thermostats")).toContainText("Thermostat Information");
    await expect(page.getByTestId("onboarding-step-thermostats")).toContainText("Complete");
    const prefs = page.getByTestId("onboarding-step-user_preferences");
    await expect(prefs).toContainText("User Preferences");
    if (isJs(info)) await expectNoSeriousA11yViolations(page);
    await ready(page, info);
    // Not Started on a first run; Complete already if a retry follows one that got this far.
    await expect(prefs).toContainText(/Not Started|Complete/);
    await prefs.getByRole("button", { name: /(Start|Review) User Preferences/ }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await page.goto("/onboarding");
    await expect(page.getByTestId("onboarding-step-user_preferences")).toContainText("Complete");
    await expect(page.getByRole("button", { name: "Review User Preferences" })).toBeVisible();
  });

  test("the bill monitoring step starts the connect flow", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/onboarding");
    await ready(page, info);
    await page.getByRole("button", { name: "Continue Bill Monitoring" }).click();
    await expect(page).toHaveURL(/\/authorize-arcadia$/);
    await expect(page.getByRole("heading", { name: "Select Utility" })).toBeVisible();
  });

  test("a client without steps sees the empty state", async ({ page }) => {
    await loginAs(page, USERS.alex);
    await page.goto("/onboarding");
    await expect(page.getByText("No onboarding steps to complete.")).toBeVisible();
  });
});
