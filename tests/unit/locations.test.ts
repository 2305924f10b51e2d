import { describe, expect, it } from "vitest";
import { accountStatusView as connectionStatus } from "~/features/accounts/account-status";
import {
  codeNumber,
  lastBillView,
  onboardingIncomplete,
  parseTableState,
  shellNav,
  selectorLocations,
  sortCaption,
  sortLocations,
  streetNumber,
  tableRows,
  withRememberedSort,
} from "~/features/locations/locations";
import { thermostatChip } from "../../shared/location-status";
import { isBillOld } from "../../shared/missing-bill";
import type { Building } from "~/features/locations/locations.server";

const summary = (deviceStatus: string, num: number, unreachable: number[] = [], issues: number[] = []) => ({
  deviceStatus,
  numThermostats: num,
  unreachableThermostatsIds: unreachable,
  issueThermostatsIds: issues,
});

describe("the 45-day rule", () => {
  const today = "2026-11-21";
  it("is old only past 45 days", () => {
    expect(isBillOld("2026-10-07", today)).toBe(false); // 45 days
    expect(isBillOld("2026-10-06", today)).toBe(true); // 46 days
    expect(isBillOld(null, today)).toBe(false);
  });
});

const b = (id: number, name: string, code: string, line1: string): Building => ({
  id,
  name,
  code,
  nickname: null,
  address: { addressLine1: line1, addressLine2: null, city: "Seattle", state: "WA", zipcode: "98101" },
});

describe("the Last Bill cell", () => {
  const today = "2026-11-21";
  it("shows the bill's date and its total, and flags an old one", () => {
    expect(lastBillView("2026-11-03", 123456, today)).toEqual({ date: "Nov 3, 2026", amount: "$1,234.56" });
    expect(lastBillView("2026-09-01", 9900, today)).toEqual({
      date: "Sep 1, 2026",
      amount: "$99.00",
      old: true,
    });
    expect(lastBillView("2026-11-03", null, today)).toEqual({ date: "Nov 3, 2026" });
    expect(lastBillView(null, 100, today)).toBeNull();
  });
});

describe("sorting locations", () => {
  const list = [
    b(1, "Pike", "HCC-007", "1912 Pike Pl"),
    b(2, "Pine", "HCC-002", "415 E Pine St"),
    b(3, "Alpha", "HCC-011", "415 A St"),
    b(4, "NoNum", "X", "Pier 39"),
  ];
  it("reads street and code numbers", () => {
    expect(streetNumber("5300 Ballard Ave")).toBe(5300);
    expect(streetNumber("Pier 39")).toBe(Infinity);
    expect(codeNumber("HCC-011")).toBe(11);
  });
  it("sorts names by street number then name for everyone, codes by code number for staff", () => {
    expect(sortLocations(list, false).map((l) => l.name)).toEqual(["Alpha", "Pine", "Pike", "NoNum"]);
    expect(sortLocations(list, true).map((l) => l.code)).toEqual(["HCC-002", "HCC-007", "HCC-011", "X"]);
  });
  it("orders addresses as people read them: the number, then the street, numeric-aware, then the name", () => {
    const street = [
      b(1, "Zed", "A", "1100 Main St"),
      b(2, "Yew", "B", "301 Main St"),
      b(3, "Xan", "C", "88 Main St"),
      b(4, "Wes", "D", "7 Main St"),
      b(5, "Vic", "E", "88 Elm St"),
      b(6, "Uma", "F", "88 elm st"),
      b(7, "Tia", "G", "7 Avenue 10"),
      b(8, "Sol", "H", "7 Avenue 9"),
    ];
    expect(sortLocations(street, false).map((l) => l.address.addressLine1)).toEqual([
      "7 Avenue 9",
      "7 Avenue 10",
      "7 Main St",
      "88 elm st",
      "88 Elm St",
      "88 Main St",
      "301 Main St",
      "1100 Main St",
    ]);
    // The same line (any case): by name.
    expect(sortLocations(street, false)[3].name).toBe("Uma");
  });
  it("says what the table's order is, for each column and direction", () => {
    expect(sortCaption({ sort: "location", dir: "asc" }, false)).toBe(
      "Sorted by street address, lowest number first",
    );
    expect(sortCaption({ sort: "location", dir: "desc" }, false)).toBe(
      "Sorted by street address, highest number first",
    );
    expect(sortCaption({ sort: "location", dir: "asc" }, true)).toBe(
      "Sorted by location code, lowest number first",
    );
    expect(sortCaption({ sort: "thermostats", dir: "asc" }, false)).toBe(
      "Sorted by thermostat status, most urgent first",
    );
    expect(sortCaption({ sort: "lastBill", dir: "desc" }, false)).toBe(
      "Sorted by last bill date, newest first; locations without bills last",
    );
  });
  it("takes the remembered sort only when the URL names none, and ignores a value it does not know", () => {
    const state = (query: string, remembered: string | null) =>
      parseTableState(withRememberedSort(new URLSearchParams(query), remembered));
    expect(state("", "lastBill.desc")).toMatchObject({ sort: "lastBill", dir: "desc" });
    expect(state("q=pike&page=2", "thermostats.asc")).toMatchObject({
      sort: "thermostats",
      q: "pike",
      page: 2,
    });
    expect(state("sort=location", "lastBill.desc")).toMatchObject({ sort: "location", dir: "asc" });
    expect(state("dir=desc", "lastBill.asc")).toMatchObject({ sort: "location", dir: "desc" });
    expect(state("", "evil.desc")).toMatchObject({ sort: "location", dir: "asc" });
    expect(state("", "lastBill.sideways")).toMatchObject({ sort: "location", dir: "asc" });
    expect(state("", null)).toMatchObject({ sort: "location", dir: "asc" });
  });
  it("reads each location's street or code number once per sort, not once per comparison", () => {
    let reads = 0;
    const many = Array.from({ length: 300 }, (_, i) => {
      const loc = b(i, `L${i}`, `HCC-${(i * 7919) % 300}`, `${(i * 7919) % 300} Main St`);
      const line1 = loc.address.addressLine1;
      Object.defineProperty(loc.address, "addressLine1", { get: () => (reads++, line1) });
      return loc;
    });
    const sorted = sortLocations(many, false);
    expect(reads).toBe(300);
    expect(sorted.map((l) => (l.id * 7919) % 300)).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });
  it("filters and sorts the table rows from the URL state", () => {
    const rows = list.map((building, i) => ({
      building,
      chip: thermostatChip(summary(i === 0 ? "OPERATING" : "NO_DEVICES", i === 0 ? 1 : 0)),
      lastBillDate: i === 3 ? null : `2026-0${i + 1}-01`,
    }));
    const state = parseTableState(new URLSearchParams("sort=lastBill&dir=desc"));
    expect(tableRows(rows, state, false).map((r) => r.building.id)).toEqual([3, 2, 1, 4]);
    expect(
      tableRows(rows, parseTableState(new URLSearchParams("q=pine")), false).map((r) => r.building.id),
    ).toEqual([2]);
    expect(tableRows(rows, parseTableState(new URLSearchParams("q=hcc-011")), false)).toEqual([]);
    expect(
      tableRows(rows, parseTableState(new URLSearchParams("q=hcc-011")), true).map((r) => r.building.id),
    ).toEqual([3]);
    expect(
      tableRows(rows, parseTableState(new URLSearchParams("sort=thermostats")), false)[0].building.id,
    ).toBe(1);
    expect(parseTableState(new URLSearchParams("sort=evil&dir=x&expanded=-3"))).toEqual({
      sort: "location",
      dir: "asc",
      q: "",
      page: 1,
      expanded: null,
    });
    expect(parseTableState(new URLSearchParams("page=3")).page).toBe(3);
  });
});

describe("the location selector (rule location-selector-light)", () => {
  const list = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1, label: `L${i + 1}` }));
  it("lists every location of a client with up to 15", () => {
    expect(selectorLocations(list(15), null)).toEqual({ locations: list(15), locationCount: 15 });
    expect(selectorLocations(list(14), 3).locations).toHaveLength(14);
  });
  it("lists only the current location of a larger client, and counts them all", () => {
    expect(selectorLocations(list(300), null)).toEqual({ locations: [], locationCount: 300 });
    expect(selectorLocations(list(16), 16)).toEqual({
      locations: [{ id: 16, label: "L16" }],
      locationCount: 16,
    });
  });
});

describe("connection status (spec part 1 §4)", () => {
  it.each([
    ["CONNECTION_SUCCESS", "DATA_ACCESSIBLE", "Connected", "success", null],
    [
      "NEW_ACCOUNT",
      "EMAIL_APPROVAL",
      "Email Approval Required",
      "info",
      "Please approve data sharing via connection email",
    ],
    ["CONNECTION_IN_PROGRESS", null, "Processing", "info", "The connection is in progress."],
    [
      "DATA_ACCESS_FAILURE",
      "CREDENTIAL_ISSUE",
      "Invalid Credentials",
      "error",
      "The credentials used were invalid. Please reconnect.",
    ],
    [
      "DATA_ACCESS_FAILURE",
      "UNSUCCESSFUL_EMAIL_APPROVAL",
      "Connection Failed",
      "error",
      "The email approval required for connection timed out. Please reconnect.",
    ],
    [
      "DATA_ACCESS_FAILURE",
      "USER_REVOKED_ACCESS",
      "Connection Failed",
      "error",
      "The data sharing connection was revoked. Please reconnect.",
    ],
    ["DATA_ACCESS_FAILURE", "NO_DATA_AVAILABLE", "Connection Failed", "error", null],
    [
      "INACTIVE",
      "NO_BILLS_DISCOVERED_AFTER_MOST_RECENT_NEXT_EXPECTED_POST_DATE",
      "Inactive",
      "info",
      "This account shows no recent bill data.",
    ],
    [
      "INACTIVE",
      "NO_BILLS_DISCOVERED_AFTER_FINAL_BILL_NOTICE",
      "Closed",
      "info",
      "Final bill received for this account.",
    ],
    ["INACTIVE", "ISSUE_UNDER_REVIEW", "Not Connected", "info", null],
  ])("%s / %s → %s", (status, detail, label, badge, tooltip) => {
    expect(connectionStatus(status, detail)).toEqual({ label, badge, tooltip });
  });
});

describe("the shell's navigation by context", () => {
  it("offers the location pages with a location, Usage Details only when usage is available", () => {
    expect(shellNav({ locationId: 101, usageAvailable: true, clientId: 1 }).map((l) => l.label)).toEqual([
      "Thermostats",
      "Bill History",
      "Usage Details",
      "Findings",
      "Download Bill Statements Summary",
    ]);
    expect(shellNav({ locationId: 101, usageAvailable: false, clientId: 1 }).map((l) => l.to)).toEqual([
      "/locations/101/control",
      "/locations/101/spending",
      "/findings",
      "/api/client/1/bill-statements/export-csv",
    ]);
  });
  it("offers accounts and grid services without one, and no CSV without a client", () => {
    expect(shellNav({ locationId: null, usageAvailable: false, clientId: null }).map((l) => l.label)).toEqual(
      ["Connect Utility Accounts", "Grid Services"],
    );
  });
  it("shows set-up while any onboarding step is not complete", () => {
    expect(onboardingIncomplete([{ status: "complete" }, { status: "in_progress" }])).toBe(true);
    expect(onboardingIncomplete([{ status: "complete" }])).toBe(false);
  });
});

describe("listAllBuildings", () => {
  it("reads every page of 75 (the first, then the rest together)", async () => {
    const { listAllBuildings } = await import("~/features/locations/locations.server");
    const total = 160;
    const calls: unknown[] = [];
    const fake = {
      get: async (_path: string, o: { query: { page: number; size: number } }) => {
        calls.push(o.query);
        const { page, size } = o.query;
        const ids = Array.from({ length: total }, (_, i) => i + 1).slice((page - 1) * size, page * size);
        return { items: ids.map((id) => b(id, `L${id}`, `C-${id}`, `${id} Main St`)), total, page, size };
      },
    };
    const all = await listAllBuildings(fake as never);
    expect(all).toHaveLength(160);
    expect(calls).toEqual([
      { size: 75, page: 1 },
      { size: 75, page: 2 },
      { size: 75, page: 3 },
    ]);
  });
});
