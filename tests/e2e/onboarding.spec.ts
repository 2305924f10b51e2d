import type { Page, TestInfo } from "@playwright/test";
import {
  apiUrl,
  expect,
  expectJsState,
  expectNoSeriousA11yViolations,
  isJs,
  loginAs,
  PASSWORD,
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

  test("opening the connect flow by its address marks Bill Monitoring in progress", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.alex);
    const step = page.getByTestId("onboarding-step-bill_monitoring");
    await page.goto("/onboarding");
    await expect(step).toContainText("Not Started");
    await page.goto("/authorize-arcadia");
    await ready(page, info);
    await expect(page.getByRole("heading", { name: "Select Utility" })).toBeVisible();
    await page.goto("/onboarding");
    await expect(step).toContainText("In Progress");
  });

  test("the accounts page's RECONNECT link marks Bill Monitoring in progress", async ({ page }, info) => {
    await openFromCredentialAlert(page, info, "RECONNECT", "harbor.chicago");
  });

  test("the accounts page's REFRESH MFA link marks Bill Monitoring in progress", async ({ page }, info) => {
    await openFromCredentialAlert(page, info, "REFRESH MFA", "harbor.boston");
  });

  test("staff impersonating a client open the flow without marking it", async ({ page }, info) => {
    await loginAs(page, USERS.morgan);
    await page.goto("/impersonate?q=Maple");
    await page.getByRole("radio", { name: /Maple Dental/ }).check();
    await page.getByRole("textbox", { name: "Reason" }).fill("Checking the connect flow");
    await page.getByRole("button", { name: "Start impersonating" }).click();
    await expect(page.getByTestId("impersonation-banner")).toBeVisible();
    await page.goto("/authorize-arcadia");
    await ready(page, info);
    await expect(page.getByRole("heading", { name: "Select Utility" })).toBeVisible();
    await page.goto("/onboarding");
    await expect(page.getByTestId("onboarding-step-bill_monitoring")).toContainText("Not Started");
  });
});

/** Harbor with Bill Monitoring back to Not Started: a credential alert's link opens the flow and marks it. */
async function openFromCredentialAlert(page: Page, info: TestInfo, label: string, owner: string) {
  // Harbor has done it all; put its Bill Monitoring back to Not Started through the api, as Dana.
  await setBillMonitoring(info, USERS.dana, 1, "not_started");
  await loginAs(page, USERS.dana);
  const step = page.getByTestId("onboarding-step-bill_monitoring");
  await page.goto("/onboarding");
  await expect(step).toContainText("Not Started");
  await page.goto("/accounts");
  await ready(page, info);
  await page
    .getByTestId("credential-alert")
    .filter({ hasText: owner })
    .getByRole("link", { name: new RegExp(`^${label}`) })
    .click();
  await expect(page).toHaveURL(/\/authorize-arcadia\?utility=/);
  await expect(page.getByRole("heading", { name: "Select Utility" })).toBeVisible();
  await page.goto("/onboarding");
  await expect(step).toContainText("In Progress");
}

/** Sets a client's Bill Monitoring step through the api, signed in there as one of its users (test setup). */
async function setBillMonitoring(info: TestInfo, email: string, clientId: number, status: string) {
  const login = await fetch(`${apiUrl(info)}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(login.status).toBeLessThan(300);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const steps = await fetch(`${apiUrl(info)}/onboarding-steps/${clientId}`, { headers: { cookie } });
  const { steps: list } = (await steps.json()) as { steps: { id: number; name: string }[] };
  const id = list.find((s) => s.name === "bill_monitoring")!.id;
  const res = await fetch(`${apiUrl(info)}/onboarding-steps/${clientId}/${id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ status }),
  });
  expect(res.status).toBe(200);
}
