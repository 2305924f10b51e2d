import { z } from "zod/v4";
import type { ApiClient } from "~/server/upstream/api-client.server";

const reportSchema = z.object({
  client: z.array(
    z.object({
      scheduleCompliancePercentage: z.number().nullish(),
      autoResetCount: z.number().nullish(),
      reachableDuration: z.number().nullish(),
    }),
  ),
  buildings: z.array(
    z.object({
      buildingId: z.number(),
      addressLine1: z.string(),
      reachableDuration: z
        .number()
        .nullish()
        .transform((v) => v ?? 0),
      scheduleCompliancePercentage: z.number().nullable().default(null),
    }),
  ),
  thermostats: z.array(
    z.object({
      thermostatId: z.number(),
      buildingId: z.number(),
      addressLine1: z.string(),
      deviceName: z.string(),
      scheduleCompliancePercentage: z.number().nullable().default(null),
      permanentHoldCount: z
        .number()
        .nullish()
        .transform((v) => v ?? 0),
      autoResetCount: z
        .number()
        .nullish()
        .transform((v) => v ?? 0),
      reachableDuration: z
        .number()
        .nullish()
        .transform((v) => v ?? 0),
    }),
  ),
});
export type OverrideReport = z.infer<typeof reportSchema>;

const historySchema = z.object({
  items: z.array(
    z.object({
      recordedAt: z.string(),
      scheduleSetpointF: z.number().nullable(),
      coolSetpointF: z.number().nullable(),
      heatSetpointF: z.number().nullable(),
      indoorTemperatureF: z.number().nullable(),
      mode: z.string().nullish(),
    }),
  ),
  buildingTimezone: z.string(),
});
export type ThermostatHistory = z.infer<typeof historySchema>;

const worstDaysSchema = z.object({
  items: z.array(
    z.object({
      date: z.string(),
      scheduleCompliancePercentage: z.number().nullable(),
      permanentHoldCount: z.number().nullable().default(0),
    }),
  ),
});

export const getOverrideReport = (api: ApiClient, clientId: number, start: string, end: string) =>
  api.get(`/override-report/${clientId}/${start}/${end}`, { schema: reportSchema });

export const getThermostatHistory = (api: ApiClient, thermostatId: number, start: string, end: string) =>
  api.get(`/thermostat/${thermostatId}/history/${start}/${end}`, { schema: historySchema });

export const getWorstDays = (
  api: ApiClient,
  clientId: number,
  thermostatId: number,
  start: string,
  end: string,
) =>
  api
    .get(`/override-report/worst-performing-days/${clientId}/${thermostatId}/${start}/${end}`, {
      schema: worstDaysSchema,
    })
    .then((r) => r.items);
