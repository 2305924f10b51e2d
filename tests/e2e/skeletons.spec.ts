import type { Page, Route } from "@playwright/test";
import { expect, loginAs, ready, test, USERS } from "./fixtures";

/**
 * With JavaScript, a client navigation that loads new data shows a loading skeleton until the data arrives.
 * The data request is held here (page.route) so the skeleton's moment can be seen; without JavaScript the
 * browser shows the next page when it arrives, so there is nothing to test in the nojs project.
 */
async function holdDataRequests(page: Page, pattern: RegExp) {
  const held: Route[] = [];
  let released = false;
  await page.route(pattern, async (route) => {
    if (released) await route.continue();
    else held.push(route);
  });
  return {
    held,
    release: async () => {
      released = true;
      for (const r of held.splice(0)) await r.continue();
    },
  };
}

test.describe("loading skeletons", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "client navigations only exist with JavaScript");

  test("grid services: the table becomes a skeleton while the next page loads", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/grid-services");
    await ready(page, info);
    await expect(page.getByTestId("grid-skeleton")).toHaveCount(0);
    const gate = await holdDataRequests(page, /\/grid-services\.data/);
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page.getByTestId("grid-skeleton")).toBeVisible();
    await expect(page.getByTestId("grid-skeleton")).toHaveAttribute("aria-busy", "true");
    await expect(page.getByTestId("dispatch-row")).toHaveCount(0);
    await gate.release();
    await expect(page.getByTestId("grid-skeleton")).toHaveCount(0);
    await expect(page.getByTestId("page-status")).toContainText("Page 2 of");
  });

  test("compliance report: another month shows the skeleton; sorting a thermostat's days does not", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/override-report?period=month&start=2026-10-01");
    await ready(page, info);
    const gate = await holdDataRequests(page, /\/override-report[^?]*\.data/);
    await page.getByTestId("time-frame").click();
    await page.getByRole("radio", { name: "Sep" }).check({ force: true });
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByTestId("report-skeleton")).toBeVisible();
    await expect(page.getByTestId("report-skeleton")).toHaveAttribute("aria-busy", "true");
    await gate.release();
    await expect(page.getByTestId("report-skeleton")).toHaveCount(0);
    await expect(page).toHaveURL(/start=2026-09-01/);
    await expect(page.getByTestId("time-frame")).toContainText("September 2026");

    // Sorting the days of one thermostat only re-orders what is on screen: the report stays visible.
    await page.goto("/override-report/1003?period=month&start=2026-10-01");
    await ready(page, info);
    const again = await holdDataRequests(page, /\/override-report[^?]*\.data/);
    await page.getByRole("link", { name: /^HOLDS/ }).click();
    await expect.poll(() => again.held.length).toBeGreaterThan(0);
    await expect(page.getByTestId("report-skeleton")).toHaveCount(0);
    await again.release();
    await expect(page).toHaveURL(/daySort=/);
  });
});
