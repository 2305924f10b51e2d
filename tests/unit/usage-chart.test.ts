import { describe, expect, it } from "vitest";
import {
  billChart,
  billChartCsvRows,
  usageChart,
  usageCsvRows,
  usageTicks,
} from "~/features/usage/chart-data";
import { toCsv } from "../../shared/csv";
import type { UsagePoint } from "~/features/usage/usage";

const hours = (n: number, perHour: number): UsagePoint[] =>
  Array.from({ length: n * perHour }, (_, i) => {
    const h = Math.floor(i / perHour);
    const m = (i % perHour) * (60 / perHour);
    return {
      startTs: `2026-11-05T${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:00-08:00`,
      energy: i === 10 ? null : 5 + (i % 7),
      indoor: 70,
      outdoor: 50,
    };
  });

describe("usage chart data", () => {
  it("day view ticks are the hours 1, 6, 12, 18, 24 at quarter-hour and hour resolution", () => {
    expect(usageTicks(hours(24, 4), "quarter_hour")).toEqual([
      { at: 4, label: "1" },
      { at: 24, label: "6" },
      { at: 48, label: "12" },
      { at: 72, label: "18" },
      { at: 96, label: "24" },
    ]);
    expect(usageTicks(hours(24, 1), "hour").map((t) => t.at)).toEqual([1, 6, 12, 18, 24]);
  });

  it("plots energy on a multiple-of-4 axis, temperatures on multiples of 20, gaps marked", () => {
    const chart = usageChart(hours(24, 1), "consumption", "hour", { energy: "kWh", temperature: "°F" });
    expect(chart.leftMax % 4).toBe(0);
    expect(chart.rightDomain).toEqual([40, 80]);
    expect(chart.gaps).toEqual([[10, 10]]);
    expect(chart.points[10].bar).toBeNull();
    expect(chart.bar.unit).toBe("kWh");
    expect(
      usageChart(hours(24, 1), "consumption", "hour", { energy: "kWh", temperature: "°F" }, "CT").xTitle,
    ).toBe("Hour of day (CT)");
  });

  it("the CSV holds exactly the plotted points", () => {
    const points = hours(24, 4);
    const lines = toCsv(usageCsvRows(points, "demand", { energy: "kW", temperature: "°F" }))
      .trim()
      .split("\r\n");
    expect(lines).toHaveLength(97);
    expect(lines[0]).toBe("Period start,Demand (kW),Outdoor temperature (°F),Indoor temperature (°F)");
    expect(lines[11]).toBe(`${points[10].startTs},,50,70`);
  });

  it("the bill chart has one linked point per bill and its CSV", () => {
    const bills = [
      {
        id: 7,
        statementDate: "2026-10-12",
        serviceStartDate: "2026-09-10",
        serviceEndDate: "2026-10-09",
        consumption: 13948,
        demand: 62.6,
      },
      {
        id: 8,
        statementDate: "2026-11-12",
        serviceStartDate: "2026-10-10",
        serviceEndDate: "2026-11-08",
        consumption: 15461,
        demand: 109.8,
      },
    ];
    const chart = billChart(bills, 104);
    expect(chart.points.map((p) => p.href)).toEqual([
      "/locations/104/usage/demand?period=bill&start=7",
      "/locations/104/usage/demand?period=bill&start=8",
    ]);
    expect(chart.leftMax).toBe(16000);
    expect(chart.rightDomain).toEqual([0, 120]);
    expect(toCsv(billChartCsvRows(bills)).trim().split("\r\n")).toEqual([
      "Statement date,Service start date,Service end date,Consumption (kWh),Demand (kW)",
      "2026-10-12,2026-09-10,2026-10-09,13948,62.6",
      "2026-11-12,2026-10-10,2026-11-08,15461,109.8",
    ]);
  });
});
