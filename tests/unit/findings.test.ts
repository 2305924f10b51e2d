import { describe, expect, it } from "vitest";
import {
  buildLedger,
  csvRows,
  type Finding,
  headline,
  ledgerRow,
  ledgerTotals,
  parsePeriod,
  parseSort,
  printTitle,
  RANGE_ERRORS,
} from "~/features/findings/findings";
import { nextSort } from "~/features/findings/ledger-view";

const TODAY = "2026-11-18";
const q = (s: string) => new URLSearchParams(s);

const flag = (over: Partial<Finding> & { flagId: number }): Finding => ({
  kind: "rate_class_change",
  status: "unacknowledged",
  foundOn: "2026-11-10",
  building: { id: 101, name: "Pike Place" },
  accountId: 1001,
  accountNumber: "4410-2281-07",
  // Each finding on a bill of its own (50000 + the flag id's last three digits), unless a test shares one.
  bill: { id: 50000 + (over.flagId % 1000), statementDate: over.foundOn ?? "2026-11-10" },
  atStake: { cents: 5439, text: "$0.1814 → $0.1853 per kWh × 13,945 kWh = $54.39" },
  answered: null,
  outcome: null,
  missing: null,
  ...over,
});

const missing: Finding = {
  kind: "missing_bill",
  flagId: null,
  status: "missing",
  foundOn: "2026-11-04",
  building: { id: 113, name: "Midtown" },
  accountId: 1017,
  accountNumber: "08812-44190",
  bill: null,
  atStake: null,
  answered: null,
  outcome: null,
  missing: { lastStatementDate: "2026-09-19", days: 60, text: "No statement since Sep 19, 2026 (60 days)" },
};

const credited = flag({
  flagId: 7014,
  kind: "supplier_change",
  status: "completed",
  foundOn: "2026-08-14",
  building: { id: 108, name: "LoDo" },
  accountId: 1010,
  atStake: { cents: 20012, text: "…" },
  answered: {
    answer: "action_requested",
    by: { name: "Dana Whitfield" },
    answeredAt: "2026-08-15T10:00:00Z",
  },
  outcome: {
    outcome: "credit_received",
    creditCents: 18250,
    by: { name: "Morgan Lee" },
    closedAt: "2026-08-21T15:00:00Z",
  },
});

const lastYear = flag({ flagId: 7030, foundOn: "2025-12-12", atStake: { cents: 999, text: "…" } });
const all = [
  flag({ flagId: 7001 }),
  // The same bill as 7001: a supplier change and a rate class change priced from one rise of its rate.
  flag({ flagId: 7002, kind: "supplier_change", bill: { id: 50001, statementDate: "2026-11-10" } }),
  missing,
  credited,
  lastYear,
];

describe("the findings period (rule findings-period)", () => {
  it("reads this month, last month and this year, this year by default", () => {
    expect(parsePeriod(q(""), TODAY)).toMatchObject({
      key: "this-year",
      from: "2026-01-01",
      to: "2026-12-31",
    });
    expect(parsePeriod(q("period=this-month"), TODAY)).toMatchObject({
      from: "2026-11-01",
      to: "2026-11-30",
    });
    expect(parsePeriod(q("period=last-month"), TODAY)).toMatchObject({
      from: "2026-10-01",
      to: "2026-10-31",
      label: "Oct 1, 2026 – Oct 31, 2026",
    });
    expect(parsePeriod(q("period=last-month"), "2026-01-05")).toMatchObject({
      from: "2025-12-01",
      to: "2025-12-31",
    });
    expect(parsePeriod(q("period=bogus"), TODAY).key).toBe("this-year");
  });

  it("takes a chosen range of two real dates in order, else shows this year and keeps what was typed", () => {
    expect(parsePeriod(q("period=range&from=2025-12-01&to=2026-02-28"), TODAY)).toMatchObject({
      key: "range",
      from: "2025-12-01",
      to: "2026-02-28",
      error: null,
    });
    expect(parsePeriod(q("period=range&from=2026-02-30&to=2026-03-01"), TODAY)).toMatchObject({
      from: "2026-01-01",
      to: "2026-12-31",
      fromInput: "2026-02-30",
      error: RANGE_ERRORS.invalid,
    });
    expect(parsePeriod(q("period=range&from=2026-03-01&to=2026-02-01"), TODAY).error).toBe(
      RANGE_ERRORS.order,
    );
    expect(parsePeriod(q("period=range&from=2026-03-01"), TODAY)).toMatchObject({
      error: RANGE_ERRORS.both,
      fromInput: "2026-03-01",
      toInput: "",
    });
  });
});

describe("the findings printout (rule findings-print)", () => {
  it("titles the sheet with the client and the period, the year once when the period is within one", () => {
    expect(printTitle("Harbor Coffee Co.", parsePeriod(q("period=this-month"), TODAY))).toBe(
      "Harbor Coffee Co. · Findings, Nov 1 – Nov 30, 2026",
    );
    expect(
      printTitle("Harbor Coffee Co.", parsePeriod(q("period=range&from=2025-12-15&to=2026-01-14"), TODAY)),
    ).toBe("Harbor Coffee Co. · Findings, Dec 15, 2025 – Jan 14, 2026");
    expect(printTitle(null, parsePeriod(q(""), TODAY))).toBe("Findings, Jan 1 – Dec 31, 2026");
    expect(printTitle("  ", parsePeriod(q("period=last-month"), TODAY))).toBe(
      "Findings, Oct 1 – Oct 31, 2026",
    );
  });
});

describe("the findings totals and headline (rule findings-totals)", () => {
  it("sums the rows shown, per location and for the client", () => {
    const ledger = buildLedger(all, q("period=this-year"), TODAY);
    expect(ledger.rows.map((r) => r.key)).toEqual(["flag-7001", "flag-7002", "missing-1017", "flag-7014"]);
    const { client, locations } = ledger.totals;
    // 7001 and 7002 are two findings on one bill: its dollars count once, on 7001 (the lower id).
    expect(client).toMatchObject({ count: 4, open: 3, stakeCents: 5439 + 20012, recoveredCents: 18250 });
    expect(locations.map((l) => [l.name, l.count, l.stakeCents])).toEqual([
      ["LoDo", 1, 20012],
      ["Midtown", 1, 0],
      ["Pike Place", 2, 5439],
    ]);
    const sum = (k: "count" | "open" | "stakeCents" | "recoveredCents") =>
      locations.reduce((s, l) => s + l[k], 0);
    expect([sum("count"), sum("open"), sum("stakeCents"), sum("recoveredCents")]).toEqual([
      client.count,
      client.open,
      client.stakeCents,
      client.recoveredCents,
    ]);
    expect(client).toMatchObject({ stake: "$254.51", recovered: "$182.50" });
  });

  it("counts one bill's dollars once: its first finding carries them, the other says where they are", () => {
    const rows = buildLedger(all, q("period=this-year&sort=found&dir=asc"), TODAY).rows;
    const cell = (key: string) => rows.find((r) => r.key === key)!;
    expect([cell("flag-7001").cells.stake, cell("flag-7001").stakeCents]).toEqual(["$54.39", 5439]);
    expect([cell("flag-7002").cells.stake, cell("flag-7002").stakeCents]).toEqual([
      "Counted with the rate class change",
      0,
    ]);
    // Another bill's finding keeps its own amount, and a single finding on a bill is untouched.
    const other = flag({ flagId: 7003 });
    const ledger = buildLedger([...all, other], q("period=this-year"), TODAY);
    expect(ledger.rows.find((r) => r.key === "flag-7003")!.stakeCents).toBe(5439);
    expect(ledger.totals.client.stakeCents).toBe(5439 * 2 + 20012);
  });

  it("heads the page with this year's findings, whatever the period shown", () => {
    // Open and closed money apart: at stake on the open ones; found on the closed, of which recovered.
    expect(headline(all, TODAY)).toBe(
      "$54.39 at stake on 3 open findings this year; $200.12 found on 1 closed finding, of which $182.50 recovered.",
    );
    expect(buildLedger(all, q("period=last-month"), TODAY).headline).toBe(headline(all, TODAY));
    expect(ledgerTotals([]).client).toEqual({ count: 0, open: 0, stakeCents: 0, recoveredCents: 0 });
  });

  it("says a limited person's headline and totals cover their locations", () => {
    const limited = buildLedger(all, q(""), TODAY, { locations: 5, all: false });
    expect(limited.headline).toBe(`At your 5 locations: ${headline(all, TODAY)}`);
    expect(limited.allLabel).toBe("Your 5 locations");
    expect(headline(all, TODAY, { locations: 1, all: false })).toMatch(/^At your 1 location: /);
    const everyone = buildLedger(all, q(""), TODAY, { locations: 13, all: true });
    expect([everyone.headline, everyone.allLabel]).toEqual([headline(all, TODAY), "All locations"]);
  });

  it("dates answers and outcomes in the location's timezone, as the emails do", () => {
    // 00:16 UTC on Dec 2 is 6:16 PM CST on Dec 1 in Chicago.
    const late = {
      ...credited,
      building: { id: 105, name: "Wicker Park", timezone: "America/Chicago" },
      answered: { ...credited.answered!, answeredAt: "2026-12-02T00:16:00Z" },
      outcome: { ...credited.outcome!, closedAt: "2026-12-02T00:16:00Z" },
    };
    const { cells } = ledgerRow(late);
    expect(cells.answered).toMatch(/, Dec 1, 2026$/);
    expect(cells.outcome).toMatch(/, Dec 1, 2026$/);
  });

  it("writes each row's cells in words, and the CSV is those cells under the column labels", () => {
    const row = ledgerRow(credited);
    expect(row.cells).toEqual({
      found: "Aug 14, 2026",
      location: "LoDo",
      account: "4410-2281-07",
      bill: "Aug 14, 2026",
      kind: "Supplier change",
      stake: "$200.12",
      state: "Closed",
      answered: "No, please investigate · Dana Whitfield, Aug 15, 2026",
      outcome: "Credit received · Morgan Lee, Aug 21, 2026",
      recovered: "$182.50",
    });
    expect(row.href).toBe("/locations/108/spending?accountId=1010&billId=50014#flag-7014");
    expect(ledgerRow(missing).cells).toMatchObject({
      bill: "No statement since Sep 19, 2026 (60 days)",
      kind: "Missing bill",
      stake: "Not priced",
      state: "Awaiting the statement",
    });
    const csv = csvRows([{ row }]);
    expect(csv[0]).toEqual([
      "Found",
      "Location",
      "Account #",
      "Bill",
      "Kind",
      "At stake",
      "State",
      "Answered",
      "Outcome",
      "Recovered",
    ]);
    expect(csv[1]).toEqual(Object.values(row.cells));
  });
});

describe("the findings sort (rule findings-sort)", () => {
  it("sorts newest first by default; a column's link flips it or starts at its first direction", () => {
    expect(parseSort(q(""))).toEqual({ sort: "found", dir: "desc" });
    expect(parseSort(q("sort=stake"))).toEqual({ sort: "stake", dir: "desc" });
    expect(parseSort(q("sort=location&dir=desc"))).toEqual({ sort: "location", dir: "desc" });
    expect(parseSort(q("sort=nope&dir=asc"))).toEqual({ sort: "found", dir: "desc" });
    expect(nextSort({ sort: "found", dir: "desc" }, "found")).toEqual({ sort: "found", dir: "asc" });
    expect(nextSort({ sort: "found", dir: "desc" }, "location")).toEqual({ sort: "location", dir: "asc" });
  });

  it("orders by amount, by location, and breaks ties by date then key", () => {
    const byStake = buildLedger(all, q("sort=stake&dir=desc"), TODAY).rows.map((r) => r.key);
    expect(byStake).toEqual(["flag-7014", "flag-7001", "flag-7002", "missing-1017"]);
    const byLocation = buildLedger(all, q("sort=location&dir=asc"), TODAY).rows.map((r) => r.key);
    expect(byLocation).toEqual(["flag-7014", "missing-1017", "flag-7001", "flag-7002"]);
  });
});
