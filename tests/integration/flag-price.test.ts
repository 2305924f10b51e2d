import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { FLAG_SEEDS } from "../../api/db/seed/bills";
import { flagPrice } from "../../shared/flag-price";
import { call, loginCookie, startTestApi } from "./api-harness";
import { parseCsv } from "../support/csv-parse";

/**
 * Rule flag-price with the seeded bills: the bill list names each bill's previous bill of the same account, and
 * the bills CSV prices every finding from those same figures (docs/demo-data.md, priced findings).
 */
let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

type Bill = {
  id: number;
  account_id: number;
  statement_date: string;
  consumption: number;
  rate: number;
  previous_bill: { id: number; rate: number } | null;
  flags: { type: string }[];
};

describe("priced findings (rule flag-price)", () => {
  it("each bill's previous bill is the account's bill before it; the first has none", async () => {
    const cookie = await loginCookie(api, "dana@harborcoffee.test");
    const res = await call(api, "GET", "/building/101/bill-statements", { cookie });
    const bills = (res.json.items as Bill[]).filter((b) => b.account_id === 1001);
    expect(bills).toHaveLength(13);
    // Newest first: each one's previous is the next in the list, with its rate; the oldest has none.
    for (let i = 0; i < bills.length - 1; i++)
      expect(bills[i].previous_bill).toEqual({ id: bills[i + 1].id, rate: bills[i + 1].rate });
    expect(bills.at(-1)!.previous_bill).toBeNull();
  });

  it("the bills CSV prices each seeded finding from the bills' own figures", async () => {
    const cookie = await loginCookie(api, "dana@harborcoffee.test");
    const body = (await call(api, "GET", "/client/1/bill-statements/export-csv", { cookie }))
      .json as unknown as string;
    const lines = body.trim().split("\r\n");
    expect(lines[0].endsWith(",Supplier,Bill Issues,At Stake ($),At Stake")).toBe(true);
    const priced = lines.filter((l) =>
      /,\d+\.\d{2},"\$0\.\d{4} → \$0\.\d{4} per kWh × [\d,]+ kWh = \$[\d,.]+"$/.test(l),
    );
    // The latest bill of 101's first account carries both a supplier change and a rate class change.
    const db = api.db;
    const bill = db
      .prepare(
        "SELECT id, rate_cents, consumption_kwh, statement_date FROM bill_statements WHERE account_id = 1001 ORDER BY statement_date DESC LIMIT 2",
      )
      .all() as { rate_cents: number; consumption_kwh: number; statement_date: string }[];
    const price = flagPrice(
      { rateCents: bill[0].rate_cents, kwh: bill[0].consumption_kwh },
      { rateCents: bill[1].rate_cents },
    );
    expect(price.kind).toBe("priced");
    const row = lines.find((l) => l.includes(`,${bill[0].statement_date},`) && l.includes("Please verify"))!;
    expect(row).toContain(
      `,Please verify energy supplier change; Your utility delivery rate increased,${(price.cents! / 100).toFixed(2)},"${price.text}"`,
    );
    expect(priced.length).toBeGreaterThan(0);
    // Every bill with a shown finding has an amount or the rule's words why not; no other bill has any.
    const shown = FLAG_SEEDS.filter(
      ([, , type]) => type === "supplier_change" || type === "rate_class_change",
    );
    const withFindings = lines.slice(1).filter((l) => !l.endsWith(",,,"));
    expect(withFindings.length).toBeGreaterThan(0);
    expect(withFindings.length).toBeLessThanOrEqual(shown.length);
    for (const l of withFindings)
      expect(l).toMatch(/,(\d+\.\d{2},"\$0\.\d{4} → .* = \$[\d,.]+"|,"(nothing|not priced), .*")$/);
  });

  it("the bills CSV carries each bill's rate: every At Stake recomputes from its rows", async () => {
    const cookie = await loginCookie(api, "dana@harborcoffee.test");
    const csv = (await call(api, "GET", "/client/1/bill-statements/export-csv", { cookie }))
      .json as unknown as string;
    const [header, ...rows] = parseCsv(csv.trim());
    const col = (name: string) => header.indexOf(name);
    const [acct, date, kwh, rate, stake] = [
      "Account #",
      "Statement Date",
      "Consumption (kWh)",
      "Energy Charge Rate ($/kWh) used for At Stake",
      "At Stake ($)",
    ].map(col);
    expect(rate).toBeGreaterThan(-1);
    let checked = 0;
    for (const r of rows) {
      if (!r[stake]) continue;
      // The previous bill of the same account: its latest row before this one's date.
      const previous = rows
        .filter((p) => p[acct] === r[acct] && p[date] < r[date])
        .sort((a, b) => (a[date] < b[date] ? 1 : -1))[0];
      const tenThousandths = (v: string) => Math.round(Number(v) * 10000);
      const cents = Math.round(
        ((tenThousandths(r[rate]) - tenThousandths(previous[rate])) * Number(r[kwh])) / 100 + 1e-9,
      );
      expect((cents / 100).toFixed(2), `${r[acct]} ${r[date]}`).toBe(r[stake]);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });

  it("names each location once, as the pages do: the bills CSV and the findings say the same name", async () => {
    const cookie = await loginCookie(api, "dana@harborcoffee.test");
    const csv = (await call(api, "GET", "/client/1/bill-statements/export-csv", { cookie }))
      .json as unknown as string;
    const [header, ...rows] = parseCsv(csv.trim());
    const inCsv = new Set(rows.map((r) => r[header.indexOf("Location")]));
    const findings = (await call(api, "GET", "/client/1/findings", { cookie })).json.items as {
      building: { id: number; name: string };
    }[];
    const inFindings = new Map(findings.map((f) => [f.building.id, f.building.name]));
    // 101 has a nickname ("Flagship"): its name is the one the location's pages head it with.
    expect(inFindings.get(101)).toBe("Harbor Coffee Pike Place");
    expect(inCsv.has("Harbor Coffee Pike Place")).toBe(true);
    expect(inCsv.has("Flagship")).toBe(false);
    for (const name of inFindings.values()) expect(inCsv.has(name), name).toBe(true);
  });
});
