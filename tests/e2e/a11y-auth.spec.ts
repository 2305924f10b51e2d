import { expect, expectNoSeriousA11yViolations, PASSWORD, ready, test, USERS } from "./fixtures";

test.describe("sign-in accessibility", () => {
  test("error states pass axe", async ({ page }, info) => {
    await page.goto("/login?email=not-an-email");
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.goto(`/login?email=${encodeURIComponent(USERS.dana)}`);
    await ready(page, info);
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(page.getByText("Your email or password is incorrect")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test("a failed submission focuses the first invalid field, marked invalid and described", async ({
    page,
  }, info) => {
    await page.goto(`/login?email=${encodeURIComponent(USERS.dana)}`);
    await ready(page, info);
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    const field = page.getByLabel("Password");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription("Your email or password is incorrect");
    await expect(field).toBeFocused();
  });

  test("the whole sign-in works by keyboard alone", async ({ page }, info) => {
    await page.goto("/login");
    await ready(page, info);
    await expect(page.getByLabel("Email")).toBeFocused();
    await page.keyboard.type(USERS.dana);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("login-email")).toHaveText(USERS.dana);
    // Tab from the top of the page to the password field.
    await page.getByLabel("Password").focus();
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/locations$/);
  });

  test("the skip link leads to the main content", async ({ page }) => {
    await page.goto("/privacy-policy");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toHaveAttribute("href", "#main");
  });
});
