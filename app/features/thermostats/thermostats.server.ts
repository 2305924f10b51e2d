import { z } from "zod/v4";
import type { ApiClient } from "~/server/upstream/api-client.server";
import type { Settings, ThermostatInfo } from "./thermostats";

/** Upstream calls of the thermostat control room (docs/api-contract.md, Thermostats), each answer checked with Zod. */

const issueSchema = z.object({
  id: z.number(),
  issueSlug: z.string(),
  issueCategory: z.string(),
  currentStatus: z.enum(["active", "processing", "failed", "resolved", "dismissed"]),
  isDismissed: z.boolean(),
  buildingId: z.number(),
});

export const actionSchema = z.object({
  id: z.number(),
  thermostatId: z.number(),
  status: z.enum(["pending", "success", "fail"]),
  deviceSpecificData: z.object({
    mode: z.string().nullish(),
    coolSetpointF: z.number().nullish(),
    heatSetpointF: z.number().nullish(),
  }),
  dispatchId: z.number().nullable(),
  thermostatName: z.string(),
  reason: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  createdAt: z.string(),
  finishedAt: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
});

const infoSchema = z.object({
  thermostat: z.object({
    id: z.number(),
    buildingId: z.number(),
    deviceName: z.string(),
    vendor: z.string(),
    status: z.number(),
    issueAutoresolve: z.boolean(),
    vendorData: z
      .record(z.string(), z.unknown())
      .nullish()
      .transform((v) => v ?? {}),
  }),
  state: z.object({
    tempIndoorF: z.number().nullable(),
    mode: z.string().nullable(),
    coolSetpointF: z.number().nullable(),
    heatSetpointF: z.number().nullable(),
    allowedModes: z.array(z.string()),
    lastSeen: z.string().nullable(),
    minSetpointF: z.number().default(50),
    maxSetpointF: z.number().default(90),
    minAutoSpacingF: z.number().default(3),
    hasSchedule: z.boolean().default(true),
  }),
  thermostatAction: actionSchema.nullable(),
  isReachable: z.boolean(),
  dispatch: z
    .object({
      id: z.number(),
      startTime: z.string(),
      endTime: z.string(),
      precoolStartTime: z.string().nullable(),
    })
    .nullable(),
  issues: z.array(issueSchema),
}) satisfies z.ZodType<ThermostatInfo, unknown>;

const listSchema = z.object({ items: z.array(infoSchema) });

export async function listThermostats(api: ApiClient, buildingId: number): Promise<ThermostatInfo[]> {
  const { items } = await api.get(`/building/${buildingId}/thermostats`, { schema: listSchema });
  return items;
}

export function getThermostatAction(api: ApiClient, thermostatId: number, actionId: number) {
  return api.get(`/thermostats/${thermostatId}/thermostat-actions/${actionId}`, { schema: actionSchema });
}

/** Sends only what changed (the caller decides with `changedSettings`). */
export function updateThermostatSettings(api: ApiClient, thermostatId: number, changed: Partial<Settings>) {
  return api.post(`/thermostats/${thermostatId}/settings`, { body: changed, schema: actionSchema });
}

/** Resolve and dismiss answer the issue, or an empty 204 (null): both are a success (api contract). */
const issueAnswerSchema = issueSchema.nullable();

export function resolveIssue(api: ApiClient, thermostatId: number, issueId: number) {
  return api.post(`/thermostats/${thermostatId}/audit-issues/${issueId}/resolve`, {
    schema: issueAnswerSchema,
  });
}

export function dismissIssue(api: ApiClient, thermostatId: number, issueId: number) {
  return api.patch(`/thermostats/${thermostatId}/audit-issues/${issueId}/dismiss`, {
    body: { isDismissed: true },
    schema: issueAnswerSchema,
  });
}

/** The email link's dismissal: idempotent upstream, answers 204. */
export async function dismissIssueBySlug(api: ApiClient, thermostatId: number, issueSlug: string) {
  await api.patch(`/thermostats/dismiss-audit-issue/${thermostatId}/${encodeURIComponent(issueSlug)}`);
}
