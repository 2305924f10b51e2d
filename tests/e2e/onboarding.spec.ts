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
  test("a client that has done it all sees every step complete and is not asked to set up", async ({
    page,
  }, info) => {
    // Harbor: accounts connected, thermostats in the Control Room, preferences chosen.
    await loginAs(page, USERS.dana);
    await page.goto("/onboarding");
    await expectJsState(page, info);
    await expect(page.getByRole("heading", { name: "Setup Checklist" })).toBeVisible();
    for (const name of ["bill_monitoring", "thermostats", "user_preferences"])
      await expect(page.getByTestId(`onboarding-step-${name}`)).toContainText("Complete");
    await page.goto("/locations");
    await ready(page, info);
    await expect(page.getByRole("link", { name: "Set up your account" })).toHaveCount(0);
  });

  test("the checklist shows every status; Review User Preferences opens them", async ({ page }, info) => {
    // Maple Dental: no account connected yet, thermostats under way, preferences chosen.
    await loginAs(page, USERS.alex);
    await page.goto("/onboarding");
    await expectJsState(page, info);
    await expect(page.getByRole("heading", { name: "Welcome, Alex!" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Setup Checklist" })).toBeVisible();
    const bill = page.getByTestId("onboarding-step-bill_monitoring");
    await expect(bill).toContainText("Bill Monitoring");
    // Not Started as seeded; In Progress once any test has opened the connect flow.
    await expect(bill).toContainText(/Not Started|In Progress/);
    await expect(page.getByTestId("onboarding-step-thermostats")).toContainText("Thermostat Information");
    await expect(page.getByTestId("onboarding-step-thermostats")).toContainText("In Progress");
    const prefs = page.getByTestId("onboarding-step-user_preferences");
    await expect(prefs).toContainText("User Preferences");
    await expect(prefs).toContainText("Complete");
    await expect(page.getByRole("link", { name: "Set up your account" })).toHaveCount(1);
    if (isJs(info)) await expectNoSeriousA11yViolations(page);
    await ready(page, info);
    await prefs.getByRole("button", { name: "Review User Preferences" }).click();
    await expect(page).toHaveURL(/\/settings$/);
  });

  test("Connect Utility Accounts is a POST that marks Bill Monitoring in progress, then shows the flow", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.alex);
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
});
