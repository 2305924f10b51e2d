import { expect, expectJsState, isJs, loginAs, ready, test, USERS } from "./fixtures";

test.describe("the authenticated shell", () => {
  test("the location selector opens without a script and lists names by street number", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations?q=loop");
    await ready(page, info);
    await expectJsState(page, info);
    const select = page.getByTestId("location-select");
    await expect(select.locator("summary")).toContainText("All locations");
    await select.locator("summary").click();
    const menu = select.getByRole("list", { name: "Locations" });
    await expect(menu).toBeVisible();
    expect(await menu.evaluate((el) => getComputedStyle(el).maxHeight)).toBe("426px");
    const entries = await menu.getByRole("link").allTextContents();
    expect(entries[0]).toBe("See all locations");
    expect(entries.slice(1, 4)).toEqual([
      "Harbor Coffee Park Slope",
      "Harbor Coffee Loop",
      "Harbor Coffee Chelsea",
    ]);
    expect(entries).toHaveLength(15);
    await expect(menu.getByRole("link", { name: "Harbor Coffee Pike Place" })).toHaveAttribute(
      "href",
      "/locations/101/control",
    );
    await menu.getByRole("link", { name: "See all locations" }).click();
    await expect(page).toHaveURL(/\/locations$/);
    await expect(page.locator("tbody tr[data-testid^=location-row-]")).toHaveCount(14);
  });

  test("navigation without a location: accounts, grid services, the CSV and the foot", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations");
    await ready(page, info);
    const sections = page.getByRole("navigation", { name: "Sections" });
    await expect(sections.getByRole("link", { name: "Connect Utility Accounts" })).toHaveAttribute(
      "href",
      "/accounts",
    );
    await expect(sections.getByRole("link", { name: "Grid Services" })).toHaveAttribute(
      "href",
      "/grid-services",
    );
    await expect(sections.getByRole("link", { name: "Findings" })).toHaveAttribute("href", "/findings");
    await expect(sections.getByRole("link", { name: "Download Bill Statements Summary" })).toHaveAttribute(
      "href",
      "/api/client/1/bill-statements/export-csv",
    );
    await expect(sections.getByRole("link", { name: "Thermostats" })).toHaveCount(0);
    const main = page.getByRole("complementary", { name: "Main" });
    await expect(main.getByRole("link", { name: "Manage account" })).toHaveAttribute("href", "/settings");
    await expect(main.getByRole("link", { name: "Help" })).toBeVisible();
    await expect(main.getByRole("button", { name: "Sign Out" })).toBeVisible();
    await expect(main.getByRole("link", { name: "Impersonate" })).toHaveCount(0);
    await expect(page.getByTestId("impersonation-banner")).toHaveCount(0);
  });

  test("is a 260px sidebar on wide screens and a top bar below 595px", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/locations");
    await ready(page, info);
    const sidebar = page.getByRole("complementary", { name: "Main" });
    expect((await sidebar.boundingBox())!.width).toBe(260);
    // The dark column reaches the bottom of a page longer than the screen (drawn by the shell, not the sticky bar).
    const shellBg = await page.locator(".shell").evaluate((el) => getComputedStyle(el).backgroundImage);
    expect(shellBg).toContain("linear-gradient");
    await page.setViewportSize({ width: 390, height: 800 });
    const box = (await sidebar.boundingBox())!;
    expect(box.width).toBe(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  });

  test("on a phone the sections fold behind Menu, so the page starts near the top", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto("/locations");
    await ready(page, info);
    const sidebar = page.getByRole("complementary", { name: "Main" });
    const sections = page.getByRole("navigation", { name: "Sections" });
    // Closed: brand, Menu and the location selector only (two short rows); the heading starts right below.
    expect((await sidebar.boundingBox())!.height).toBeLessThan(130);
    await expect(sections.getByRole("link", { name: "Grid Services" })).toBeHidden();
    await expect(sidebar.getByRole("button", { name: "Sign Out" })).toBeHidden();
    expect((await page.getByRole("heading", { level: 1 }).boundingBox())!.y).toBeLessThan(200);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await sidebar.getByText("Menu", { exact: true }).click();
    await expect(sections.getByRole("link", { name: "Grid Services" })).toBeVisible();
    await expect(sidebar.getByRole("button", { name: "Sign Out" })).toBeVisible();
    await sections.getByRole("link", { name: "Grid Services" }).click();
    await expect(page).toHaveURL(/\/grid-services/);
    await expect(page.getByRole("heading", { level: 1, name: "Grid Services" })).toBeVisible();
    // After navigating, the menu is folded again.
    await expect(sections.getByRole("link", { name: "Grid Services" })).toBeHidden();
  });

  test("/vendor-auth is a full-page redirect to the vendor-authorisation address", async ({ page }) => {
    const res = await page.request.get("/vendor-auth", { maxRedirects: 0 });
    expect(res.status()).toBe(302);
    expect(res.headers().location).toBe("https://vendor-auth.energyops.test/authorize");
  });

  test("in-app navigation keeps the shell's and the location's data; another location or a post reloads them", async ({
    page,
  }, info) => {
    // With JavaScript, a link asks only for the page's own data (`.data?_routes=…` without the shell and the
    // location's layout); without it every answer is a whole document. Either way the shell shows the right
    // links, and the page the right location, for where the user is.
    const dataRequests: URL[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith(".data")) dataRequests.push(url);
    });
    const loads = (routeId: string) => (url: URL) => {
      const routes = url.searchParams.get("_routes");
      return routes === null || routes.split(",").includes(routeId);
    };
    const loadsShell = loads("routes/_app");
    const loadsLocation = loads("routes/_app.locations.$locationId");
    const sections = page.getByRole("navigation", { name: "Sections" });
    await loginAs(page, USERS.dana);
    await page.goto("/locations/101/control");
    await ready(page, info);
    await expect(sections.getByRole("link", { name: "Bill History" })).toHaveAttribute(
      "href",
      "/locations/101/spending",
    );

    // Same location, another section: the shell is kept.
    await sections.getByRole("link", { name: "Bill History" }).click();
    await expect(page).toHaveURL(/\/locations\/101\/spending/);
    // The kept layout still names the location, in the heading and the title.
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Harbor Coffee Pike Place");
    await expect(page).toHaveTitle(/Harbor Coffee Pike Place/);
    if (isJs(info)) {
      expect(dataRequests.length).toBeGreaterThan(0);
      expect(dataRequests.every((u) => !loadsShell(u) && !loadsLocation(u))).toBe(true);
    }

    // Another location: the shell's links follow it.
    dataRequests.length = 0;
    await page
      .getByRole("complementary", { name: "Main" })
      .getByTestId("location-select")
      .locator("summary")
      .click();
    await page
      .getByRole("list", { name: "Locations" })
      .getByRole("link", { name: "Harbor Coffee Loop" })
      .click();
    await expect(page).toHaveURL(/\/locations\/\d+\/control/);
    const loop = new URL(page.url()).pathname.split("/")[2];
    expect(loop).not.toBe("101");
    await expect(sections.getByRole("link", { name: "Bill History" })).toHaveAttribute(
      "href",
      `/locations/${loop}/spending`,
    );
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Harbor Coffee Loop");
    if (isJs(info)) {
      expect(dataRequests.some(loadsShell)).toBe(true);
      expect(dataRequests.some(loadsLocation)).toBe(true);
    }

    // A post (signing out is one) runs the shell's loader again: the next page is the login page.
    dataRequests.length = 0;
    await page.getByRole("complementary", { name: "Main" }).getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/login/);
  });
});
