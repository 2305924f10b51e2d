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
      "Location,Event type,Status,Precool start,Start,End,Overridden thermostats,Internal test",
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
    await expect(page).toHaveURL(/\?q=Pike$/);
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
});
