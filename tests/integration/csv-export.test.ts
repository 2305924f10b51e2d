import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { call, loginCookie, startTestApi } from "./api-harness";

/**
 * The bill-statements export (the locations page's CSV, served through the web's /api passthrough)
 * wrote text cells as they were, so a location or supplier name starting with `=`, `+`, `-` or `@` became a
 * spreadsheet formula. It now uses the product's one CSV writer (shared/csv.ts).
 */
let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

describe("bill-statements CSV export", () => {
  it("neutralises formulas in text cells, quotes line breaks, keeps amounts as numbers", async () => {
    const db = api.db;
    db.prepare("UPDATE buildings SET name = ?, address_line1 = ? WHERE id = 101").run(
      '=HYPERLINK("http://evil.example","Harbor")',
      "@SUM(1+1)\rStreet",
    );
    db.prepare("UPDATE bill_statements SET supplier = ? WHERE building_id = 101").run("+cmd|' /C calc'!A0");
    const cookie = await loginCookie(api, "dana@harborcoffee.test");
    const res = await call(api, "GET", "/client/1/bill-statements/export-csv", { cookie });
    expect(res.status).toBe(200);
    const body = res.json as unknown as string; // the harness answers the text when it is not JSON
    expect(typeof body).toBe("string");
    const first = body.split("\r\n").find((l: string) => l.includes("HYPERLINK"))!;
    expect(first).toBeDefined();
    expect(first.startsWith(`"'=HYPERLINK(""http://evil.example"",""Harbor"")"`)).toBe(true);
    expect(first).toContain(`"'@SUM(1+1)\rStreet`);
    expect(first).toContain(",'+cmd|' /C calc'!A0");
    // The amounts are still plain numbers.
    expect(first).toMatch(/,\d+\.\d{2},\d+\.\d{2},/);
    expect(body.endsWith("\r\n")).toBe(true);
  });
});
