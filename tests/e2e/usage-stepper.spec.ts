import { expect, loginAs, MONTHS, ready, test, USERS } from "./fixtures";
import { TEST_CLOCK_START } from "../support/clock";

const pad = (n: number) => String(n).padStart(2, "0");
const now = new Date(TEST_CLOCK_START);
const today = { y: now.getUTCFullYear(), m: now.getUTCMonth() + 1, d: now.getUTCDate() };
const firstOfMonth = `${today.y}-${pad(today.m)}-01`;
const lastMonth = new Date(Date.UTC(today.y, today.m - 2, 1));
const lastMonthStart = lastMonth.toISOString().slice(0, 10);
const base = "/locations/104/usage/consumption";

test.describe("usage period stepping", () => {
  test("‹ › step through months as plain links, not past the current month", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto(`${base}?period=month&start=${lastMonthStart}`);
    await ready(page, info);
    const heading = page.locator("#usage-heading");
    await expect(heading).toContainText(`${MONTHS[lastMonth.getUTCMonth()]} ${lastMonth.getUTCFullYear()}`);
    await page.getByRole("link", { name: "Next month" }).click();
    await expect(page).toHaveURL(new RegExp(`period=month&start=${firstOfMonth}$`));
    await expect(heading).toContainText(`${MONTHS[today.m - 1]} ${today.y}`);
    // The end of the range: not a link any more.
    const next = page.getByRole("link", { name: "Next month" });
    await expect(next).toHaveAttribute("aria-disabled", "true");
    await expect(next).not.toHaveAttribute("href", /.*/);
    await page.getByRole("link", { name: "Previous month" }).click();
    await expect(page).toHaveURL(new RegExp(`period=month&start=${lastMonthStart}$`));
  });

  test("a hand-typed start outside the range shows the nearest allowed period", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto(`${base}?period=month&start=2019-05-01`);
    await ready(page, info);
    await expect(page).toHaveURL(/period=month&start=2021-01-01$/);
    await expect(page.locator("#usage-heading")).toContainText("January 2021");
    await expect(page.getByRole("link", { name: "Previous month" })).toHaveAttribute("aria-disabled", "true");
    await expect(page.getByRole("link", { name: "Next month" })).toHaveAttribute(
      "href",
      /period=month&start=2021-02-01$/,
    );

    await page.goto(`${base}?period=day&start=2031-02-03`);
    await ready(page, info);
    const todayYmd = `${today.y}-${pad(today.m)}-${pad(today.d)}`;
    await expect(page).toHaveURL(new RegExp(`period=day&start=${todayYmd}$`));
    await expect(page.locator("#usage-heading")).toContainText(
      `${MONTHS[today.m - 1]} ${today.d}, ${today.y}`,
    );
  });
});
