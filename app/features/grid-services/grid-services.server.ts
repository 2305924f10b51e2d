import { z } from "zod/v4";
import { optOutForm } from "./opt-out-form";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { now } from "~/server/clock.server";
import { localTimeParts } from "~/lib/local-time";
import {
  dispatchStatusLabel,
  dispatchStatusTone,
  eventTypeLabel,
  CSV_MAX_PAGES,
  CSV_PAGE_SIZE,
  GRID_PAGE_SIZE,
  isDispatchRunning,
  canOptOut,
  OPT_OUT_TEXT,
  sortToParam,
  type DispatchRow,
  type EventTimeView,
  type GridState,
  parseGridState,
  periodKeyOf,
  periodWords,
  stateRange,
  type DateRange,
} from "./grid-services";
import { locationFigures, programNote, seasonHeadline, thermostatPart } from "../../../shared/grid-figures";
import { failureStatus, getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { parseForm } from "~/server/forms.server";
import { OPT_OUT_STARTED_MESSAGE } from "../../../shared/grid-opt-out";
import { requireUser } from "~/server/upstream/guards.server";
import { settle } from "~/server/upstream/api-error";

const insightSchema = z.object({
  thermostatId: z.number(),
  deviceName: z.string(),
  precoolSetpoint: z.number().nullish(),
  targetSetpoint: z.number().nullish(),
  preEventObserved: z.number().nullish(),
  participatingMinutes: z.number().nullish(),
  wasOverridden: z.boolean().nullish(),
  overriddenAt: z.string().nullish(),
  overrideSetpoint: z.number().nullish(),
  maxIndoorF: z.number().nullish(),
});

const programSchema = z.object({
  name: z.string(),
  utility: z.string(),
  reservationCentsPerKwMonth: z.number(),
  performanceCentsPerKwh: z.number(),
  estimated: z.boolean(),
});

const performanceSchema = z.object({
  measurement: z.string(),
  baselineKw: z.number().nullable(),
  actualKw: z.number().nullable(),
  kwReduced: z.number().nullable(),
  kwhReduced: z.number().nullable(),
  hours: z.number().nullable(),
  cblMethod: z.string().nullable(),
  cblDays: z.array(z.object({ date: z.string(), averageKw: z.number(), used: z.boolean() })),
  eventsInMonth: z.number(),
  earnings: z
    .object({ reservationCents: z.number(), performanceCents: z.number(), totalCents: z.number() })
    .nullable(),
  program: programSchema.nullable(),
});

const summarySchema = z.object({
  events: z.number(),
  measuredEvents: z.number(),
  earningsCents: z.number(),
  kwhReduced: z.number(),
  program: programSchema.nullable(),
});

const dispatchSchema = z.object({
  id: z.number(),
  buildingId: z.number().nullish(),
  buildingAddress: z.string(),
  buildingTimezone: z.string().nullish(),
  status: z.string().nullish(),
  eventType: z.string().nullish(),
  isInternalTest: z.boolean().nullish(),
  precoolStartTime: z.string().nullish(),
  startTime: z.string().nullish(),
  endTime: z.string().nullish(),
  wereOverriddenThermostats: z.boolean().nullish(),
  thermostatActionsInsights: z.array(insightSchema).nullish(),
  performance: performanceSchema.nullish(),
});
/** A dispatch as the upstream sends it (camelCased). */
export type Dispatch = z.infer<typeof dispatchSchema>;

const pageSchema = z.object({
  items: z.array(dispatchSchema),
  total: z.number(),
  page: z.number(),
  size: z.number(),
});

function timeView(iso: string | null | undefined, timezone: string | null | undefined): EventTimeView | null {
  const parts = localTimeParts(iso, timezone);
  return parts && iso ? { iso, day: parts[0], time: parts[1] } : null;
}

/**
 * The row the page shows for a dispatch (`DispatchRow`): its status decided here, with the web's clock
 * (`nowMs`), so the server's HTML and the hydrated page say the same; its times written in the building's
 * timezone; its thermostats only when the row is expanded (`open`).
 */
export function dispatchRow(d: Dispatch, nowMs: number, open: boolean, figures = open): DispatchRow {
  const running = isDispatchRunning(d, nowMs);
  const tz = d.buildingTimezone;
  const timeOf = (iso: string) => localTimeParts(iso, tz)?.[1] ?? "—";
  return {
    id: d.id,
    address: d.buildingAddress,
    internalTest: Boolean(d.isInternalTest),
    overridden: Boolean(d.wereOverriddenThermostats),
    eventType: d.eventType ? eventTypeLabel(d.eventType) : "—",
    status: dispatchStatusLabel(d.status, running),
    tone: dispatchStatusTone(d.status, running),
    precool: timeView(d.precoolStartTime, tz),
    start: timeView(d.startTime, tz),
    end: timeView(d.endTime, tz),
    ...(open
      ? {
          thermostats: (d.thermostatActionsInsights ?? []).map((t) => ({
            thermostatId: t.thermostatId,
            deviceName: t.deviceName,
            precoolSetpoint: t.precoolSetpoint,
            targetSetpoint: t.targetSetpoint,
            preEventObserved: t.preEventObserved,
            participatingMinutes: t.participatingMinutes,
            wasOverridden: t.wasOverridden,
            ...thermostatPart(d.status, t, timeOf),
          })),
        }
      : {}),
    ...(figures ? { figures: locationFigures(d.status, Boolean(d.isInternalTest), d.performance) } : {}),
    ...(open && canOptOut(d, nowMs) ? { optOut: { buildingId: d.buildingId! } } : {}),
  };
}

/** GET /insights/{clientId}/dispatches for the page's state and date range, as the table's rows. */
export async function listDispatches(
  api: ApiClient,
  clientId: number,
  state: GridState,
  range: { startDate: string; endDate: string },
  pageSize = GRID_PAGE_SIZE,
  allFigures = false,
) {
  return api
    .get(`/insights/${clientId}/dispatches`, {
      query: {
        page: state.page,
        size: pageSize,
        sortBy: state.sort.map(sortToParam),
        locationSearch: state.q,
        startDate: range.startDate,
        endDate: range.endDate,
      },
      schema: pageSchema,
    })
    .then((page) => {
      const at = now().getTime();
      return {
        total: page.total,
        rows: page.items.map((d) =>
          dispatchRow(d, at, state.open.includes(d.id), allFigures || state.open.includes(d.id)),
        ),
      };
    });
}

/**
 * Every event of the page's search and sort for the CSV: the upstream's pages of 100 one after another, up to
 * 5,000 events (a client's year is a few hundred). A failure of any page fails the whole download: a CSV
 * that silently lacks events would be worse than an error.
 */
export async function listAllDispatches(
  api: ApiClient,
  clientId: number,
  state: Omit<GridState, "page" | "open">,
  range: { startDate: string; endDate: string },
) {
  const rows: DispatchRow[] = [];
  for (let page = 1; page <= CSV_MAX_PAGES; page++) {
    const got = await listDispatches(api, clientId, { ...state, page, open: [] }, range, CSV_PAGE_SIZE, true);
    rows.push(...got.rows);
    if (got.rows.length < CSV_PAGE_SIZE || rows.length >= got.total) break;
  }
  return rows;
}

/**
 * GET /insights/{clientId}/dispatches-summary: the period's paid events, their estimated earnings and kWh
 * reduced (rule grid-season-total), for the locations the person may see and the page's search.
 */
export async function dispatchSummary(api: ApiClient, clientId: number, q: string, range: DateRange) {
  return api.get(`/insights/${clientId}/dispatches-summary`, {
    query: { locationSearch: q, startDate: range.startDate, endDate: range.endDate },
    schema: summarySchema,
  });
}

export async function gridServicesLoader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!user.clientId) throw redirect("/");
  const url = new URL(request.url);
  const state = parseGridState(url.searchParams);
  const opted = Number(url.searchParams.get("opted"));
  const range = stateRange(state, now());
  const api = await getApi(request, context);
  const [result, summary] = await Promise.all([
    settle(listDispatches(api, user.clientId, state, range)),
    settle(dispatchSummary(api, user.clientId, state.q, range)),
  ]);
  return withPrimaryStatus(
    {
      state,
      range,
      periodKey: periodKeyOf(state),
      error: !result.ok,
      rows: result.ok ? result.data.rows : [],
      total: result.ok ? result.data.total : 0,
      headline: summary.ok ? seasonHeadline(summary.data, periodWords(state, range)) : null,
      programNote: summary.ok ? programNote(summary.data.program) : null,
      /** The event just opted out of (the action's redirect), for its "done" message. */
      optedId: Number.isInteger(opted) && opted > 0 ? opted : null,
    },
    result,
  );
}

/**
 * The page's "Opt out of this event" button (rule grid-opt-out): POST /building/{buildingId}/dispatches/{id}/opt-out,
 * then back to the same page (its search kept, the event expanded), where the row now reads Opted out. The api's
 * refusal (the event has started: 409; a location the person may not see: 404) is shown with its message.
 */
export async function gridServicesAction({ request, context }: ActionFunctionArgs) {
  await requireUser(request);
  const submission = parseForm(await request.formData(), { schema: optOutForm });
  if (submission.status !== "success")
    return data({ optOut: { dispatchId: null, error: OPT_OUT_TEXT.failed } }, { status: 400 });
  const { dispatchId, buildingId } = submission.value;
  const api = await getApi(request, context);
  const result = await settle(api.post(`/building/${buildingId}/dispatches/${dispatchId}/opt-out`));
  if (!result.ok) {
    const status = failureStatus(result.error);
    const error = status === 409 ? OPT_OUT_STARTED_MESSAGE : OPT_OUT_TEXT.failed;
    return data({ optOut: { dispatchId, error } }, { status });
  }
  // Same path, same search: a redirect that cannot leave the page.
  const url = new URL(request.url);
  const search = new URLSearchParams(url.search);
  search.set("opted", String(dispatchId));
  return redirect(`/grid-services?${search}`);
}
