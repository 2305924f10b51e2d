import { z } from "zod/v4";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { redirect, data, type LoaderFunctionArgs } from "@remix-run/node";
import { settle } from "~/server/upstream/api-error";
import { primaryStatus, getApi } from "~/server/upstream/upstream.server";
import { billWindow, formatMoney } from "~/features/bills/bills";
import { isNotFound, listBills, type BillStatement } from "~/features/bills/bills.server";
import {
  granularityFor,
  joinSeries,
  resolveView,
  todayParts,
  usageHref,
  type Granularity,
  type UsagePoint,
  type UsageType,
  type View,
  isUsageType,
  pickerBills,
  usageSummary,
} from "./usage";
import { requireSmb } from "~/server/upstream/guards.server";
import { pageNotFound } from "~/features/shell/shell.server";
import {
  locationTodayOf,
  locationUnavailable,
  requireLocationId,
} from "~/features/locations/locations.server";
import { isPickerTab } from "./components/date-pickers";
import { clampStart, isSteppedPeriod } from "./period-range";

const seriesSchema = z.object({
  values: z.array(z.object({ startTs: z.string(), value: z.number().nullable() })),
  units: z.string(),
});

const insightSchema = z.object({
  energyConsumption: seriesSchema.optional(),
  energyDemand: seriesSchema.optional(),
  outdoorTemperatures: seriesSchema,
  indoorTemperatures: seriesSchema,
});
export type UsageInsight = z.infer<typeof insightSchema>;

/** GET /insights/{buildingId}/energy-{usageType} with startDate, endDate and the server granularity (no retry). */
export async function getUsage(
  api: ApiClient,
  q: {
    buildingId: number;
    usageType: UsageType;
    startDate: string;
    endDate: string;
    granularity: Granularity;
  },
) {
  const res = await api.get(`/insights/${q.buildingId}/energy-${q.usageType}`, {
    query: { startDate: q.startDate, endDate: q.endDate, period: q.granularity },
    schema: insightSchema,
  });
  const energy = (q.usageType === "demand" ? res.energyDemand : res.energyConsumption) ?? {
    values: [],
    units: q.usageType === "demand" ? "kW" : "kWh",
  };
  return { energy, indoor: res.indoorTemperatures, outdoor: res.outdoorTemperatures };
}

export type UsageLoad = {
  view: Extract<View, { kind: "ok" }>;
  granularity: ReturnType<typeof granularityFor>;
  usage: { ok: true; points: UsagePoint[]; units: { energy: string; temperature: string } } | { ok: false };
  bills: { ok: true; items: BillStatement[] } | { ok: false } | null;
  /** The page's HTTP status: the usage series is its primary data (ADR 0009). */
  status: number;
};

/**
 * The usage page's data: the view from period and start (a period=bill needs the bills first; otherwise the bills,
 * when the bill picker needs them, and the usage load together). A bill that no longer exists falls back to
 * period month at the current date; an api 404 for the building goes to the locations list, saying why.
 */
export async function loadUsage(
  api: ApiClient,
  q: {
    /** The page's request: a location this user cannot see goes back to the list with its toast. */
    request: Request;
    locationId: number;
    usageType: UsageType;
    search: URLSearchParams;
    needBills: boolean;
    /** The location's today (`locationTodayOf`): its time zone's date (rule location-today). */
    today: Date;
  },
): Promise<UsageLoad> {
  const today = q.today;
  const t = todayParts(today);
  const { minDate, maxDate } = billWindow(today);
  const periodParam = q.search.get("period");
  const billsPromise =
    q.needBills || periodParam === "bill"
      ? settle(listBills(api, { buildingId: q.locationId, minDate, maxDate }))
      : null;
  let view: View;
  if (periodParam === "bill") {
    const bills = await billsPromise!;
    if (isNotFound(bills)) throw await locationUnavailable(q.request);
    view = resolveView("bill", q.search.get("start"), t, bills.ok ? bills.data : []);
  } else {
    view = resolveView(periodParam, q.search.get("start"), t, null);
  }
  if (view.kind === "redirect") {
    const keep =
      periodParam === "bill"
        ? {}
        : { picker: q.search.get("picker"), tab: q.search.get("tab"), cal: q.search.get("cal") };
    throw redirect(usageHref(q.locationId, q.usageType, { period: view.period, start: view.start, ...keep }));
  }
  const granularity = granularityFor(view.period, q.usageType);
  const [usage, bills] = await Promise.all([
    settle(
      getUsage(api, {
        buildingId: q.locationId,
        usageType: q.usageType,
        startDate: view.startDate,
        endDate: view.endDate,
        granularity,
      }),
    ),
    billsPromise,
  ]);
  if (isNotFound(usage) || (bills && isNotFound(bills))) throw await locationUnavailable(q.request);
  return {
    view,
    granularity,
    usage: usage.ok
      ? {
          ok: true,
          points: joinSeries(usage.data.energy.values, usage.data.indoor.values, usage.data.outdoor.values),
          units: { energy: usage.data.energy.units, temperature: usage.data.outdoor.units },
        }
      : { ok: false },
    bills: bills ? (bills.ok ? { ok: true, items: bills.data } : { ok: false }) : null,
    status: primaryStatus(usage),
  };
}

export async function usagePageLoader({ request, params, context }: LoaderFunctionArgs) {
  await requireSmb(request);
  const locationId = await requireLocationId(request, params.locationId);
  const url = new URL(request.url);
  // Not demand or consumption: an unknown path, which goes to the index (spec part 1 §2).
  if (!isUsageType(params.usageType)) throw await pageNotFound(request);
  const usageType: UsageType = params.usageType;
  const picker = url.searchParams.get("picker");
  const api = await getApi(request, context);
  // No future dates, months or years at this location: "today" is its time zone's date (rule location-today).
  const todayDate = await locationTodayOf(api, locationId);
  const today = todayParts(todayDate);
  // A hand-typed start outside the allowed range shows the nearest allowed period (rule usage-period-range).
  const period = url.searchParams.get("period");
  const clamped = isSteppedPeriod(period) && clampStart(period, url.searchParams.get("start"), today);
  if (clamped) {
    url.searchParams.set("start", clamped);
    throw redirect(`${url.pathname}${url.search}`);
  }
  const result = await loadUsage(api, {
    request,
    locationId,
    usageType,
    search: url.searchParams,
    needBills: picker === "bill",
    today: todayDate,
  });
  const tabParam = url.searchParams.get("tab");
  return data(
    {
      locationId,
      usageType,
      today,
      view: result.view,
      granularity: result.granularity,
      usage: result.usage,
      summary: result.usage.ok
        ? usageSummary(
            result.usage.points,
            usageType,
            result.view.bill ? formatMoney(result.view.bill.totalCharges) : null,
          )
        : null,
      picker: picker === "date" || picker === "bill" ? picker : null,
      tab: isPickerTab(tabParam)
        ? tabParam
        : result.view.period === "bill"
          ? "month"
          : result.view.period === "week"
            ? "day"
            : result.view.period,
      cal: url.searchParams.get("cal"),
      bills: result.bills?.ok ? pickerBills(result.bills.items, billWindow(todayDate).minDate) : [],
      billsFailed: result.bills ? !result.bills.ok : false,
    },
    { status: result.status },
  );
}
