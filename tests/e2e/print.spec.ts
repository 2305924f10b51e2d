import type { Page } from "@playwright/test";
import { expect, MONTHS, ready, test } from "./fixtures";
import { testToday } from "../support/clock";

/**
 * Print: every page a user would print shows its content only (no sidebar, toasts or buttons), its title and
 * period, tables as tables with their header at any paper width (Letter and A5 text widths), and the bars and
 * chart colours as on screen. The compliance report for the demo client fits a few sheets; the findings ledger
 * says whose findings and which period above its rows, in 8–9 pt, with its totals on the same sheet.
 */
const PRINTED: { path: string; period?: RegExp }[] = [
  { path: "/locations" },
  { path: "/locations/101/spending" },
  { path: "/locations/104/usage/consumption", period: /Consumption · \w+ \d{4}/ },
  { path: "/override-report", period: /Time Frame:\s+\w+ \d{4}/ },
  { path: "/override-report/1003", period: /Time Frame:\s+\w+ \d{4}/ },
  { path: "/grid-services", period: /Events from/ },
  { path: "/locations/105/control" },
  { path: "/findings?period=year", period: /Jan 1, \d{4} – Dec 31, \d{4}/ },
];
// Paper's text width in CSS px: Letter less 12 mm margins, and A5 less the same.
const PAPER_WIDTHS = [725, 468];

/** The sheets of a PDF: Chromium writes one page object per sheet, uncompressed ("/Type /Page", not "/Pages"). */
const sheetsOf = (pdf: Buffer) => pdf.toString("latin1").match(/\/Type\s*\/Page\b/g)?.length ?? 0;

/** What print shows of the page: sidebar, tables, coloured marks, read from the computed styles. */
function readPrint(page: Page) {
  return page.evaluate(() => {
    const shown = (el: Element | null) => {
      if (!el) return false;
      const r = el.getBoundingClientRect();
      return getComputedStyle(el).display !== "none" && r.width > 0 && r.height > 0;
    };
    const tables = [...document.querySelectorAll<HTMLTableElement>("main table")].filter(shown).map((t) => ({
      table: getComputedStyle(t).display,
      head: t.tHead ? getComputedStyle(t.tHead).display : "none",
      headHeight: t.tHead?.getBoundingClientRect().height ?? 0,
      rows: [...t.querySelectorAll(":scope > tbody > tr")]
        .slice(0, 3)
        .map((tr) => getComputedStyle(tr).display),
      split: [...t.querySelectorAll(":scope > tbody > tr")].some(
        (tr) => getComputedStyle(tr).breakInside !== "avoid",
      ),
    }));
    const marks = [
      ...document.querySelectorAll(
        "main .location-bar, main .swatch, main .plot-area rect:not(.chart-hit), main .pill",
      ),
    ]
      .filter(shown)
      .map((el) => {
        const s = getComputedStyle(el);
        // A bar is its fill or background; a line swatch is its top border.
        const line = parseFloat(s.borderTopWidth) > 0 && el.classList.contains("swatch-line");
        const paint =
          el instanceof SVGElement
            ? s.fill
            : line
              ? s.borderTopColor
              : s.backgroundImage !== "none"
                ? s.backgroundImage
                : s.backgroundColor;
        return { adjust: s.printColorAdjust, paint, cls: el.getAttribute("class") ?? el.tagName };
      });
    return {
      sidebar: shown(document.querySelector(".sidebar")),
      toasts: shown(document.querySelector(".toasts")),
      buttons: [...document.querySelectorAll("main .btn:not(summary)")].filter(shown).length,
      title: document.querySelector("main h1")?.textContent ?? "",
      text: (document.querySelector("main") as HTMLElement | null)?.innerText ?? "",
      tables,
      marks,
    };
  });
}

for (const { path, period } of PRINTED) {
  test(`print: ${path} shows its content, its tables as tables and its colours`, async ({
    asDana: page,
  }, info) => {
    await page.emulateMedia({ media: "print" });
    for (const width of PAPER_WIDTHS) {
      await page.setViewportSize({ width, height: 1000 });
      await page.goto(path);
      await ready(page, info);
      const seen = await readPrint(page);
      expect(seen.sidebar, `${width}px: the sidebar`).toBe(false);
      expect(seen.toasts, `${width}px: the toasts`).toBe(false);
      expect(seen.buttons, `${width}px: buttons`).toBe(0);
      expect(seen.title.trim(), "the page title").not.toBe("");
      if (period) expect(seen.text, "the period").toMatch(period);
      for (const t of seen.tables) {
        expect(t.table, `${width}px: a table`).toBe("table");
        expect(t.head, `${width}px: its header`).toBe("table-header-group");
        // At least a line of the smallest print text (8 CSS px).
        expect(t.headHeight, `${width}px: its header shows`).toBeGreaterThanOrEqual(8);
        for (const row of t.rows) expect(row, `${width}px: its rows`).toBe("table-row");
        expect(t.split, `${width}px: a row may split across sheets`).toBe(false);
      }
      for (const m of seen.marks) {
        expect(m.adjust, `${m.cls}: colours kept on paper`).toBe("exact");
        expect(m.paint, `${m.cls}: painted`).not.toMatch(/^(transparent|none|rgba\(0, 0, 0, 0\))$/);
      }
    }
  });
}

test("print: the compliance report and a thermostat's view fit a few sheets", async ({
  asDana: page,
}, info) => {
  for (const [path, most] of [
    ["/override-report", 3],
    ["/override-report/1003", 4],
  ] as const) {
    await page.goto(path);
    await ready(page, info);
    const sheets = sheetsOf(await page.pdf({ format: "Letter" }));
    expect(sheets, path).toBeGreaterThan(0);
    expect(sheets, `${path}: sheets`).toBeLessThanOrEqual(most);
  }
});

test("print: the findings ledger says whose findings and which period, in 8–9 pt, its totals on the same sheet", async ({
  asDana: page,
}, info) => {
  // This month at Harbor Coffee's home location (Seattle): the servers' today is the same date there.
  const today = testToday();
  const year = today.getUTCFullYear();
  const month = MONTHS[today.getUTCMonth()].slice(0, 3);
  const lastDay = new Date(Date.UTC(year, today.getUTCMonth() + 1, 0)).getUTCDate();
  await page.goto("/findings?period=this-month");
  await ready(page, info);
  const title = page.getByTestId("findings-print-title");
  // The screen has its heading and the period form; the title is the paper's.
  await expect(title).toBeHidden();
  await page.emulateMedia({ media: "print" });
  await expect(title).toBeVisible();
  await expect(title).toHaveText(`Harbor Coffee Co. · Findings, ${month} 1 – ${month} ${lastDay}, ${year}`);
  const rows = page.getByTestId("finding-row");
  expect(await rows.count(), "this month's findings").toBeGreaterThan(0);
  // Above the rows.
  const titleBox = (await title.boundingBox())!;
  const firstRow = (await rows.first().boundingBox())!;
  expect(titleBox.y + titleBox.height).toBeLessThanOrEqual(firstRow.y);
  // Rows in 8–9 pt (10.67–12 CSS px), the totals no smaller.
  const sizes = await page.evaluate(() =>
    [...document.querySelectorAll("[data-testid=finding-row] td, [data-testid=findings-totals] td")].map(
      (td) => parseFloat(getComputedStyle(td).fontSize),
    ),
  );
  for (const px of sizes) {
    expect(px).toBeGreaterThanOrEqual(10.6);
    expect(px).toBeLessThanOrEqual(12);
  }
  // As the browser's print dialog does (the page's Letter landscape): the rows and the totals fit one sheet.
  const print = () => page.pdf({ preferCSSPageSize: true });
  expect(sheetsOf(await print()), "this month's rows and the totals").toBe(1);
  // The year names itself once.
  await page.goto("/findings?period=this-year");
  await ready(page, info);
  await expect(title).toHaveText(`Harbor Coffee Co. · Findings, Jan 1 – Dec 31, ${year}`);
});
