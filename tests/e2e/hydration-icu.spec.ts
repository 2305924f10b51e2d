import { expect, isJs, ready, test } from "./fixtures";

/**
 * Hydration builds no Intl formatter and compares no strings by locale. The first such call in a page loads
 * ICU's data: 28–60 ms of main thread on a phone (the bench's 4× CPU slowdown), inside the one long task
 * that hydrates the page. Spending and usage paid it for their numbers (an Intl.NumberFormat, and
 * localeCompare on bill dates) and read 205–290 ms of Total Blocking Time; without it, ~50 ms. Numbers are
 * written by app/lib/decimal.ts, ISO dates compared by compareIso, and times in a building's timezone
 * arrive as text from the server. A tooltip may still format on demand, after a pointer moves.
 */
const PAGES = [
  "/locations",
  "/locations/101/spending",
  "/locations/104/usage/demand?period=month&start=2026-10-01",
  "/locations/101/usage",
  "/locations/105/control",
  "/grid-services",
  "/override-report?period=month&start=2026-10-01",
  "/override-report/1003?period=month&start=2026-10-01",
  "/accounts",
  "/findings",
  "/settings",
  "/settings?tab=team",
];

for (const path of PAGES)
  test(`hydrating ${path} loads no ICU data`, async ({ asDana: page }, info) => {
    test.skip(!isJs(info), "Without JavaScript nothing hydrates; the server writes every string.");
    await page.addInitScript(() => {
      const w = window as unknown as { __icu: string[] };
      w.__icu = [];
      const where = () => new Error().stack?.split("\n")[3]?.trim() ?? "";
      const intl = Intl as unknown as Record<string, new (...a: unknown[]) => object>;
      for (const name of [
        "NumberFormat",
        "DateTimeFormat",
        "Collator",
        "PluralRules",
        "RelativeTimeFormat",
      ]) {
        intl[name] = new Proxy(intl[name], {
          construct(target, args) {
            w.__icu.push(`Intl.${name} ${where()}`);
            return Reflect.construct(target, args) as object;
          },
        });
      }
      const spy = (proto: object, name: string) => {
        const p = proto as Record<string, (...a: unknown[]) => unknown>;
        const original = p[name];
        p[name] = function (this: unknown, ...args: unknown[]) {
          w.__icu.push(`${name} ${where()}`);
          return original.apply(this, args);
        };
      };
      spy(String.prototype, "localeCompare");
      spy(Number.prototype, "toLocaleString");
      for (const name of ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"])
        spy(Date.prototype, name);
    });
    await page.goto(path);
    await ready(page, info);
    await expect(page.locator("main")).toBeVisible();
    const calls = await page.evaluate(() => (window as unknown as { __icu: string[] }).__icu);
    expect(calls).toEqual([]);
  });
