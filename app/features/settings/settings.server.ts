import { z } from "zod";
import type { ApiClient } from "~/server/api-client.server";
import { settle } from "~/server/api-error";
import type { EditablePreference } from "./settings";

const prefSchema = z.object({
  userId: z.number(),
  deliveryMethodPreference: z.enum(["email", "sms"]),
  communicationPreferenceType: z.string(),
  enabled: z.boolean(),
});

const memberSchema = z.object({
  id: z.number(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  isClientAdmin: z.boolean().optional(),
  userBuildingsWithName: z.array(
    z.object({
      userId: z.number(),
      buildingId: z.number(),
      hasAccess: z.boolean(),
      buildingName: z.string(),
    }),
  ),
});

export async function getPreferences(api: ApiClient) {
  const { items } = await api.get("/communication-preferences", {
    schema: z.object({ items: z.array(prefSchema) }),
  });
  return items;
}

export function setPreference(api: ApiClient, userId: number, type: EditablePreference, enabled: boolean) {
  return api.put("/communication-preferences", {
    body: { userId, deliveryMethodPreference: "email", enabled, communicationPreferenceType: type },
  });
}

export async function getTeam(api: ApiClient, clientId: number) {
  const { items } = await api.get(`/users/${clientId}`, {
    schema: z.object({ items: z.array(memberSchema) }),
  });
  return items;
}

/**
 * Saves a member's location access: one PUT /user_building_access per changed location, all started together.
 * Returns the building ids whose call failed (the others are saved).
 */
export async function saveTeamAccess(
  api: ApiClient,
  userId: number,
  changes: { buildingId: number; hasAccess: boolean }[],
) {
  const results = await Promise.all(
    changes.map((c) =>
      settle(
        api.put("/user_building_access", {
          body: { userId, buildingId: c.buildingId, hasAccess: c.hasAccess },
        }),
      ),
    ),
  );
  return {
    saved: changes.filter((_, i) => results[i].ok).map((c) => c.buildingId),
    failed: changes.filter((_, i) => !results[i].ok).map((c) => c.buildingId),
  };
}
