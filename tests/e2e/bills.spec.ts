import { readFileSync } from "node:fs";
import type { Page, TestInfo } from "@playwright/test";
import { expect, expectJsState, isJs, ready, test } from "./fixtures";
import { openEmailPage } from "./email-pages";

/** Bill rows (not the flag rows below them) of the Your Bills table. */
const billRows = (page: Page) => page.locator("table.bills-table tbody tr:not(.flag-row)");

async function openSpending(page: Page, info: TestInfo, locationId: number, query = "") {
  await page.goto(`/locations/${locationId}/spending${query}`);
  await ready(page, info);
}

test.describe("bills and energy usage page", () => {
  test("chart, bills table and the flag banner", async ({ asDana: page, a11y }, info) => {
    await openSpending(page, info, 101);
    await expectJsState(page, info);
    await expect(page.getByRole("heading", { name: "Energy Usage" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Your Bills" })).toBeVisible();
    await expect(billRows(page)).toHaveCount(13);
    await expect(billRows(page).first()).toContainText(/\$0\.\d{4}/);
    await expect(billRows(page).first()).toContainText(/\$\d{1,3}(,\d{3})*\.\d{2}/);
    await expect(page.getByText("Constellation NewEnergy").first()).toBeVisible();
    // the legend and 13 monthly points, each linking to its bill's usage
    await expect(page.locator(".chart-legend")).toContainText("Consumption (kWh)");
    await expect(page.locator(".chart-legend")).toContainText("Demand (kW)");
    const barLinks = page.locator('svg.chart-svg a[href*="/usage/demand?period=bill&start="]');
    await expect(barLinks).toHaveCount(13);
    // the flags: group heading and both headings, yellow pills
    await expect(
      page.getByRole("heading", { name: "We have detected 2 bill issues that could mean higher bills" }),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Please verify energy supplier change" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Your utility delivery rate increased" })).toBeVisible();
    await expect(page.getByText(/within 1 business day/).first()).toBeVisible();
    // The change this bill measured, in place of a general "typically 50-70%".
    await expect(
      page.getByText(
        /On this bill the rate per kWh rose from \$0\.\d{4} to \$0\.\d{4} per kWh \(\+\d+\.\d%\)\./,
      ),
    ).toBeVisible();
    await expect(page.getByText(/50-70%/)).toHaveCount(0);
    await expect(page.locator(".flag-price").first()).toHaveText(
      /^At stake on this bill, from the rate per kWh alone: \$0\.\d{4} → \$0\.\d{4} per kWh × [\d,]+ kWh = \$[\d,]+\.\d{2}\.$/,
    );
    await expect(page.locator(".flag-banner .pill-yellow")).toHaveCount(3);
    // the data table opens and reads like the chart
    await page.getByText("Show data table").click();
    const dataTable = page.locator(".chart-data table");
    await expect(dataTable).toBeVisible();
    await expect(dataTable.locator("tbody tr")).toHaveCount(13);
    await expect(dataTable.getByRole("link", { name: "View usage for this bill" }).first()).toHaveAttribute(
      "href",
      /period=bill&start=\d+/,
    );
    if (!isJs(info)) {
      // without JavaScript, each bucket has an SVG title
      await expect(page.locator("svg.chart-svg rect.chart-hit title").first()).toContainText("Consumption:");
    } else {
      await page.locator("svg.chart-svg rect.chart-hit").nth(12).hover();
      await expect(page.locator(".chart-tooltip")).toContainText("View usage for this bill");
    }
    await a11y();
  });

  test("each finding is priced from its bill's own figures (rule flag-price)", async ({
    asDana: page,
  }, info) => {
    await openSpending(page, info, 101);
    const prices = page.locator(".flag-banner .flag-price");
    await expect(prices).toHaveCount(2);
    const line = (await prices.first().textContent())!;
    const m = line.match(
      /^At stake on this bill, from the rate per kWh alone: \$(0\.\d{4}) → \$(0\.\d{4}) per kWh × ([\d,]+) kWh = \$([\d,]+\.\d{2})\.$/,
    );
    expect(m, line).not.toBeNull();
    const [, before, now, kwh, amount] = m!;
    // Both flags of the bill read the same price; its inputs are this bill's rate and kWh, shown in its row.
    await expect(prices.nth(1)).toHaveText(line);
    const latest = billRows(page).first();
    await expect(latest).toContainText(`$${now}`);
    await expect(latest).toContainText(kwh);
    await expect(billRows(page).nth(1)).toContainText(`$${before}`);
    const cents = Math.round(((Number(now) - Number(before)) * 10000 * Number(kwh.replace(/,/g, ""))) / 100);
    expect(amount.replace(/,/g, "")).toBe((cents / 100).toFixed(2));
    // A rate that did not rise says so instead of a number (105's rate class change).
    await openSpending(page, info, 105);
    await expect(page.locator(".flag-banner .flag-price").first()).toHaveText(
      /^At stake on this bill, from the rate per kWh alone: nothing, the rate did not rise \(\$0\.\d{4} → \$0\.\d{4} per kWh\)\.$/,
    );
  });

  test("a bill's chart link opens its usage", async ({ asDana: page }, info) => {
    await openSpending(page, info, 101);
    const link = page.locator('svg.chart-svg a[href*="period=bill"]').last();
    const href = await link.getAttribute("href");
    await page.goto(href!);
    await expect(page).toHaveURL(/period=bill&start=\d+/);
    await expect(page.getByRole("heading", { name: /Bill period/ })).toBeVisible();
  });

  test("status headings and pills of answered flags; hidden flags", async ({ asDana: page }, info) => {
    await openSpending(page, info, 110);
    await expect(page.getByRole("heading", { name: "Help Request Received — We're on it!" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Utility delivery rate class updated" })).toBeVisible();
    const banner = page.locator(".flag-banner").first();
    await expect(banner.locator(".flag-group-head .pill")).toHaveClass(/pill-yellow/);
    await expect(banner.locator(".flag-group-head .pill")).toHaveText("Investigating");
    // Dana asked for this investigation (the demo's history), so she alone may withdraw it; after "Yes, this is
    // expected", anyone may still ask for an investigation (rule flag-answer-history).
    const requested = banner.locator(".flag[data-status='action_requested']");
    await expect(requested).toContainText("You answered “No, please investigate”");
    await expect(requested.getByRole("button")).toHaveText(["Yes, this is expected"]);
    for (const dismissed of await banner.locator(".flag[data-status='dismissed']").all())
      await expect(dismissed.getByRole("button")).toHaveText(["No, please investigate"]);
    await page.goto("/locations/111/spending");
    await expect(page.getByRole("heading", { name: "New supplier verified" })).toBeVisible();
    await expect(page.locator(".flag-banner").first().locator(".pill-grey")).toHaveCount(3);
    // 112: the supplier change to the provider itself and the other flag types are not shown
    await page.goto("/locations/112/spending");
    await expect(billRows(page).first()).toContainText("EnergyOps Energy Services");
    await expect(page.locator(".flag-banner")).toHaveCount(0);
  });

  test("account switch", async ({ asDana: page }, info) => {
    await openSpending(page, info, 101);
    const select = page.getByLabel("Account Number");
    await expect(select.locator("option")).toHaveText(["Acct # 4410-2281-07", "Acct # 4410-2281-15"]);
    await select.selectOption({ label: "Acct # 4410-2281-15" });
    if (!isJs(info)) await page.getByRole("button", { name: "Show bills" }).click();
    await expect(page).toHaveURL(/accountId=1002/);
    await expect(page.locator(".flag-banner")).toHaveCount(0);
    await expect(billRows(page)).toHaveCount(13);
    await expect(page.getByLabel("Account Number")).toHaveValue("1002");
    // one account: no dropdown
    await page.goto("/locations/102/spending");
    await expect(page.getByLabel("Account Number")).toHaveCount(0);
  });

  test("answer: yes, this is expected", async ({ asDana: page }, info) => {
    // Both kinds of flag get answered: a rate class change with JavaScript, a supplier change without.
    const [location, before, after] = isJs(info)
      ? [102, "Your utility delivery rate increased", "Utility delivery rate class updated"]
      : [106, "Please verify energy supplier change", "New supplier verified"];
    await openSpending(page, info, location);
    const flag = page.locator(".flag").filter({ has: page.getByRole("heading", { name: before }) });
    const answered = page.locator(".flag").filter({ has: page.getByRole("heading", { name: after }) });
    // The reset data holds the flag unanswered, and no answered one of its kind.
    await expect(flag).toHaveCount(1);
    await expect(answered).toHaveCount(0);
    await flag.getByRole("button", { name: "Yes, this is expected" }).click();
    await expect(page.getByText("Bill feedback received")).toBeVisible();
    await expect(flag).toHaveCount(0);
    await expect(answered).toHaveCount(1);
    await expect(answered.locator(".pill")).toHaveClass(/pill-grey/);
    // The answer on record says who and from where; another opinion may still ask for an investigation.
    await expect(answered.locator(".flag-record")).toHaveText(
      /^You answered “Yes, this is expected” on \w{3} \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M \w+, on the spending page\.$/,
    );
    await expect(answered.getByRole("button")).toHaveText(["No, please investigate"]);
  });

  test("the group heading counts the flags shown, each with its own state", async ({
    asDana: page,
  }, info) => {
    await openSpending(page, info, 101);
    const testId = await page
      .locator(".flag-banner")
      .filter({ has: page.locator(".flag-group-head") })
      .first()
      .getAttribute("data-testid");
    const banner = page.getByTestId(testId!);
    const heading = banner.locator(".flag-group-head h3");
    const open = banner.locator(".flag[data-status='unacknowledged']");
    await expect(heading).toHaveText("We have detected 2 bill issues that could mean higher bills");
    await open.first().getByRole("button", { name: "Yes, this is expected" }).click();
    await expect(open).toHaveCount(1);
    await expect(heading).toHaveText("We have detected 2 bill issues that could mean higher bills");
    await expect(banner.locator(".flag[data-status='dismissed'] .pill")).toHaveText("Verified");
    await open.first().getByRole("button", { name: "No, please investigate" }).click();
    await expect(open).toHaveCount(0);
    await expect(heading).toHaveText("We have detected 2 bill issues that could mean higher bills");
    await expect(banner.locator(".flag[data-status='action_requested'] .pill")).toHaveText("Investigating");
    await expect(banner.locator(".flag-group-head .pill")).toHaveText("Investigating");
  });

  test("answer: no, please investigate", async ({ asDana: page }, info) => {
    const [location, before, after] = isJs(info)
      ? [104, "Please verify energy supplier change", "Help Request Received — We're on it!"]
      : [109, "Your utility delivery rate increased", "Utility delivery rate class updated"];
    await openSpending(page, info, location);
    const flag = page.locator(".flag").filter({ has: page.getByRole("heading", { name: before }) });
    const answered = page.locator(".flag").filter({ has: page.getByRole("heading", { name: after }) });
    await expect(flag).toHaveCount(1);
    await expect(answered).toHaveCount(0);
    await flag.getByRole("button", { name: "No, please investigate" }).click();
    await expect(page.getByText("Help is on the way!")).toBeVisible();
    await expect(flag).toHaveCount(0);
    await expect(answered).toHaveCount(1);
    await expect(answered.locator(".pill")).toHaveText("Investigating");
    await expect(answered.locator(".pill")).toHaveClass(/pill-yellow/);
  });

  test("PDF and CSV downloads", async ({ asDana: page }, info) => {
    await openSpending(page, info, 101);
    const [pdf] = await Promise.all([
      page.waitForEvent("download"),
      billRows(page)
        .first()
        .getByRole("link", { name: /Download the bill/ })
        .click(),
    ]);
    expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
    expect(
      readFileSync((await pdf.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    const [csv] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download CSV" }).click(),
    ]);
    const lines = readFileSync((await csv.path())!, "utf8")
      .trim()
      .split(/\r\n/);
    expect(lines[0]).toBe("Statement date,Service start date,Service end date,Consumption (kWh),Demand (kW)");
    expect(lines).toHaveLength(14);
  });

  test("empty state for a location without bills", async ({ page, signIn, a11y }, info) => {
    await signIn("alex");
    await page.goto("/locations/201/spending");
    await ready(page, info);
    await expect(page.getByRole("heading", { name: "We're waiting for your first bill" })).toBeVisible();
    // A button that posts the opening (Bill Monitoring in progress), then shows the flow (rule connect-open-is-a-post).
    const connect = page.getByRole("button", { name: "Connect Utility Accounts" });
    await connect.click();
    // The flow starts with this location chosen for the new accounts (rule connect-keeps-location).
    const flow = isJs(info)
      ? page.getByRole("dialog", { name: "Connect Utility Accounts" })
      : page.locator("main");
    if (isJs(info)) {
      // With JavaScript the connect flow opens in the shell's dialog, over this page.
      await expect(page).toHaveURL(/\/locations\/201\/spending\?connect=1&connect_at=201$/);
      await expect(flow).toBeVisible();
    } else await expect(page).toHaveURL(/\/authorize-arcadia\?building=201$/);
    await expect(flow.getByText("Select Utility").first()).toBeVisible();
    await flow.getByLabel("Utility", { exact: true }).selectOption({ label: "Georgia Power" });
    await flow.getByRole("button", { name: "Continue" }).click();
    await expect(flow.getByRole("heading", { name: "Review accounts" })).toBeVisible();
    await expect(flow.getByLabel("Location for new accounts (optional)")).toHaveValue("201");
    if (isJs(info)) {
      await flow.getByRole("link", { name: "Close" }).click();
      await expect(page.getByRole("dialog")).toHaveCount(0);
    } else await page.goto("/locations/201/spending");
    await a11y();
    // another client's location is not found
    await page.goto("/locations/101/spending");
    await expect(page).toHaveURL(/\/locations$/);
  });

  test("error state when the bills call fails", async ({ asDana: page }, info) => {
    // an account id that is not this location's: the api refuses the query
    await openSpending(page, info, 101, "?accountId=1003");
    await expect(
      page.getByText("There was a problem loading your bills. Our team has been notified."),
    ).toBeVisible();
  });
});

test.describe("bill feedback confirmation", () => {
  test("action_requested and otherwise", async ({ page, a11y }) => {
    await openEmailPage(page, "/fix-my-bill/action_requested");
    await expect(page.getByRole("heading", { name: "Help is on the way!" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Visit Dashboard" })).toHaveAttribute("href", "/");
    await page.goto("/fix-my-bill/dismissed");
    await expect(page.getByRole("heading", { name: "Bill feedback received" })).toBeVisible();
    await page.goto("/fix-my-bill/something-else");
    await expect(page.getByRole("heading", { name: "Bill feedback received" })).toBeVisible();
    await a11y();
  });
});
