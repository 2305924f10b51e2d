import {
  expect,
  expectJsState,
  loginAs,
  ready,
  test,
  USERS,
  expectNoSeriousA11yViolations,
} from "./fixtures";

const rows = (page: import("@playwright/test").Page) => page.getByTestId("dispatch-row");
const addresses = async (page: import("@playwright/test").Page) =>
  (await page.locator('[data-testid="dispatch-row"] .grid-address').allTextContents()).map((s) => s.trim());

test.describe("grid services", () => {
  test("lists events in pages of 15, sorted by end time, and pages with links", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/grid-services");
    await expectJsState(page, info);
    await ready(page, info);
    await expect(page.getByRole("heading", { name: "Grid Services", level: 1 })).toBeVisible();
    await expect(rows(page)).toHaveCount(15);
    await expect(page.getByRole("columnheader", { name: /End/ })).toHaveAttribute("aria-sort", "descending");
    const ends = await page
      .locator('[data-testid="dispatch-row"] td:nth-child(7) time')
      .evaluateAll((els) => els.map((e) => e.getAttribute("datetime") ?? ""));
    expect([...ends].sort().reverse()).toEqual(ends);
    await expect(page.getByTestId("page-status")).toContainText("Page 1 of");
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByTestId("page-status")).toContainText("Page 2 of");
    await expect(rows(page).first()).toBeVisible();
    await page.getByRole("link", { name: "Previous" }).click();
    await expect(page.getByTestId("page-status")).toContainText("Page 1 of");
  });

  test("Download CSV: every event of the search, in the table's order, like every other table", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/grid-services?sort=building_address:ASC&page=2");
    await ready(page, info);
    const status = (await page.getByTestId("page-status").textContent()) ?? "";
    const total = Number(/· (\d+) events/.exec(status)?.[1]);
    expect(total).toBeGreaterThan(15);
    const link = page.getByRole("link", { name: "Download CSV" });
    await expect(link).toHaveAttribute("href", "/grid-services/csv?sort=building_address%3AASC");
    const res = await page.request.get((await link.getAttribute("href"))!);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("text/csv");
    expect(res.headers()["content-disposition"]).toMatch(/^attachment; filename="grid-services-.*\.csv"$/);
    const lines = (await res.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "Location,Event type,Status,Precool start,Start,End,Overridden thermostats,Internal test,Baseline kW,Actual kW,kW reduced,kWh reduced,Estimated earnings,Note",
    );
    expect(lines).toHaveLength(total + 1);
    // Times carry their zone, as on the page.
    expect(lines[1]).toMatch(/\d{1,2}:\d{2} (AM|PM) [A-Z]{3,4}/);
    await page.goto("/grid-services?sort=building_address:ASC");
    await ready(page, info);
    const shown = await addresses(page);
    expect(shown).toHaveLength(15);
    // The first page's events lead the CSV in the same order (an address with a comma is quoted).
    shown.forEach((a, i) => {
      const line = lines[i + 1];
      expect(line.startsWith(`"${a}",`) || line.startsWith(`${a},`), `${line} starts with ${a}`).toBe(true);
    });
  });

  test("sorts by a column both ways and shows every status label", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/grid-services");
    await ready(page, info);
    const labels = new Set(await page.locator('[data-testid="dispatch-row"] .pill').allTextContents());
    await page.getByRole("link", { name: /^Location/ }).click();
    await expect(page).toHaveURL(/sort=building_address%3AASC/);
    await expect(page.getByRole("columnheader", { name: /Location/ })).toHaveAttribute(
      "aria-sort",
      "ascending",
    );
    const asc = await addresses(page);
    expect(asc).toEqual([...asc].sort());
    await page.getByRole("link", { name: /^Location/ }).click();
    await expect(page).toHaveURL(/sort=building_address%3ADESC/);
    const desc = await addresses(page);
    expect(desc).toEqual([...desc].sort().reverse());
    for (const dir of ["ASC", "DESC"]) {
      await page.goto(`/grid-services?sort=status:${dir}`);
      for (const l of await page.locator('[data-testid="dispatch-row"] .pill').allTextContents())
        labels.add(l);
    }
    for (const label of [
      "Opted out",
      "No available thermostats",
      "Participated",
      "Pending",
      "No status available",
      "Internal test",
      "Overridden thermostats",
    ]) {
      expect([...labels]).toContain(label);
    }
  });

  test("the event under way is In progress here as in the control room", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations/101/control");
    await ready(page, info);
    await expect(page.getByRole("article", { name: "Front Counter" }).getByTestId("card-status")).toHaveText(
      "event in progress",
    );
    // Pike Place's events (one page): the one under way (dispatch 1, PENDING upstream) is the only one running.
    await page.goto("/grid-services?q=Pike");
    await ready(page, info);
    await expect(page.getByTestId("page-status")).toContainText("Page 1 of 1");
    await expect(rows(page).locator(".pill", { hasText: /^In progress$/ })).toBeVisible();
    const labels = await page.locator('[data-testid="dispatch-row"] .pill').allTextContents();
    expect(labels.filter((l) => l.trim() === "In progress")).toHaveLength(1);
  });

  test("the End column flips back to the default, descending, order", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/grid-services?sort=end_time:ASC&sort=building_address:DESC");
    await ready(page, info);
    const end = page.getByRole("columnheader", { name: /End/ });
    await expect(end).toHaveAttribute("aria-sort", "ascending");
    await end.getByRole("link").click();
    await expect(page).toHaveURL(/\/grid-services$/);
    await expect(end).toHaveAttribute("aria-sort", "descending");
    // The row toggles write the path too: closing the last open row goes back to the plain page.
    await page
      .getByRole("link", { name: /Show thermostat details/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\?open=\d+$/);
    await page.getByRole("link", { name: /Hide thermostat details/ }).click();
    await expect(page).toHaveURL(/\/grid-services$/);
    await expect(page.getByTestId("dispatch-details")).toHaveCount(0);
  });

  test("a search goes back to the first page; no match shows the empty state", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/grid-services?page=2");
    await ready(page, info);
    await page.getByLabel("Search locations").fill("Pike");
    await page.getByRole("button", { name: "SUBMIT" }).click();
    // The one search form carries the period too, as /findings' does.
    await expect(page).toHaveURL(/\?period=season&from=\d{4}-06-01&to=\d{4}-11-30&q=Pike$/);
    await expect(page.getByTestId("page-status")).toContainText("Page 1 of");
    for (const a of await addresses(page)) expect(a).toContain("Pike");
    await expect(page.getByLabel("Search locations")).toHaveValue("Pike");
    await page.getByLabel("Search locations").fill("no such street");
    await page.getByRole("button", { name: "SUBMIT" }).click();
    await expect(page.getByText("No events found")).toBeVisible();
  });

  test("rows expand to per-thermostat details and collapse again", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/grid-services?q=Pike");
    await ready(page, info);
    const toggle = page.getByRole("link", { name: /Show thermostat details/ }).first();
    await toggle.click();
    await expect(page).toHaveURL(/open=\d+/);
    const details = page.getByTestId("dispatch-details");
    await expect(details).toBeVisible();
    await expect(details.getByRole("columnheader", { name: "Device name" })).toBeVisible();
    await expect(details.getByRole("columnheader", { name: "Participating minutes" })).toBeVisible();
    await expect(details.getByTestId("thermostat-insight").first()).toBeVisible();
    await expect(details.getByText("Precool start")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("link", { name: /Hide thermostat details/ }).click();
    await expect(page.getByTestId("dispatch-details")).toHaveCount(0);
  });

  test("Maple Dental has no events; an upstream failure shows the error message", async ({ page }, info) => {
    await loginAs(page, USERS.alex);
    await page.goto("/grid-services");
    await ready(page, info);
    await expect(page.getByText("No events found")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    // The api refuses a page beyond its limit: the page shows the spec's error state, not a crash, with the
    // upstream's 422 as its status (ADR 9: a refusal keeps its status, an outage is 502).
    const res = await page.goto("/grid-services?page=999999");
    expect(res?.status()).toBe(422);
    await expect(
      page.getByText(
        "An Error Occurred. Please try again. If the issue persist, please reach out to your Energy Advisor.",
      ),
    ).toBeVisible();
  });

  test("the page passes axe", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/grid-services");
    await ready(page, info);
    await expectNoSeriousA11yViolations(page);
  });

  test("the head says what the season earned; the period and the CSV cover the same events", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/grid-services");
    await ready(page, info);
    const head = page.getByTestId("grid-headline");
    await expect(head).toHaveText(
      /^Earned an estimated \$[\d,]+\.\d{2} this season from \d+ events; [\d,]+(\.\d{2})? kWh reduced$/,
    );
    await expect(page.getByTestId("grid-program")).toHaveText(
      "Estimated at Con Edison's Commercial System Relief Program rates: $18.00 per kW-month reserved and $1.00 per kWh reduced. These are our estimates, not a statement from the utility.",
    );
    const [, dollars, events] = /\$([\d,.]+) this season from (\d+) events/.exec(
      (await head.textContent())!,
    )!;
    // The CSV of the same period: its paid events (Participated, not internal tests) add up to the head.
    const csv = await page.request.get((await page.getByTestId("grid-csv").getAttribute("href"))!);
    const lines = (await csv.text()).trimEnd().split("\r\n").slice(1);
    const cells = lines.map((l) => l.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/));
    const paid = cells.filter((c) => c[2] === "Participated" && c[7] === "No");
    expect(paid.length).toBe(Number(events));
    const cents = paid.reduce((s, c) => s + Math.round(Number(c[12] || 0) * 100), 0);
    expect(cents).toBe(Math.round(Number(dollars.replace(/,/g, "")) * 100));
    expect(
      paid.some((c) => c[13] === "No demand data for the event hours: no figure for this location."),
    ).toBe(true);
    // Another period, as on /findings: the head, the table and the CSV follow it.
    await page.getByLabel("Period").selectOption("last-month");
    await page.getByRole("button", { name: "SUBMIT" }).click();
    await expect(page).toHaveURL(/period=last-month/);
    await expect(head).toHaveText(/^Earned an estimated \$[\d,]+\.\d{2} last month from \d+ events?;/);
    await expect(page.getByTestId("grid-csv")).toHaveAttribute("href", /period=last-month/);
    // A chosen range in the wrong order is refused with the reason; this season is shown.
    await page.goto("/grid-services?period=range&from=2026-09-30&to=2026-09-01");
    await ready(page, info);
    await expect(page.getByRole("alert")).toHaveText(
      "The range must start on or before its end. This season is shown.",
    );
    await expect(head).toContainText("this season");
  });

  test("an expanded event shows its location's figures, the method on request, each thermostat's part", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    // A participated event with an override (sorted by status, the Participated ones come together).
    let href: string | null = null;
    for (let p = 1; p <= 6 && !href; p++) {
      await page.goto(`/grid-services?sort=status:DESC&page=${p}`);
      await ready(page, info);
      const row = rows(page)
        .filter({ has: page.locator(".pill", { hasText: /^Participated$/ }) })
        .filter({ has: page.locator(".pill", { hasText: "Overridden thermostats" }) })
        .filter({ hasNot: page.locator(".pill", { hasText: "Internal test" }) })
        .first();
      if (await row.count())
        href = await row.getByRole("link", { name: /Show thermostat details/ }).getAttribute("href");
    }
    expect(href).not.toBeNull();
    await page.goto(href!);
    await ready(page, info);
    const figures = page.getByTestId("location-figures");
    await expect(figures).toBeVisible();
    const measured = (await figures.getByTestId("figure-baseline").count()) > 0;
    if (measured) {
      await expect(figures.getByTestId("figure-baseline")).toHaveText(/^\d+\.\d{2} kW$/);
      await expect(figures.getByTestId("figure-reduced")).toHaveText(/^-?\d+\.\d{2} kW · -?\d+\.\d{2} kWh$/);
      await expect(figures.getByTestId("figure-earnings")).toHaveText(/^\$\d+\.\d{2}$/);
      await expect(figures).toContainText(/Reservation \$[\d.]+ \(\$18\.00 per kW-month/);
    } else await expect(figures.getByTestId("figures-note")).toBeVisible();
    await expect(
      page
        .getByTestId("thermostat-part")
        .filter({ hasText: /^Overrode at \d{1,2}:\d{2} (AM|PM) [A-Z]{2,4} to \d+°F$/ }),
    ).not.toHaveCount(0);
    await expect(page.getByTestId("thermostat-highest").first()).toHaveText(
      /°F \((.*above|at or below) the \d+°F setpoint\)$/,
    );
    // The method and its days: closed until asked for, with or without JavaScript.
    const method = page.getByTestId("grid-method");
    await expect(method.getByText(/highest (5 of the 10|2 of the 3)/)).toBeHidden();
    await method.getByText("Method and days used").click();
    await expect(method.getByText(/highest (5 of the 10|2 of the 3)/)).toBeVisible();
    await expect(method.locator('li[data-used="yes"]')).not.toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test("a location without data says so instead of a figure; at 390 px the figures are cards", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/grid-services");
    await ready(page, info);
    const links = await rows(page)
      .filter({ has: page.locator(".pill", { hasText: /^Participated$/ }) })
      .getByRole("link", { name: /Show thermostat details/ })
      .evaluateAll((els) => els.map((e) => e.getAttribute("href")!));
    let found = false;
    for (const href of links) {
      await page.goto(href);
      await ready(page, info);
      if ((await page.getByTestId("figures-note").count()) === 0) continue;
      await expect(page.getByTestId("figures-note")).toHaveText(
        "No demand data for the event hours: no figure for this location.",
      );
      await expect(page.getByTestId("figure-earnings")).toHaveCount(0);
      found = true;
      break;
    }
    expect(found).toBe(true);
    // Cards: the thermostat rows are blocks, and nothing scrolls sideways.
    const card = page.getByTestId("thermostat-insight").first();
    expect(await card.evaluate((el) => getComputedStyle(el).display)).not.toBe("table-row");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The period's fields are one line high (a flex basis once made each input 16rem tall in its column).
    for (const label of ["Period", "From", "To"]) {
      const box = await page.getByLabel(label, { exact: true }).boundingBox();
      expect(box?.height, label).toBeLessThan(60);
    }
    await page.screenshot({ path: info.outputPath("grid-390.png"), fullPage: true });
  });
});
