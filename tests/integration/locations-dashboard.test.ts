/**
 * The dashboard and impersonation loaders/actions against the real api over HTTP, with the rows other areas
 * seed (issues, bills) inserted here, so the chips, the 45-day rule, the summary cards and demo mode are
 * checked end to end in this branch.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, isoDate } from "../../api/db/seed/context";
import { USER } from "../../api/db/seed/ids";
import { startApi, type RunningApi } from "../../api/server";
import * as clock from "../../api/lib/clock";
import { TEST_CLOCK_START, testToday } from "../support/clock";
import {
  DANA_SESSION_USER,
  MORGAN_SESSION_USER,
  apiSessionOf,
  webSessionCookie,
} from "../support/session-users";

let api: RunningApi;
const ctx = { cspNonce: "" };
const today = testToday();

type Loader = typeof import("~/routes/_app.locations._index").loader;
type ShellLoader = typeof import("~/routes/_app").loader;
let dashboard: Loader;
let shell: ShellLoader;
let impersonateAction: typeof import("~/routes/_app.impersonate").action;

const apiSessionFor = (email: string) => apiSessionOf(api.url, email);

const dana = DANA_SESSION_USER;

const cookieFor = webSessionCookie;

const get = (path: string, cookie: string) => new Request(`http://localhost${path}`, { headers: { cookie } });

beforeAll(async () => {
  api = await startApi({
    port: 0,
    clockStart: TEST_CLOCK_START,
    dbFile: ":memory:",
    quiet: true,
    demoData: true,
    staffEmailDomain: "energyops.test",
  });
  process.env.API_URL = api.url;
  process.env.SESSION_SECRET = "integration-secret-0123456789abcdef0123456789";
  // The web tier's clock (app/server/clock.server.ts) starts where the api's does.
  process.env.CLOCK_START = TEST_CLOCK_START;
  const { db } = api;
  const now = clock.nowIso();
  // This test owns the rows it reasons about: start from no issues, actions, flags or bills.
  db.exec(
    "DELETE FROM thermostat_issues; DELETE FROM thermostat_actions; DELETE FROM bill_flag_outcomes; DELETE FROM bill_flag_answers; DELETE FROM bill_flags; DELETE FROM bill_statements;",
  );
  const issue = db.prepare(
    "INSERT INTO thermostat_issues (thermostat_id, building_id, issue_slug, issue_category, current_status, is_dismissed, created_at, updated_at) VALUES (?, ?, 'permanent_hold', 'schedule', ?, 0, ?, ?)",
  );
  issue.run(1013, 105, "active", now, now);
  issue.run(1014, 105, "processing", now, now);
  issue.run(1015, 105, "failed", now, now);
  issue.run(1019, 106, "active", now, now);
  const bill = db.prepare(
    `INSERT INTO bill_statements (building_id, account_id, statement_date, service_start_date, service_end_date, consumption_kwh,
      demand_kw, rate_cents, total_charges_cents, total_electric_charges_cents) VALUES (?, ?, ?, ?, ?, 900, ?, 14, 12000, 11000)`,
  );
  for (let m = 0; m < 13; m++) {
    const date = isoDate(addDays(today, -10 - m * 30));
    bill.run(104, 1005, date, isoDate(addDays(today, -40 - m * 30)), date, m === 0 ? 75 : 50);
  }
  bill.run(
    113,
    1018,
    isoDate(addDays(today, -60)),
    isoDate(addDays(today, -90)),
    isoDate(addDays(today, -60)),
    20,
  );
  dashboard = (await import("~/routes/_app.locations._index")).loader;
  shell = (await import("~/routes/_app")).loader;
  impersonateAction = (await import("~/routes/_app.impersonate")).action;
});

afterAll(async () => {
  await api?.close();
});

/** The dashboard's success answer (`data(body, { headers })`; an upstream failure answers `data(…, { status })`). */
type Answer = Exclude<Awaited<ReturnType<Loader>>, Response>;
type DashboardData = Extract<Answer extends { data: infer D } ? D : never, { error: false }>;

/** The dashboard loader's body and the Set-Cookie it answers, for a GET of `path`. */
async function load(path: string, cookie: string) {
  const answer = (await dashboard({ request: get(path, cookie), params: {}, context: ctx })) as {
    data: DashboardData;
    init?: { headers?: HeadersInit } | null;
  };
  return { body: answer.data, setCookie: new Headers(answer.init?.headers ?? {}).get("Set-Cookie") };
}

describe("the locations dashboard loader", () => {
  it("builds the chips, the old-bill warning and both summary cards from the api", async () => {
    const cookie = await cookieFor(dana, await apiSessionFor(dana.email));
    const { body: data } = await load("/locations?expanded=106", cookie);
    expect(data.error).toBe(false);
    const row = (id: number) => data.rows.find((r) => r.id === id)!;
    expect(row(101).chip.label).toBe("Ongoing Dispatch Event");
    expect(row(102).chip.label).toBe("Offline");
    expect(row(103).chip.label).toBe("1/3 Offline");
    expect(row(104).chip.label).toBe("Operating");
    expect(row(105).chip.label).toBe("4 device issues");
    expect(row(106).chip.label).toBe("1 device issue");
    expect(row(107).chip.label).toBe("No Devices");
    expect(row(113).lastBill).toMatchObject({ old: true });
    expect(row(104).lastBill).not.toBeNull();
    expect(row(104).lastBill!.old).toBeUndefined();
    expect(row(107).lastBill).toBeNull();
    expect(data.highDemand.links.map((l) => l.id)).toEqual([104]);
    expect(data.issues.links.map((l) => l.id).sort()).toEqual([101, 102, 103, 105, 106]);
    expect(row(106).accounts!.map((a) => a.status.label)).toEqual(["Connected", "Invalid Credentials"]);
    expect(row(105).accounts).toBeUndefined();
    expect(data.vendorAlert).toMatch(/maintenance/);
  });

  it("sorts by last bill with no bills last, and searches", async () => {
    const cookie = await cookieFor(dana, await apiSessionFor(dana.email));
    const { body: data } = await load("/locations?sort=lastBill&dir=desc", cookie);
    expect(data.rows.slice(0, 2).map((r) => r.id)).toEqual([104, 113]);
    const { body: found } = await load("/locations?q=wynkoop", cookie);
    expect(found.rows.map((r) => r.id)).toEqual([108]);
  });

  it("remembers the sort the user chose: a bare /locations comes back sorted the same way", async () => {
    const cookie = await cookieFor(dana, await apiSessionFor(dana.email));
    const chosen = await load("/locations?sort=lastBill&dir=desc", cookie);
    expect(chosen.body.caption).toBe("Sorted by last bill date, newest first; locations without bills last");
    const remembered = /^locations_sort=[^;]+/.exec(chosen.setCookie ?? "")?.[0];
    expect(remembered).toBe("locations_sort=lastBill.desc");
    expect(chosen.setCookie).toMatch(/HttpOnly/);
    // Back from another page: the nav's bare /locations, the same order, and nothing to set again.
    const back = await load("/locations", `${cookie}; ${remembered}`);
    expect(back.body.state).toMatchObject({ sort: "lastBill", dir: "desc" });
    expect(back.body.rows.map((r) => r.id)).toEqual(chosen.body.rows.map((r) => r.id));
    expect(back.setCookie).toBeNull();
    // A sort the URL names wins, and is remembered in its place.
    const location = await load("/locations?sort=location", `${cookie}; ${remembered}`);
    expect(location.body.state).toMatchObject({ sort: "location", dir: "asc" });
    expect(location.setCookie).toMatch(/^locations_sort=location\.asc;/);
    // A forged value is ignored: the default order.
    const forged = await load("/locations", `${cookie}; locations_sort=evil.sideways`);
    expect(forged.body.state).toMatchObject({ sort: "location", dir: "asc" });
  });
});

describe("the shell loader", () => {
  it("offers the location pages for an own location and the general ones otherwise", async () => {
    const cookie = await cookieFor(dana, await apiSessionFor(dana.email));
    const withLocation = await shell({
      request: get("/locations/104/control", cookie),
      params: { locationId: "104" },
      context: ctx,
    });
    expect(withLocation.current).toEqual({ id: 104, label: "Harbor Coffee Mission" });
    // Usage Details only where GET /insights/{id}/available-usage says so: 104 has usage, 107 has none.
    expect(withLocation.nav.map((n) => n.label)).toEqual([
      "Thermostats",
      "Bill History",
      "Usage Details",
      "Findings",
      "Download Bill Statements Summary",
    ]);
    const noUsage = await shell({
      request: get("/locations/107/control", cookie),
      params: { locationId: "107" },
      context: ctx,
    });
    expect(noUsage.nav.map((n) => n.label)).toEqual([
      "Thermostats",
      "Bill History",
      "Findings",
      "Download Bill Statements Summary",
    ]);
    // Harbor's onboarding steps are all complete: the shell does not ask it to "Set up your account".
    expect(withLocation.showOnboarding).toBe(false);
    const foreign = await shell({
      request: get("/locations/201/control", cookie),
      params: { locationId: "201" },
      context: ctx,
    });
    expect(foreign.current).toBeNull();
    expect(foreign.nav.map((n) => n.label)).toEqual([
      "Connect Utility Accounts",
      "Grid Services",
      "Findings",
      "Download Bill Statements Summary",
    ]);
    expect(foreign.locations.slice(0, 2).map((l) => l.label)).toEqual([
      "Harbor Coffee Park Slope",
      "Harbor Coffee Loop",
    ]);
  });
});

describe("impersonation and demo mode through the web actions", () => {
  it("starts with an audited reason, anonymises every answer in demo mode, and stops", async () => {
    const apiSession = await apiSessionFor("morgan@energyops.test");
    const morgan = MORGAN_SESSION_USER;
    let cookie = await cookieFor(morgan, apiSession);
    const post = (fields: Record<string, string>) =>
      new Request("http://localhost/impersonate", {
        method: "POST",
        headers: { cookie },
        body: new URLSearchParams(fields),
      });
    const nextCookie = (res: Response) => res.headers.get("Set-Cookie")!.split(";")[0];

    const refused = await impersonateAction({
      request: post({ intent: "start", clientId: "1", reason: " " }),
      params: {},
      context: ctx,
    });
    expect(JSON.stringify(refused)).toContain("Please give a reason");

    const started = (await impersonateAction({
      request: post({ intent: "start", clientId: "1", reason: "Ticket 77" }),
      params: {},
      context: ctx,
    })) as Response;
    expect(started.status).toBe(302);
    cookie = nextCookie(started);
    const audit = api.db
      .prepare("SELECT reason, ended_at FROM impersonation_audit WHERE staff_user_id = ?")
      .get(USER.morgan);
    expect(audit).toEqual({ reason: "Ticket 77", ended_at: null });

    const demo = (await impersonateAction({
      request: post({ intent: "demo-on", redirectTo: "/locations" }),
      params: {},
      context: ctx,
    })) as Response;
    expect(demo.headers.get("Location")).toBe("/locations");
    cookie = nextCookie(demo);

    const page = await dashboard({
      request: get("/locations?expanded=104", cookie),
      params: {},
      context: ctx,
    });
    const frame = await shell({ request: get("/locations", cookie), params: {}, context: ctx });
    const everything = JSON.stringify([page, frame]);
    expect(everything).not.toMatch(/Harbor|Pike|Seattle|Mission St|HCC-/);
    expect(everything).toContain("Demo Client");
    expect(everything).toContain("DEMO-104");

    const stopped = (await impersonateAction({
      request: post({ intent: "stop" }),
      params: {},
      context: ctx,
    })) as Response;
    expect(stopped.headers.get("Location")).toBe("/impersonate");
    const ended = api.db
      .prepare("SELECT ended_at FROM impersonation_audit WHERE staff_user_id = ?")
      .get(USER.morgan) as { ended_at: string };
    expect(ended.ended_at).not.toBeNull();
  });
});
