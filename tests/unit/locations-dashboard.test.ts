import { describe, expect, it } from "vitest";
import { dashboardView, vendorAlertMessage } from "~/features/locations/dashboard.server";
import { parseTableState } from "~/features/locations/locations";
import type { Building, EnergyAdvisorBuilding } from "~/features/locations/locations.server";
import { action } from "~/routes/_app.locations._index";
import { commitSession, getSession, newSession } from "~/server/upstream/session.server";
import { DANA_SESSION_USER } from "../support/session-users";

/* ---------- the view model ---------- */

const building = (
  id: number,
  name: string,
  street: string,
  code: string,
  nickname: string | null = null,
): Building => ({
  id,
  name,
  nickname,
  code,
  address: { addressLine1: street, addressLine2: null, city: "Seattle", state: "WA", zipcode: "98101" },
  timezone: null,
});

const devices = (deviceStatus: string, num: number, unreachable: number[] = [], issues: number[] = []) => ({
  deviceStatus,
  numThermostats: num,
  unreachableThermostatsIds: unreachable,
  issueThermostatsIds: issues,
});

const BUILDINGS = [
  building(1, "Pike", "1912 Pike Pl", "HCC-003", "Flagship"),
  building(2, "Mission", "300 Mission St", "HCC-001"),
  building(3, "Loop", "50 Wacker Dr", "HCC-002"),
];

const ADVISOR: EnergyAdvisorBuilding[] = [
  {
    building: BUILDINGS[0],
    accounts: [
      {
        id: 11,
        number: "A-11",
        utilityDisplayName: "Seattle City Light",
        arcadiaAccountStatus: "CONNECTION_SUCCESS",
        arcadiaAccountStatusDetail: "DATA_ACCESSIBLE",
      },
      {
        id: 12,
        number: "A-12",
        utilityDisplayName: null,
        arcadiaAccountStatus: "DATA_ACCESS_FAILURE",
        arcadiaAccountStatusDetail: "CREDENTIAL_ISSUE",
      },
    ],
    deviceSummary: devices("DEVICE_ISSUES", 3, [7], [8]),
    peakDemandRatio: { hasHighDemandRatio: true, ratio: 2.1 },
    lastBillDate: "2026-09-01",
  },
  {
    building: BUILDINGS[1],
    accounts: [],
    deviceSummary: devices("OPERATING", 2),
    peakDemandRatio: { hasHighDemandRatio: true, ratio: 1.8 },
    lastBillDate: "2026-10-20",
  },
  // Building 3 is missing from the advisor list: no devices, no bill, no accounts.
];

const TODAY = new Date("2026-11-01T12:00:00Z");
const view = (query: string, isStaff = false) =>
  dashboardView({
    buildings: BUILDINGS,
    advisor: ADVISOR,
    state: parseTableState(new URLSearchParams(query)),
    isStaff,
    nowMs: TODAY.getTime(),
  });

/** `n` buildings "Store 1".."Store n" at street numbers 1..n, every one offline (in the issues card). */
function manyView(n: number, query: string) {
  const buildings = Array.from({ length: n }, (_, i) =>
    building(i + 1, `Store ${i + 1}`, `${i + 1} Main St`, `HCC-${i + 1}`),
  );
  return dashboardView({
    buildings,
    advisor: buildings.map((b) => ({
      building: b,
      accounts: [],
      deviceSummary: devices("DEVICE_ISSUES", 1, [b.id]),
      peakDemandRatio: null,
      lastBillDate: `2026-10-${String(1 + (b.id % 28)).padStart(2, "0")}`,
    })),
    state: parseTableState(new URLSearchParams(query)),
    isStaff: false,
    nowMs: TODAY.getTime(),
  });
}

describe("the dashboard table's pages (rule locations-table-paged)", () => {
  it("shows 75 rows a page; search and sort run over every location before paging", () => {
    const first = manyView(300, "");
    expect(first).toMatchObject({ total: 300, page: 1, pages: 4, matched: 300 });
    expect(first.rows).toHaveLength(75);
    expect(first.rows[0].id).toBe(1);
    const third = manyView(300, "page=3");
    expect(third.rows.map((r) => r.id)).toEqual(Array.from({ length: 75 }, (_, i) => 151 + i));
    // Sorted descending across all 300: page 1 starts with the last location.
    expect(manyView(300, "dir=desc").rows[0].id).toBe(300);
    // Searching finds a location that is on page 4 of the unfiltered table, on page 1.
    const found = manyView(300, "q=store 287");
    expect(found).toMatchObject({ page: 1, pages: 1, matched: 1 });
    expect(found.rows.map((r) => r.id)).toEqual([287]);
  });

  it("clamps a page past the end to the last page, and anything else to the first", () => {
    expect(manyView(300, "page=99")).toMatchObject({ page: 4 });
    expect(manyView(300, "page=99").rows).toHaveLength(75);
    expect(manyView(301, "page=99").rows.map((r) => r.id)).toEqual([301]);
    for (const q of ["page=0", "page=-2", "page=1.5", "page=x"]) expect(manyView(300, q).page).toBe(1);
  });

  it("counts every location on the summary cards but links only the first ten", () => {
    const v = manyView(300, "page=2");
    expect(v.issues.count).toBe(300);
    expect(v.issues.links.map((l) => l.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe("dashboardView (the locations dashboard's view model)", () => {
  it("joins each building with its advisor entry: chip, last bill and the 45-day warning", () => {
    const v = view("");
    expect(v.total).toBe(3);
    const row = (id: number) => v.rows.find((r) => r.id === id)!;
    expect(row(1).chip.label).toBe("2 device issues");
    expect(row(1).lastBill).toEqual({ date: "Sep 1, 2026", old: true });
    expect(row(2).chip.label).toBe("Operating");
    expect(row(2).lastBill).toEqual({ date: "Oct 20, 2026" });
    // A building the advisor list does not know: No Devices, no bill.
    expect(row(3).chip.label).toBe("No Devices");
    expect(row(3).lastBill).toBeNull();
    expect(row(1).address).toBe("1912 Pike Pl, Seattle, WA 98101");
  });

  it("fills the summary cards in the Location column's order, whatever the table's sort", () => {
    const v = view("sort=lastBill&q=pike");
    expect(v.rows.map((r) => r.id)).toEqual([1]);
    expect(v.issues).toEqual({ count: 1, links: [{ id: 1, label: "Pike" }] });
    // Mission (300) before Pike (1912) by street number, though the table puts Pike's older bill first.
    expect(v.highDemand).toEqual({
      count: 2,
      links: [
        { id: 2, label: "Mission" },
        { id: 1, label: "Pike" },
      ],
    });
    expect(view("sort=lastBill").rows.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(view("sort=lastBill&dir=desc").rows.map((r) => r.id)).toEqual([2, 1, 3]);
  });

  it("orders and searches the table from the URL state", () => {
    expect(view("").rows.map((r) => r.id)).toEqual([3, 2, 1]);
    expect(view("q=mission").rows.map((r) => r.id)).toEqual([2]);
    expect(view("q=nowhere").rows).toEqual([]);
    expect(view("q=nowhere").total).toBe(3);
  });

  it("shows staff the code and no nickname; everyone else the name and nickname", () => {
    const client = view("").rows.find((r) => r.id === 1)!;
    expect(client).toMatchObject({ label: "Pike", nickname: "Flagship" });
    const staff = view("", true);
    expect(staff.rows.find((r) => r.id === 1)).toMatchObject({ label: "HCC-003" });
    expect(staff.rows.find((r) => r.id === 1)!.nickname).toBeUndefined();
    expect(staff.rows.map((r) => r.label)).toEqual(["HCC-001", "HCC-002", "HCC-003"]);
    expect(staff.issues).toEqual({ count: 1, links: [{ id: 1, label: "HCC-003" }] });
  });

  it("lists the accounts of the expanded row only, with their Bill Monitoring status", () => {
    const v = view("expanded=1");
    expect(v.rows.find((r) => r.id === 1)!.accounts).toEqual([
      {
        id: 11,
        number: "A-11",
        utility: "Seattle City Light",
        status: { label: "Connected", badge: "success", tooltip: null },
      },
      {
        id: 12,
        number: "A-12",
        utility: null,
        status: {
          label: "Invalid Credentials",
          badge: "error",
          tooltip: "The credentials used were invalid. Please reconnect.",
        },
      },
    ]);
    expect(v.rows.find((r) => r.id === 2)!.accounts).toBeUndefined();
    expect(view("expanded=3").rows.find((r) => r.id === 3)!.accounts).toEqual([]);
  });
});

describe("old bills on the dashboard, in each location's own days (rules old-bill-45-days, location-today)", () => {
  /** 7 PM on Nov 30 in Seattle: 03:00 UTC on Dec 1. */
  const MONTH_END_EVENING = Date.parse("2026-12-01T03:00:00Z");
  const seattle = { ...building(1, "Pike", "1912 Pike Pl", "HCC-003"), timezone: "America/Los_Angeles" };
  const account = (id: number, last: string | null, detail = "DATA_ACCESSIBLE") => ({
    id,
    number: `A-${id}`,
    utilityDisplayName: "Seattle City Light",
    arcadiaAccountStatus: detail === "DATA_ACCESSIBLE" ? "CONNECTION_SUCCESS" : "INACTIVE",
    arcadiaAccountStatusDetail: detail,
    lastStatementDate: last,
  });
  const at = (nowMs: number, accounts: ReturnType<typeof account>[], lastBillDate: string, query = "") =>
    dashboardView({
      buildings: [seattle],
      advisor: [
        {
          building: seattle,
          accounts,
          deviceSummary: devices("OPERATING", 1),
          peakDemandRatio: null,
          lastBillDate,
        },
      ],
      state: parseTableState(new URLSearchParams(query)),
      isStaff: false,
      nowMs,
    }).rows[0];

  it("turns a bill old at the location's midnight, not UTC's, on a US month-end evening", () => {
    // Oct 16 → Nov 30 (Seattle's date) is 45 days: not old, though it is Dec 1 in UTC.
    const evening = at(MONTH_END_EVENING, [account(11, "2026-10-16")], "2026-10-16");
    expect(evening.lastBill).toEqual({ date: "Oct 16, 2026" });
    expect(evening.staleBills).toBeUndefined();
    // At 1 AM on Dec 1 in Seattle it is 46 days.
    const night = at(MONTH_END_EVENING + 6 * 3_600_000, [account(11, "2026-10-16")], "2026-10-16");
    expect(night.lastBill).toEqual({ date: "Oct 16, 2026", old: true });
    expect(night.staleBills).toEqual([{ id: 11, number: "A-11", date: "Oct 16, 2026" }]);
  });

  it("warns on the row and the expanded account when any account's latest statement is over 45 days old", () => {
    const now = Date.parse("2026-11-18T19:30:00Z");
    const accounts = [
      account(17, "2026-09-19", "NO_BILLS_DISCOVERED_AFTER_MOST_RECENT_NEXT_EXPECTED_POST_DATE"),
      account(18, "2026-11-10"),
      // Closed with a final bill: no next statement is expected.
      account(19, "2026-08-01", "NO_BILLS_DISCOVERED_AFTER_FINAL_BILL_NOTICE"),
      account(20, null),
    ];
    const row = at(now, accounts, "2026-11-10");
    // The location's Last Bill is the other account's recent one: not old itself.
    expect(row.lastBill).toEqual({ date: "Nov 10, 2026" });
    expect(row.staleBills).toEqual([{ id: 17, number: "A-17", date: "Sep 19, 2026" }]);
    expect(row.accounts).toBeUndefined();
    const open = at(now, accounts, "2026-11-10", "expanded=1");
    expect(open.accounts!.map((a) => [a.number, a.staleSince])).toEqual([
      ["A-17", "Sep 19, 2026"],
      ["A-18", undefined],
      ["A-19", undefined],
      ["A-20", undefined],
    ]);
  });
});

describe("vendorAlertMessage", () => {
  it("shows the upstream's message unless it is off, empty, missing or dismissed", () => {
    expect(vendorAlertMessage({ showAlert: true, message: "Maintenance tonight" }, false)).toBe(
      "Maintenance tonight",
    );
    expect(vendorAlertMessage({ showAlert: true, message: "Maintenance tonight" }, true)).toBeNull();
    expect(vendorAlertMessage({ showAlert: false, message: "Maintenance tonight" }, false)).toBeNull();
    expect(vendorAlertMessage({ showAlert: true, message: "" }, false)).toBeNull();
    expect(vendorAlertMessage({ showAlert: true, message: null }, false)).toBeNull();
    expect(vendorAlertMessage(null, false)).toBeNull();
  });
});

/* ---------- the action: one schema through parseWithZod ---------- */

const dana = DANA_SESSION_USER;

async function post(fields: Record<string, string>) {
  const s = await newSession();
  s.set("user", dana);
  s.set("apiSession", "tok");
  const cookie = (await commitSession(s)).split(";")[0];
  const request = new Request("http://app.test/locations?index", {
    method: "POST",
    headers: { cookie },
    body: new URLSearchParams(fields),
  });
  return action({ request, params: {}, context: { cspNonce: "" } });
}

/** A `data()` answer of the action (Remix's DataWithResponseInit). */
type Replied = {
  type: string;
  data: { lastResult: { status?: string; error?: Record<string, string[] | null> } };
  init: { status: number };
};

describe("the dashboard action (Dismiss on the vendor alert)", () => {
  it("dismisses for the session and goes back to the page it was on, in the locations area only", async () => {
    const res = (await post({
      intent: "dismiss-vendor-alert",
      redirectTo: "/locations?sort=lastBill",
    })) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/locations?sort=lastBill");
    const cookie = res.headers.get("Set-Cookie")!.split(";")[0];
    const session = await getSession(new Request("http://app.test/", { headers: { cookie } }));
    expect(session.get("vendorAlertDismissed")).toBe(true);
    for (const redirectTo of ["/settings", "https://evil.test/locations", ""]) {
      const elsewhere = (await post({ intent: "dismiss-vendor-alert", redirectTo })) as Response;
      expect(elsewhere.headers.get("Location"), redirectTo).toBe("/locations");
    }
  });

  it("answers an unknown or missing intent with a 400 and the submission's reply", async () => {
    const cases: Record<string, string>[] = [{ intent: "delete-everything" }, {}];
    for (const fields of cases) {
      const res = (await post(fields)) as unknown as Replied;
      expect(res.init.status).toBe(400);
      expect(res.data.lastResult.status).toBe("error");
      expect(res.data.lastResult.error).toHaveProperty("intent");
    }
  });
});
