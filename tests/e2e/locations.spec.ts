import fs from "node:fs";
import {
  expect,
  expectJsState,
  expectNoSeriousA11yViolations,
  loginAs,
  ready,
  test,
  USERS,
} from "./fixtures";

const CSV_HEADER =
  "Location,Address,Account #,Utility,Statement Date,Service Start,Service End,Consumption (kWh),Energy Charge Rate ($/kWh) used for At Stake,Demand (kW),Total Charges ($),Electric Charges ($),Supplier,Bill Issues,At Stake ($),At Stake";

test.describe("locations dashboard", () => {
  test("Last Bill shows the bill's total under its date", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations");
    await ready(page, info);
    const cells = page.locator("td.last-bill");
    await expect(cells.first()).toBeVisible();
    const amounts = page.locator("td.last-bill small");
    expect(await amounts.count()).toBeGreaterThan(3);
    for (const a of await amounts.allTextContents()) expect(a).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
    // Each amount sits with its bill's date.
    await expect(cells.filter({ has: page.locator("small") }).first()).toHaveText(
      /^[A-Z][a-z]{2} \d{1,2}, \d{4}.*\$[\d,]+\.\d{2}$/,
    );
  });

  test("shows the alert, the cards and every location with its thermostat chip", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations");
    await ready(page, info);
    await expectJsState(page, info);
    await expect(page.getByRole("heading", { name: "Locations", level: 1 })).toBeVisible();
    await expect(page.getByTestId("vendor-alert")).toContainText("scheduled maintenance");
    await expect(page.getByRole("link", { name: "Schedule a meeting" })).toHaveAttribute(
      "href",
      "https://meet.energyops.test/energy-advisor",
    );
    await expect(page.getByTestId("summary-issues").getByRole("heading")).toHaveText(
      "Locations with thermostat issues",
    );
    await expect(page.getByTestId("summary-demand").getByRole("heading")).toHaveText(
      "Locations with a high demand ratio",
    );
    // Offline devices are device problems: 102 (all offline), 103, 105 and 101's unlinked thermostat.
    await expect(
      page.getByTestId("summary-issues").getByRole("link", { name: "Harbor Coffee Capitol Hill" }),
    ).toBeVisible();
    await expect(page.locator("tbody tr[data-testid^=location-row-]")).toHaveCount(14);
    const chip = (id: number) => page.getByTestId(`location-row-${id}`).locator(".pill");
    await expect(chip(101)).toHaveText("Ongoing Dispatch Event");
    await expect(chip(102)).toHaveText("Offline");
    await expect(chip(103)).toHaveText("1/3 Offline");
    await expect(chip(104)).toHaveText("Operating");
    await expect(chip(107)).toHaveText("No Devices");
    await expectNoSeriousA11yViolations(page);
  });

  for (const width of [1280, 390]) {
    test(`the thermostat issues card shows whole lines and a Show all control at ${width} px`, async ({
      page,
    }, info) => {
      await page.setViewportSize({ width, height: 900 });
      await loginAs(page, USERS.dana);
      await page.goto("/locations");
      await ready(page, info);
      const card = page.getByTestId("summary-issues");
      const total = Number(await card.locator(".summary-count").textContent());
      expect(total).toBeGreaterThan(6);
      // No list in the card scrolls or clips: every shown link is whole and inside the card.
      const clipped = await card.evaluate((el) =>
        [el, ...el.querySelectorAll("*")].some(
          (e) => e.scrollHeight > e.clientHeight + 1 && getComputedStyle(e).overflowY !== "visible",
        ),
      );
      expect(clipped).toBe(false);
      const links = card.getByRole("link");
      await expect(links.filter({ visible: true })).toHaveCount(5);
      await card.getByText(`Show all ${total}`).click();
      await expect(links.filter({ visible: true })).toHaveCount(total);
      const cardBox = (await card.boundingBox())!;
      for (const box of await links.evaluateAll((as) => as.map((a) => a.getBoundingClientRect().toJSON()))) {
        expect(box.bottom).toBeLessThanOrEqual(cardBox.y + cardBox.height + 1);
        expect(box.height).toBeGreaterThan(0);
      }
    });
  }

  test("searches and sorts with the state in the URL", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations");
    await ready(page, info);
    const names = () => page.locator("tbody tr[data-testid^=location-row-] .location-name").allTextContents();
    // Default: street number, then name (7 Seventh Ave first, 5300 Ballard Ave last).
    expect((await names())[0]).toBe("Harbor Coffee Park Slope");
    expect((await names()).at(-1)).toBe("Harbor Coffee Ballard");

    await page.getByRole("searchbox", { name: "Search locations" }).fill("seattle");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/[?&]q=seattle/);
    await expect(page.locator("tbody tr[data-testid^=location-row-]")).toHaveCount(3);

    await page.getByRole("link", { name: /^Location/ }).click();
    await expect(page).toHaveURL(/dir=desc/);
    await expect(page).toHaveURL(/q=seattle/);
    await expect
      .poll(names)
      .toEqual(["Harbor Coffee Ballard", "Harbor Coffee Pike Place", "Harbor Coffee Capitol Hill"]);
    await expect(page.getByRole("columnheader", { name: /Location/ })).toHaveAttribute(
      "aria-sort",
      "descending",
    );

    await page.goto("/locations?sort=thermostats");
    expect((await names())[0]).toBe("Harbor Coffee Pike Place");
    await page.getByRole("link", { name: /^Thermostats/ }).click();
    await expect(page).toHaveURL(/sort=thermostats&dir=desc|dir=desc.*sort=thermostats/);
    await expect.poll(async () => (await names())[0]).toBe("Harbor Coffee Loop");
  });

  test("says what the table's order is, and sorts the addresses as they read", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations");
    await ready(page, info);
    const order = page.getByTestId("locations-order");
    await expect(order).toHaveText("Sorted by street address, lowest number first");
    const lines = (
      await page.locator("tbody tr[data-testid^=location-row-] .col-name .small").allTextContents()
    ).map((a) => a.split(",")[0].trim());
    const numbers = lines.map((l) => Number(/^\d+/.exec(l)?.[0] ?? Infinity));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    await page.getByRole("link", { name: /^Location/ }).click();
    await expect(page).toHaveURL(/dir=desc/);
    await expect(order).toHaveText("Sorted by street address, highest number first");
    await page.getByRole("link", { name: /^Last Bill/ }).click();
    await expect(order).toHaveText("Sorted by last bill date, oldest first; locations without bills last");
  });

  test("keeps the chosen sort after visiting another page and coming back", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations");
    await ready(page, info);
    const names = () => page.locator("tbody tr[data-testid^=location-row-] .location-name").allTextContents();
    const byDefault = await names();
    await page.getByRole("link", { name: /^Thermostats/ }).click();
    await expect(page).toHaveURL(/sort=thermostats/);
    await page.getByRole("link", { name: /^Thermostats/ }).click();
    await expect(page).toHaveURL(/dir=desc/);
    await expect(page.getByTestId("locations-order")).toHaveText(
      "Sorted by thermostat status, least urgent first",
    );
    const chosen = await names();
    expect(chosen).not.toEqual(byDefault);

    // Another page, then back through the sidebar's "See all locations" (a bare /locations).
    await page.getByRole("link", { name: "Grid Services" }).click();
    await expect(page).toHaveURL(/\/grid-services/);
    await ready(page, info);
    await page.getByTestId("location-select").locator("summary").click();
    await page.getByRole("link", { name: "See all locations" }).click();
    await expect(page).toHaveURL(/\/locations$/);
    await expect(page.getByRole("columnheader", { name: /Thermostats/ })).toHaveAttribute(
      "aria-sort",
      "descending",
    );
    await expect.poll(names).toEqual(chosen);

    // Choosing the default order again is remembered too.
    await page.getByRole("link", { name: /^Location/ }).click();
    await expect(page).toHaveURL(/sort=location/);
    await page.goto("/locations");
    await expect.poll(names).toEqual(byDefault);
  });

  test("expands a row to its accounts and opens the row menu", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations");
    await ready(page, info);
    const expander = page.getByRole("link", { name: "Show accounts of Harbor Coffee Wicker Park" });
    await expect(expander).toHaveAttribute("aria-expanded", "false");
    await expander.click();
    await expect(page).toHaveURL(/expanded=106/);
    const accounts = page.getByTestId("accounts-106");
    await expect(accounts.getByRole("columnheader", { name: "Account #" })).toBeVisible();
    await expect(accounts.getByRole("columnheader", { name: "Bill Monitoring" })).toBeVisible();
    await expect(accounts.getByRole("row", { name: /0391-77120-3/ })).toContainText("Connected");
    const failing = accounts.getByRole("row", { name: /0391-77120-4/ });
    await expect(failing).toContainText("Invalid Credentials");
    await failing.locator(".tip-trigger").focus();
    await expect(failing.getByRole("tooltip")).toHaveText(
      "The credentials used were invalid. Please reconnect.",
    );
    await page.getByRole("link", { name: "Hide accounts of Harbor Coffee Wicker Park" }).click();
    await expect(page.getByTestId("accounts-106")).toHaveCount(0);

    // Every connection label (rule account-status-labels, docs/rules.md) that the seed holds at 113 and 114.
    await page.goto("/locations?expanded=113");
    await expect(page.getByTestId("accounts-113")).toContainText("Inactive");
    await page.getByTestId("accounts-113").locator(".tip-trigger").first().hover();
    await expect(page.getByTestId("accounts-113").getByRole("tooltip")).toHaveText(
      "This account shows no recent bill data.",
    );

    const row = page.getByTestId("location-row-104");
    await row.getByLabel("Actions for Harbor Coffee Mission").click();
    await expect(row.getByRole("link", { name: "Control Room" })).toHaveAttribute(
      "href",
      "/locations/104/control",
    );
    await expect(row.getByRole("link", { name: "View spending" })).toHaveAttribute(
      "href",
      "/locations/104/spending",
    );
    await expect(row.getByRole("link", { name: "View usage" })).toHaveAttribute(
      "href",
      "/locations/104/usage",
    );
  });

  test("dismisses the vendor alert for the rest of the session", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations?q=ballard");
    await ready(page, info);
    await page.getByTestId("vendor-alert").getByRole("button", { name: "Dismiss" }).click();
    await expect(page.getByTestId("vendor-alert")).toHaveCount(0);
    await expect(page).toHaveURL(/\/locations\?q=ballard$/);
    await page.goto("/locations");
    await expect(page.getByRole("heading", { name: "Locations", level: 1 })).toBeVisible();
    await expect(page.getByTestId("vendor-alert")).toHaveCount(0);
  });

  test("downloads the bill statements summary as CSV", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations");
    await ready(page, info);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download Bill Statements Summary" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("bill-statements-summary-1.csv");
    const text = fs.readFileSync((await download.path())!, "utf8");
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toBe(CSV_HEADER);
    // With the bills area merged every row is a real statement of a Harbor location.
    for (const line of lines.slice(1)) expect(line).toMatch(/^Harbor Coffee /);
  });

  test("sends an unknown or foreign location id back to /locations", async ({ page }) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations/201");
    await expect(page).toHaveURL(/\/locations$/);
    await page.goto("/locations/999999/usage");
    await expect(page).toHaveURL(/\/locations$/);
    await page.goto("/locations/abc");
    await expect(page).toHaveURL(/\/locations$/);
    await expect(page.getByRole("heading", { name: "Locations", level: 1 })).toBeVisible();
  });

  test("shows a single-location client its one location", async ({ page }, info) => {
    await loginAs(page, USERS.alex);
    await page.goto("/locations");
    await ready(page, info);
    await expect(page.locator("tbody tr[data-testid^=location-row-]")).toHaveCount(1);
    await expect(page.getByTestId("location-row-201")).toContainText("Maple Dental Main Office");
    await expect(page.getByTestId("location-row-201").locator(".pill")).toHaveText("No Devices");
  });
});
