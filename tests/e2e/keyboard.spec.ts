import { expect, loginAs, ready, tabTo, test, USERS } from "./fixtures";

test.describe("flows by keyboard alone", () => {
  test("search and sort the locations dashboard", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations");
    await ready(page, info);
    await tabTo(page, page.getByLabel("Search locations"));
    await page.keyboard.type("Wynwood");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/q=Wynwood/);
    const table = page.getByRole("table");
    await expect(table.getByRole("link", { name: "Harbor Coffee Wynwood", exact: true })).toBeVisible();
    await expect(table.getByRole("link", { name: "Harbor Coffee Ballard", exact: true })).toHaveCount(0);
  });

  test("sort the grid services table", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/grid-services");
    await ready(page, info);
    await tabTo(page, page.getByRole("link", { name: /^Location/ }), 80);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/sort=building_address%3AASC/);
  });

  test("switch a notification preference and switch it back", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/settings");
    await ready(page, info);
    const weekly = page.getByRole("switch", { name: "Weekly Rundown" });
    const before = (await weekly.getAttribute("aria-checked")) === "true";
    await tabTo(page, weekly, 80);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("switch", { name: "Weekly Rundown" })).toHaveAttribute("aria-checked", String(!before));
    await tabTo(page, page.getByRole("switch", { name: "Weekly Rundown" }), 80);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("switch", { name: "Weekly Rundown" })).toHaveAttribute("aria-checked", String(before));
  });
});
