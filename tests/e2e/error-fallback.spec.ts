import { expect, loginAs, test, USERS } from "./fixtures";

test.describe("global error fallback", () => {
  test("an ordinary user sees the apology and the support address, never a stack trace", async ({ page }) => {
    await loginAs(page, USERS.dana);
    await page.goto("/test-hooks/error");
    await expect(page.getByRole("heading", { name: "We're sorry. An error has occurred." })).toBeVisible();
    await expect(page.getByRole("link", { name: /^support@/ })).toBeVisible();
    await expect(page.getByTestId("stack-trace")).toHaveCount(0);
    expect(await page.content()).not.toContain("Deliberate failure");
  });

  test("staff also see the stack trace", async ({ page }) => {
    await loginAs(page, USERS.morgan);
    await page.goto("/test-hooks/error");
    await expect(page.getByRole("heading", { name: "We're sorry. An error has occurred." })).toBeVisible();
    await expect(page.getByTestId("stack-trace")).toContainText(
      "Deliberate failure for the error-fallback test",
    );
  });

  test("a visitor gets the same fallback", async ({ page }) => {
    await page.goto("/test-hooks/error");
    await expect(page.getByRole("heading", { name: "We're sorry. An error has occurred." })).toBeVisible();
    await expect(page.getByTestId("stack-trace")).toHaveCount(0);
  });
});
