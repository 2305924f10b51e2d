import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startManyStack } from "../../bench/many";
import { freePort } from "../../bench/server";

/**
 * A 300-location client (API_EXTRA_LOCATIONS=286, the api in its own process, the built web server in front):
 * the locations dashboard pages its table on the server. Run `npm run build` first.
 */
let s: Awaited<ReturnType<typeof startManyStack>>;
let metricsPort: number;
beforeAll(async () => {
  metricsPort = await freePort();
  s = await startManyStack(286, { METRICS_PORT: String(metricsPort) });
}, 120_000);
afterAll(() => s?.stop());

/**
 * A returning visitor's page (`s.returning`: the session and the `styles` cookie): the budgets are those pages,
 * whose stylesheets are cached (a first visit also carries them inline, a few KiB gzipped, so that it paints with
 * the document).
 */
const page = async (path: string) => {
  const res = await fetch(`${s.url}${path}`, {
    headers: { cookie: s.returning, "accept-encoding": "identity" },
  });
  expect(res.status).toBe(200);
  return res.text();
};
const rowIds = (html: string) =>
  [...html.matchAll(/data-testid="location-row-(\d+)"/g)].map((m) => Number(m[1]));
const count = (html: string, id: string) =>
  Number(new RegExp(`data-testid="summary-${id}".*?class="summary-count">(\\d+)<`, "s").exec(html)![1]);

describe("the locations dashboard of a 300-location client", () => {
  it("is at most 100 KiB of HTML with 75 rows on page 1, and the summary cards count all 300", async () => {
    const html = await page("/locations");
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(100 * 1024);
    expect(rowIds(html)).toHaveLength(75);
    expect(html).toContain("Page 1 of 4 · 300 locations");
    // Every location with a problem device is counted, though the card links only ten.
    const issues = count(html, "issues");
    expect(issues).toBeGreaterThan(10);
    expect(html).toContain(`and ${issues - 10} more`);
    // The selector does not list 300 entries: a search of them instead.
    expect(html).toContain('placeholder="Search 300 locations"');
    expect(html.match(/href="\/locations\/\d+\/control"/g)!.length).toBeLessThan(75 * 2 + 15);
  });

  it("pages through every location once (75, 75, 75, 75) with plain links", async () => {
    const seen: number[] = [];
    for (let p = 1; p <= 4; p++) {
      const html = await page(p === 1 ? "/locations" : `/locations?page=${p}`);
      seen.push(...rowIds(html));
      if (p < 4) expect(html).toContain(`href="/locations?page=${p + 1}"`);
    }
    expect(seen).toHaveLength(300);
    expect(new Set(seen).size).toBe(300);
  });

  it("searches across all locations: finds one that is on a later page", async () => {
    const lastPage = rowIds(await page("/locations?page=4"));
    const target = lastPage[lastPage.length - 1];
    const name = new RegExp(`href="/locations/${target}/control"[^>]*>([^<]+)<`).exec(
      await page("/locations?page=4"),
    )![1];
    const html = await page(`/locations?q=${encodeURIComponent(name)}`);
    expect(rowIds(html)).toEqual([target]);
    expect(html).not.toContain("locations-pager");
  });

  it("sorts across all locations: descending starts where ascending ends", async () => {
    const asc = [...rowIds(await page("/locations?page=4"))].reverse();
    const desc = rowIds(await page("/locations?dir=desc"));
    expect(desc).toEqual(asc);
    // Sorting by last bill, newest first, then the page: the order holds across pages.
    const date = (html: string) =>
      [...html.matchAll(/data-label="Last Bill">(?:<span>)?([A-Z][a-z]{2} \d{1,2}, \d{4})/g)].map((m) =>
        Date.parse(m[1]),
      );
    const p1 = date(await page("/locations?sort=lastBill&dir=desc"));
    const p2 = date(await page("/locations?sort=lastBill&dir=desc&page=2"));
    expect(p1).toHaveLength(75);
    expect(Math.min(...p1)).toBeGreaterThanOrEqual(Math.max(...p2));
  });
});

describe("the accounts page of a 300-location client", () => {
  const sections = (html: string) =>
    [...html.matchAll(/<section class="card account-building" aria-label="([^"]+)"/g)].map((m) => m[1]);

  it("is at most 100 KiB of HTML with 75 buildings on page 1 and says how many there are in all", async () => {
    const html = await page("/accounts");
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(100 * 1024);
    expect(sections(html)).toHaveLength(75);
    expect(html).toContain("Page 1 of 4 · 300 locations");
    expect(html).not.toContain('rel="prev"');
  });

  it("pages through every building once with plain links", async () => {
    const seen: string[] = [];
    for (let p = 1; p <= 4; p++) {
      const html = await page(p === 1 ? "/accounts" : `/accounts?page=${p}`);
      expect(Buffer.byteLength(html)).toBeLessThanOrEqual(100 * 1024);
      seen.push(...sections(html).filter((t) => t !== "Not yet assigned to a location"));
      if (p < 4) expect(html).toContain(`href="/accounts?page=${p + 1}"`);
      else expect(html).toContain('href="/accounts?page=3"');
    }
    expect(seen).toHaveLength(300);
    expect(new Set(seen).size).toBe(300);
  });
});

describe("the compliance report of a 300-location client", () => {
  const report = "/override-report?period=month&start=2026-10-01";
  const thermostatRows = (html: string) => [...html.matchAll(/data-testid="thermostat-row"/g)].length;
  const status = (html: string) =>
    /data-testid="thermostats-pager-status">Page (\d+) of (\d+) · (\d+) thermostats</.exec(html);

  it("is at most 100 KiB of HTML: 75 thermostat rows, a search for a location, the dialog closed", async () => {
    const html = await page(report);
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(100 * 1024);
    expect(thermostatRows(html)).toBe(75);
    expect(html).toContain('placeholder="Search 300 locations"');
    expect(html).not.toContain('data-testid="all-locations"');
    const [, p, pages, total] = status(html)!.map(Number);
    expect([p, pages]).toEqual([1, Math.ceil(total / 75)]);
    expect(total).toBeGreaterThan(300);
  });

  it("pages through every thermostat with plain links, keeping the period", async () => {
    const first = await page(report);
    const [, , pages, total] = status(first)!.map(Number);
    let rows = 0;
    for (let p = 1; p <= pages; p++) {
      const html = p === 1 ? first : await page(`${report}&page=${p}`);
      expect(Buffer.byteLength(html)).toBeLessThanOrEqual(100 * 1024);
      rows += thermostatRows(html);
      if (p < pages)
        expect(html).toContain(`href="/override-report?period=month&amp;start=2026-10-01&amp;page=${p + 1}"`);
    }
    expect(rows).toBe(total);
  });

  it("opens the All locations dialog with all 300 locations, and the search finds one location", async () => {
    const dialog = await page(`${report}&dialog=locations`);
    const list = /data-testid="all-locations">(.*?)<\/ul>/s.exec(dialog)![1];
    expect(list.match(/<li/g)).toHaveLength(300);
    const name = /data-testid="thermostat-row"><td data-label="Location">([^<]+)</.exec(dialog)![1];
    const found = await page(`${report}&q=${encodeURIComponent(name)}`);
    const locations = [...found.matchAll(/data-testid="thermostat-row"><td data-label="Location">([^<]+)</g)];
    expect(locations.length).toBeGreaterThan(0);
    expect(new Set(locations.map((m) => m[1]))).toEqual(new Set([name]));
  });
});

/** How many GET /buildings the web server has made so far (its metrics: one count per upstream call). */
async function buildingsCalls() {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const series = 'upstream_request_duration_seconds_count{endpoint="/buildings",method="GET",status="200"}';
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("the shell of a 300-location client (rule location-selector-light)", () => {
  it("reads the first page of buildings off a location's pages, and every page on a location's", async () => {
    const callsFor = async (path: string) => {
      const before = await buildingsCalls();
      await page(path);
      return (await buildingsCalls()) - before;
    };
    // The selector needs the count and no location: one call of the four a full list takes.
    for (const path of ["/accounts", "/grid-services", "/settings"]) expect(await callsFor(path)).toBe(1);
    // The dashboard lists every location, and the shell shares its first page.
    expect(await callsFor("/locations")).toBe(4);
    // A location's page looks the location up among all of them.
    expect(await callsFor("/locations/104/control")).toBe(4);
    const html = await page("/accounts");
    expect(html).toContain("See all locations");
    expect(html).toContain('placeholder="Search 300 locations"');
  });
});
