import { billUsageHref } from "~/features/bills/bills";
import { formatCalendarDate } from "~/lib/dates";
import type { CsvCell } from "../../../shared/csv";
import type { ChartPoint, ChartSeries, EnergyChartProps } from "./components/energy-chart";
import {
  DAY_HOUR_TICKS,
  bucketLabel,
  energyAxisMax,
  energyAxisTicks,
  gapRanges,
  hourOfDay,
  localPart,
  repeatedTimes,
  temperatureAxisDomain,
  unitsLabel,
  usageTitle,
  usageXAxisTitle,
  type Granularity,
  type UsagePoint,
  type UsageType,
} from "./usage";
import { MONTH_SHORT } from "~/lib/dates";

/** What a chart plots, built once and used by the page (SVG and data table) and by its CSV download. */

export const COLORS = { consumption: "#2563eb", demand: "#0f766e", outdoor: "#c2410c", indoor: "#6d28d9" };

type BillPoint = {
  id: number;
  statementDate: string;
  serviceStartDate: string;
  serviceEndDate: string;
  consumption: number | null;
  demand: number | null;
};

const shortMonth = (iso: string) => `${MONTH_SHORT[Number(iso.slice(5, 7)) - 1]} ’${iso.slice(2, 4)}`;

/** The spending page's Energy Usage chart: one point per bill (13 monthly points), consumption bars and a demand line. */
export function billChart(bills: BillPoint[], locationId: number | string): EnergyChartProps {
  const bar: ChartSeries = { name: "Consumption", unit: "kWh", color: COLORS.consumption };
  const lines: ChartSeries[] = [{ name: "Demand", unit: "kW", color: COLORS.demand }];
  const points: ChartPoint[] = bills.map((b) => ({
    key: String(b.id),
    label: `Bill of ${formatCalendarDate(b.statementDate)} (${formatCalendarDate(b.serviceStartDate)} – ${formatCalendarDate(b.serviceEndDate)})`,
    bar: b.consumption,
    lines: [b.demand],
    href: billUsageHref(locationId, b.id),
    hrefLabel: "View usage for this bill",
  }));
  const maxKwh = Math.max(0, ...bills.map((b) => b.consumption ?? 0));
  const maxKw = Math.max(0, ...bills.map((b) => b.demand ?? 0));
  return {
    label: "Energy Usage: consumption in kWh and demand in kW per bill over the last 13 months",
    points,
    bar,
    lines,
    leftMax: energyAxisMax(maxKwh),
    leftLabel: "Consumption (kWh)",
    rightDomain: [0, energyAxisMax(maxKw)],
    rightLabel: "Demand (kW)",
    rightTicks: energyAxisTicks(energyAxisMax(maxKw)),
    xTicks: bills.map((b, i) => ({ at: i + 0.5, label: shortMonth(b.statementDate) })),
  };
}

/** The bill chart's CSV rows (written by `toCsv` in the CSV route). */
export function billChartCsvRows(bills: BillPoint[]): CsvCell[][] {
  return [
    ["Statement date", "Service start date", "Service end date", "Consumption (kWh)", "Demand (kW)"],
    ...bills.map((b) => [b.statementDate, b.serviceStartDate, b.serviceEndDate, b.consumption, b.demand]),
  ];
}

/** x ticks by granularity: the day view's hour ticks 1, 6, 12, 18, 24; dates for days; months for a year. */
export function usageTicks(points: UsagePoint[], granularity: Granularity): { at: number; label: string }[] {
  if (points.length === 0) return [];
  if (granularity === "quarter_hour" || granularity === "hour") {
    const perHour = granularity === "quarter_hour" ? 4 : 1;
    return DAY_HOUR_TICKS.map((h) => {
      const idx = points.findIndex((p) => hourOfDay(p.startTs) === h);
      return { at: h === 24 ? points.length : idx >= 0 ? idx : h * perHour, label: String(h) };
    }).filter((t) => t.at <= points.length);
  }
  if (granularity === "month")
    return points.map((p, i) => ({
      at: i + 0.5,
      label: MONTH_SHORT[Number(localPart(p.startTs).slice(5, 7)) - 1],
    }));
  const every = Math.max(1, Math.ceil(points.length / 8));
  return points
    .map((p, i) => ({ i, p }))
    .filter(({ i }) => i % every === 0)
    .map(({ i, p }) => ({
      at: i + 0.5,
      label: `${MONTH_SHORT[Number(localPart(p.startTs).slice(5, 7)) - 1]} ${Number(localPart(p.startTs).slice(8, 10))}`,
    }));
}

/** The usage page chart: energy bars (left axis, multiples of 4) and outdoor and indoor temperature lines (right axis, multiples of 20 °F). */
export function usageChart(
  points: UsagePoint[],
  usageType: UsageType,
  granularity: Granularity,
  units: { energy: string; temperature: string },
  /** The building's zone label ("ET"), for a day's hour axis. */
  zone: string | null = null,
): EnergyChartProps {
  const xTitle = usageXAxisTitle(granularity, zone);
  const bar: ChartSeries = {
    name: usageTitle(usageType),
    unit: units.energy || unitsLabel(usageType),
    color: COLORS[usageType],
  };
  const lines: ChartSeries[] = [
    { name: "Outdoor temperature", unit: units.temperature || "°F", color: COLORS.outdoor },
    { name: "Indoor temperature", unit: units.temperature || "°F", color: COLORS.indoor, dashed: true },
  ];
  const twice = repeatedTimes(points);
  return {
    label: `${usageTitle(usageType)} in ${bar.unit} with outdoor and indoor temperatures; x axis: ${xTitle}`,
    points: points.map((p) => ({
      key: p.startTs,
      label: bucketLabel(p.startTs, granularity, twice.has(localPart(p.startTs))),
      bar: p.energy,
      lines: [p.outdoor, p.indoor],
    })),
    bar,
    lines,
    leftMax: energyAxisMax(Math.max(0, ...points.map((p) => p.energy ?? 0))),
    leftLabel: `${usageTitle(usageType)} (${bar.unit})`,
    rightDomain: temperatureAxisDomain(points.flatMap((p) => [p.indoor, p.outdoor])),
    rightLabel: `Temperature (${lines[0].unit})`,
    xTicks: usageTicks(points, granularity),
    xTitle,
    gaps: gapRanges(points),
  };
}

/** The usage chart's CSV rows (written by `toCsv` in the CSV route). */
export function usageCsvRows(
  points: UsagePoint[],
  usageType: UsageType,
  units: { energy: string; temperature: string },
): CsvCell[][] {
  return [
    [
      "Period start",
      `${usageTitle(usageType)} (${units.energy})`,
      `Outdoor temperature (${units.temperature})`,
      `Indoor temperature (${units.temperature})`,
    ],
    ...points.map((p) => [p.startTs, p.energy, p.outdoor, p.indoor]),
  ];
}
