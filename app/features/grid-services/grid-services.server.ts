import { z } from "zod";
import type { ApiClient } from "~/server/api-client.server";
import { now } from "~/server/clock.server";
import { GRID_PAGE_SIZE, isDispatchRunning, sortToParam, type GridState } from "./grid-services";

const insightSchema = z.object({
  thermostatId: z.number(),
  deviceName: z.string(),
  precoolSetpoint: z.number().nullish(),
  targetSetpoint: z.number().nullish(),
  preEventObserved: z.number().nullish(),
  participatingMinutes: z.number().nullish(),
  wasOverridden: z.boolean().nullish(),
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
});
/**
 * A dispatch as the page gets it: `running` is decided here, with the web's clock, and travels in the
 * loader's data, so the server's HTML and the hydrated page show the same status.
 */
export type DispatchInsight = z.infer<typeof dispatchSchema> & { running: boolean };

const pageSchema = z.object({
  items: z.array(dispatchSchema),
  total: z.number(),
  page: z.number(),
  size: z.number(),
});

/** GET /insights/{clientId}/dispatches for the page's state and date range, each marked running or not. */
export async function listDispatches(
  api: ApiClient,
  clientId: number,
  state: GridState,
  range: { startDate: string; endDate: string },
) {
  return api
    .get(`/insights/${clientId}/dispatches`, {
      query: {
        page: state.page,
        size: GRID_PAGE_SIZE,
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
        ...page,
        items: page.items.map((d): DispatchInsight => ({ ...d, running: isDispatchRunning(d, at) })),
      };
    });
}
