import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { call, loginCookie, startTestApi } from "./api-harness";

/**
 * The reference api's hourly series across the changes of clocks: hours are instants labelled in the
 * building's zone. At Pike Place, Seattle (101), Mar 8, 2026 has 23 hours (no 2:00 AM) and Nov 1, 2026 has 25
 * (1:00 AM at -07:00, then at -08:00). Both lie within the demo's 13 months at the test clock (Nov 18, 2026).
 */
type Series = { values: { start_ts: string; value: number | null }[]; units: string };

let api: RunningApi;
let cookie: string;

beforeAll(async () => {
  api = await startTestApi();
  cookie = await loginCookie(api, "dana@harborcoffee.test");
});
afterAll(() => api.close());

async function series(kind: "consumption" | "demand", date: string, period: string) {
  const r = await call(
    api,
    "GET",
    `/insights/101/energy-${kind}?start_date=${date}&end_date=${date}&period=${period}`,
    {
      cookie,
    },
  );
  expect(r.status).toBe(200);
  return (r.json as unknown as Record<string, Series>)[`energy_${kind}`].values;
}

describe("hourly usage across a change of clocks", () => {
  it("the day the clocks go forward has 23 hours: no 2:00 AM", async () => {
    const hours = await series("consumption", "2026-03-08", "hour");
    expect(hours).toHaveLength(23);
    expect(hours.slice(0, 3).map((v) => v.start_ts)).toEqual([
      "2026-03-08T00:00:00-08:00",
      "2026-03-08T01:00:00-08:00",
      "2026-03-08T03:00:00-07:00",
    ]);
    expect(hours.some((v) => v.start_ts.includes("T02:"))).toBe(false);
    expect(await series("demand", "2026-03-08", "quarter_hour")).toHaveLength(92);
  });

  it("the day the clocks go back has 25 hours: 1:00 AM twice, both with data", async () => {
    const hours = await series("consumption", "2026-11-01", "hour");
    expect(hours).toHaveLength(25);
    expect(hours.slice(0, 4).map((v) => v.start_ts)).toEqual([
      "2026-11-01T00:00:00-07:00",
      "2026-11-01T01:00:00-07:00",
      "2026-11-01T01:00:00-08:00",
      "2026-11-01T02:00:00-08:00",
    ]);
    expect(hours[1].value).not.toBeNull();
    expect(hours[2].value).not.toBeNull();
    const quarters = await series("demand", "2026-11-01", "quarter_hour");
    expect(quarters).toHaveLength(100);
    // Instants in order, 15 minutes apart.
    const at = quarters.map((v) => Date.parse(v.start_ts));
    expect(at.every((t, i) => i === 0 || t - at[i - 1] === 900_000)).toBe(true);
  });

  it("the day's total is the sum of its 25 hours; an ordinary day keeps 24", async () => {
    const hours = await series("consumption", "2026-11-01", "hour");
    const [day] = await series("consumption", "2026-11-01", "day");
    const sum = hours.reduce((s, v) => s + (v.value ?? 0), 0);
    expect(Math.abs(sum - day.value!)).toBeLessThan(0.5);
    expect(await series("consumption", "2026-11-02", "hour")).toHaveLength(24);
  });
});
