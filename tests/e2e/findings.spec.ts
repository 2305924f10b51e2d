import { readFileSync } from "node:fs";
import type { Page, TestInfo } from "@playwright/test";
import { expect, expectJsState, ready, signInWithCode, test, USERS } from "./fixtures";

/**
 * The findings ledger (/findings, rules missing-bill, findings-period, findings-totals, findings-sort): the
 * owner's headline, the period and the sort in the URL (a GET form and links: the same with JavaScript off), the
 * CSV of exactly the rows shown, a person limited to some locations, a phone's width, the missing bill on the
 * accounts row. The clock is the suite's (tests/support/clock.ts): "last month" is October 2026.
 */

const rows = (page: Page) => page.getByTestId("finding-row");
const cell = (page: Page, key: string) => page.locator(`[data-testid="finding-row"] td.col-${key}`);
const money = (s: string) => Number(s.replace(/[$,]/g, ""));

async function openLedger(page: Page, info: TestInfo, path = "/findings") {
  await page.goto(path);
  await ready(page, info);
  await expectJsState(page, info);
}

test("the ledger: headline, a period and a sort in the URL, and the CSV of the rows shown", async ({
  asDana: page,
}, info) => {
  await openLedger(page, info);
  await expect(page.getByRole("heading", { level: 1, name: "Findings" })).toBeVisible();
  // Open and closed money apart.
  await expect(page.getByTestId("findings-headline")).toHaveText(
    /^\$[\d,]+\.\d{2} at stake on \d+ open findings this year; \$[\d,]+\.\d{2} found on \d+ closed findings, of which \$182\.50 recovered\.$/,
  );
  await expect(page.getByTestId("findings-client-total").getByRole("rowheader")).toHaveText("All locations");
  await expect(page.getByRole("link", { name: "Findings" }).first()).toHaveAttribute("href", "/findings");
  await expect(rows(page).filter({ hasText: "Missing bill" })).toHaveCount(1);

  // A period: the GET form puts it in the URL; the headline stays this year's.
  const headline = await page.getByTestId("findings-headline").textContent();
  await page.getByLabel("Period", { exact: true }).selectOption("last-month");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/[?&]period=last-month/);
  await expect(page.getByTestId("findings-count")).toContainText("Oct 1, 2026 – Oct 31, 2026");
  await expect(page.getByTestId("findings-headline")).toHaveText(headline!);
  for (const found of await cell(page, "found").allTextContents()) expect(found).toMatch(/^Oct \d+, 2026$/);

  // A sort: the header's link, the period kept.
  await page.getByRole("link", { name: /^At stake/ }).click();
  await expect(page).toHaveURL(/sort=stake&dir=desc/);
  await expect(page).toHaveURL(/period=last-month/);
  await expect(
    page.getByTestId("findings-table").getByRole("columnheader", { name: /At stake/ }),
  ).toHaveAttribute("aria-sort", "descending");
  const stakes = (await cell(page, "stake").allTextContents()).map((s) => (s.startsWith("$") ? money(s) : 0));
  expect(stakes).toEqual([...stakes].sort((a, b) => b - a));

  // The CSV of the same query: the rows and columns shown.
  const shown = await rows(page).evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")),
  );
  const [csv] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(csv.suggestedFilename()).toBe("findings-2026-10-01-2026-10-31.csv");
  const lines = readFileSync((await csv.path())!, "utf8")
    .trim()
    .split(/\r\n/);
  expect(lines[0]).toBe("Found,Location,Account #,Bill,Kind,At stake,State,Answered,Outcome,Recovered");
  expect(lines).toHaveLength(shown.length + 1);
  expect(lines[1]).toBe(shown[0].map((c) => (/[",]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(","));
});

test("a chosen range: a wrong one keeps what was typed and says why", async ({ asDana: page }, info) => {
  await openLedger(page, info, "/findings?period=range&from=2026-03-01&to=2026-02-01");
  await expect(page.getByRole("alert")).toHaveText(
    "The range must start on or before its end. Showing this year.",
  );
  await expect(page.getByLabel("From", { exact: true })).toHaveValue("2026-03-01");
  await expect(page.getByLabel("To", { exact: true })).toHaveValue("2026-02-01");
  await page.getByLabel("From", { exact: true }).fill("2026-09-01");
  await page.getByLabel("To", { exact: true }).fill("2026-09-30");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/period=range&from=2026-09-01&to=2026-09-30/);
  await expect(page.getByTestId("findings-count")).toContainText("Sep 1, 2026 – Sep 30, 2026");
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("a person limited to some locations sees only theirs", async ({ page }, info) => {
  await signInWithCode(page, info, USERS.sam, "/findings");
  await expect(rows(page).first()).toBeVisible();
  // Sam's five, each by the name its pages use (not a nickname: "Flagship", "Roastery"; rule location-name).
  for (const location of await cell(page, "location").allTextContents())
    expect([
      "Harbor Coffee Pike Place",
      "Harbor Coffee Capitol Hill",
      "Harbor Coffee Mission",
      "Harbor Coffee Wicker Park",
      "Harbor Coffee Chelsea",
    ]).toContain(location);
  await expect(rows(page).filter({ hasText: "Missing bill" })).toHaveCount(0);
  expect(await page.content()).not.toContain("Midtown");
  // Their headline and totals say they cover their five.
  await expect(page.getByTestId("findings-headline")).toHaveText(
    /^At your 5 locations: \$[\d,]+\.\d{2} at stake on /,
  );
  await expect(page.getByTestId("findings-client-total").getByRole("rowheader")).toHaveText(
    "Your 5 locations",
  );
});

test("390 px: every finding is readable without a sideways scroll", async ({ asDana: page }, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openLedger(page, info);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);
  const outside = await page.locator('[data-testid="finding-row"] td').evaluateAll((tds) =>
    tds
      .map((td) => ({ text: td.textContent, r: td.getBoundingClientRect() }))
      .filter(({ r }) => r.left < 0 || r.right > innerWidth + 1)
      .map(({ text }) => text),
  );
  expect(outside).toEqual([]);
});

test("the missing bill shows on its account's row of the accounts page", async ({ asDana: page }, info) => {
  await page.goto("/accounts");
  await ready(page, info);
  const row = page.getByRole("row").filter({ hasText: "08812-44190" });
  await expect(row.getByTestId("missing-bill")).toHaveText(
    /^⚠ Missing bill: No statement since \w{3} \d{1,2}, 2026 \(60 days\)\. See findings$/,
  );
  await expect(page.getByTestId("missing-bill")).toHaveCount(1);
  await row.getByRole("link", { name: "See findings" }).click();
  await expect(page).toHaveURL(/\/findings$/);
});
