/**
 * The findings ledger end to end against the real api (demo data): the page's loader and the CSV's loader with
 * the same query show the same rows; the totals are the sums of the rows; the seed has exactly one missing bill;
 * a person limited to some locations hears only of those (rules missing-bill, findings-totals, docs/rules.md).
 */
import { parseCsv } from "../support/csv-parse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type RunningApi } from "../../api/server";
import { TEST_CLOCK_START } from "../support/clock";
import { DANA_SESSION_USER, apiSessionOf, webSessionCookie } from "../support/session-users";
import { USER } from "../../api/db/seed/ids";
import { COLUMNS, type LedgerRow } from "~/features/findings/ledger-view";

let api: RunningApi;
const ctx = { cspNonce: "" };
type PageLoader = typeof import("~/routes/_app.findings").loader;
let pageLoader: PageLoader;
let csvLoader: typeof import("~/routes/_app.findings[.]csv").loader;

const SAM = { ...DANA_SESSION_USER, id: USER.sam, email: "sam@harborcoffee.test", isClientAdmin: false };
const SAM_LOCATIONS = [101, 102, 104, 106, 109];

const get = (path: string, cookie: string) => new Request(`http://localhost${path}`, { headers: { cookie } });

beforeAll(async () => {
  api = await startApi({
    port: 0,
    clockStart: TEST_CLOCK_START,
    dbFile: ":memory:",
    quiet: true,
    demoData: true,
    staffEmailDomain: "energyops.test",
    // The outbox (GET /dev/outbox), where Sam's sign-in code is read: he has no password.
    testHooks: true,
  });
  process.env.API_URL = api.url;
  process.env.SESSION_SECRET = "integration-secret-0123456789abcdef0123456789";
  // The web tier's clock (app/server/clock.server.ts) starts where the api's does.
  process.env.CLOCK_START = TEST_CLOCK_START;
  pageLoader = (await import("~/routes/_app.findings")).loader;
  csvLoader = (await import("~/routes/_app.findings[.]csv")).loader;
});

afterAll(async () => {
  await api?.close();
});

type Ledger = {
  error: boolean;
  headline: string;
  allLabel: string;
  rows: LedgerRow[];
  totals: {
    client: { count: number; open: number; stakeCents: number; recoveredCents: number };
    locations: { id: number; count: number; open: number; stakeCents: number; recoveredCents: number }[];
  };
};

async function page(path: string, cookie: string) {
  const answer = (await pageLoader({ request: get(path, cookie), params: {}, context: ctx })) as unknown as {
    data: Ledger;
    init: { status?: number } | null;
  };
  return answer.data;
}

/** Sam's api session, through a sign-in code (he has no password). */
async function samSession() {
  const post = (path: string, body: unknown) =>
    fetch(`${api.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  await post("/auth/login-code/request", { email: SAM.email });
  const outbox = (await (
    await fetch(`${api.url}/dev/outbox?email=${encodeURIComponent(SAM.email)}`)
  ).json()) as {
    items: { code: string }[];
  };
  const res = await post("/auth/login-code", { email: SAM.email, code: outbox.items[0].code });
  return res.headers.getSetCookie()[0].split(";")[0].slice("api_session=".length);
}

const cookieOf = async (user: typeof DANA_SESSION_USER) =>
  webSessionCookie(user, await apiSessionOf(api.url, user.email));

describe("the findings ledger", () => {
  it("the totals are the sums of the rows, per location and for the client, and the CSV is the page's rows", async () => {
    const cookie = await cookieOf(DANA_SESSION_USER);
    for (const query of [
      "",
      "?period=range&from=2025-11-01&to=2026-11-30&sort=stake&dir=desc",
      "?period=last-month",
    ]) {
      const ledger = await page(`/findings${query}`, cookie);
      expect(ledger.error).toBe(false);
      const { rows, totals } = ledger;
      const sum = (list: { stakeCents: number; recoveredCents: number; open?: boolean | number }[]) => ({
        stake: list.reduce((s, r) => s + r.stakeCents, 0),
        recovered: list.reduce((s, r) => s + r.recoveredCents, 0),
      });
      expect(totals.client.count).toBe(rows.length);
      expect(totals.client.open).toBe(rows.filter((r) => r.open).length);
      expect({ stake: totals.client.stakeCents, recovered: totals.client.recoveredCents }).toEqual(sum(rows));
      for (const l of totals.locations) {
        const own = rows.filter((r) => r.locationId === l.id);
        expect([l.count, l.open]).toEqual([own.length, own.filter((r) => r.open).length]);
        expect({ stake: l.stakeCents, recovered: l.recoveredCents }).toEqual(sum(own));
      }
      expect(totals.locations.reduce((s, l) => s + l.count, 0)).toBe(totals.client.count);

      const res = await csvLoader({
        request: get(`/findings.csv${query}`, cookie),
        params: {},
        context: ctx,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("Cache-Control")).toBe("private, no-store");
      expect(parseCsv(await res.text())).toEqual([
        COLUMNS.map((c) => c.label),
        ...rows.map((r) => COLUMNS.map((c) => r.cells[c.key])),
      ]);
    }
  });

  it("lists the seed's one missing bill, its priced findings and its closed investigations", async () => {
    const cookie = await cookieOf(DANA_SESSION_USER);
    const ledger = await page("/findings?period=range&from=2025-01-01&to=2026-12-31", cookie);
    const missing = ledger.rows.filter((r) => r.cells.kind === "Missing bill");
    expect(missing.map((r) => r.cells.account)).toEqual(["08812-44190"]);
    expect(missing[0].cells.bill).toMatch(/^No statement since \w{3} \d{1,2}, \d{4} \(60 days\)$/);
    const kinds = (k: string) => ledger.rows.filter((r) => r.cells.kind === k && r.stakeCents > 0);
    expect(kinds("Supplier change").length).toBeGreaterThan(0);
    expect(kinds("Rate class change").length).toBeGreaterThan(0);
    expect(ledger.rows.filter((r) => r.cells.state === "Under investigation").length).toBeGreaterThan(0);
    expect(
      ledger.rows.filter((r) => r.cells.outcome.startsWith("Credit received")).map((r) => r.cells.recovered),
    ).toEqual(["$182.50"]);
    expect(ledger.rows.filter((r) => r.cells.outcome.startsWith("Billing was correct"))).toHaveLength(1);
    // The credit answers a finding priced from its bills: the utility gave back less than was at stake.
    const credited = ledger.rows.find((r) => r.cells.outcome.startsWith("Credit received"))!;
    expect(credited.stakeCents).toBeGreaterThanOrEqual(credited.recoveredCents);
    // Open and closed money apart, each the sum of this year's rows of its kind.
    const year = await page("/findings?period=this-year", cookie);
    const sum = (open: boolean) =>
      year.rows.filter((r) => r.open === open).reduce((s, r) => s + r.stakeCents, 0);
    const usd = (c: number) => `$${(c / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
    const open = year.rows.filter((r) => r.open).length;
    const closed = year.rows.length - open;
    expect(ledger.headline).toBe(
      `${usd(sum(true))} at stake on ${open} open findings this year; ${usd(sum(false))} found on ${closed} closed findings, of which $182.50 recovered.`,
    );
    expect([ledger.allLabel, year.totals.client.stakeCents]).toEqual([
      "All locations",
      sum(true) + sum(false),
    ]);
  });

  it("a person limited to some locations sees only theirs, in the api's answer and on the page", async () => {
    const session = await samSession();
    const res = await fetch(`${api.url}/client/1/findings`, {
      headers: { cookie: `api_session=${session}` },
    });
    const body = (await res.json()) as { items: { building: { id: number } }[] };
    expect(body.items.length).toBeGreaterThan(0);
    expect(new Set(body.items.map((i) => i.building.id))).toEqual(
      new Set(SAM_LOCATIONS.filter((id) => body.items.some((i) => i.building.id === id))),
    );
    expect(body.items.every((i) => SAM_LOCATIONS.includes(i.building.id))).toBe(true);
    const ledger = await page(
      "/findings?period=range&from=2025-01-01&to=2026-12-31",
      await webSessionCookie(SAM, session),
    );
    expect(ledger.rows.every((r) => SAM_LOCATIONS.includes(r.locationId))).toBe(true);
    expect(ledger.rows.some((r) => r.cells.kind === "Missing bill")).toBe(false);
    // Their headline and totals say they cover their locations.
    const theirs = `At your ${SAM_LOCATIONS.length} locations`;
    expect(ledger.headline.startsWith(`${theirs}: `)).toBe(true);
    expect(ledger.allLabel).toBe(`Your ${SAM_LOCATIONS.length} locations`);
    const other = await fetch(`${api.url}/client/2/findings`, {
      headers: { cookie: `api_session=${session}` },
    });
    expect(other.status).toBe(404);
  });

  it("Dana's Weekly Rundown names the missing bill in the app's words", async () => {
    const run = await fetch(`${api.url}/dev/notifications/run`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "weekly_rundown" }),
    });
    expect(run.status).toBe(200);
    const mail = api.db
      .prepare("SELECT text FROM outbox WHERE to_email = ? AND kind = 'weekly_rundown' ORDER BY id DESC")
      .get(DANA_SESSION_USER.email) as { text: string };
    const midtown = mail.text.slice(mail.text.indexOf("HARBOR COFFEE MIDTOWN"));
    expect(midtown).toMatch(
      /Missing bill: No statement since \w{3} \d{1,2}, \d{4} \(60 days\), account 08812-44190\./,
    );
    expect(mail.text.match(/Missing bill:/g)).toHaveLength(1);
  });

  it("the api counts a missing bill in the location's days: Midtown's recent account at its 45th evening", async () => {
    const moveClock = (at: string | null) =>
      fetch(`${api.url}/dev/clock`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ at }),
      });
    const missingAt = async (at: string) => {
      expect((await moveClock(at)).status).toBe(200);
      const session = await apiSessionOf(api.url, DANA_SESSION_USER.email);
      const res = await fetch(`${api.url}/client/1/findings`, {
        headers: { cookie: `api_session=${session}` },
      });
      const body = (await res.json()) as { items: { kind: string; account_number: string }[] };
      return body.items.filter((i) => i.kind === "missing_bill").map((i) => i.account_number);
    };
    // Midtown (113, Atlanta: America/New_York) account 08812-44191's latest statement, a few days old.
    const { last } = api.db
      .prepare(
        "SELECT MAX(s.statement_date) AS last FROM bill_statements s JOIN utility_accounts a ON a.id = s.account_id WHERE a.number = ?",
      )
      .get("08812-44191") as { last: string };
    const DAY = 86_400_000;
    const lastMs = Date.parse(`${last}T00:00:00Z`);
    try {
      // 10 PM on the 45th day after it in Atlanta (EST, UTC-5): already the 46th day in UTC. Not yet missing.
      expect(await missingAt(new Date(lastMs + 46 * DAY + 3 * 3_600_000).toISOString())).not.toContain(
        "08812-44191",
      );
      // 1 AM on the 46th day in Atlanta: missing.
      expect(await missingAt(new Date(lastMs + 46 * DAY + 6 * 3_600_000).toISOString())).toContain(
        "08812-44191",
      );
    } finally {
      await moveClock(null);
    }
  });
});
