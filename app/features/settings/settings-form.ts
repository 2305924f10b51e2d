import { z } from "zod";
import { submissionIdField } from "~/lib/submission-id";
import { ACCESS_INTENTS, PREFERENCE_TOGGLES, type AccessIntent, type EditablePreference } from "./settings";

// The action's schema, apart from the rules the components import: the settings page validates on the server
// only, so its JavaScript carries no zod (tests/ops/js-budget.test.ts).

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * Every form of Manage Account, told apart by `intent` (the submit button): a preference switch, and the
 * access editor's three buttons (the member, the locations ticked, the submission id of ADR 0010).
 */
export const settingsActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("preference"),
    type: z.enum(PREFERENCE_TOGGLES.map((t) => t.type) as [EditablePreference, ...EditablePreference[]]),
    enabled: z.enum(["true", "false"]).transform((v) => v === "true"),
  }),
  z.object({
    intent: z.enum(ACCESS_INTENTS),
    userId: id,
    building: z.array(id).default([]),
    submissionId: submissionIdField,
  }),
]);
export type SettingsAction = z.infer<typeof settingsActionSchema>;
export type AccessAction = Extract<SettingsAction, { intent: AccessIntent }>;
