import { z } from "zod";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { formId } from "~/server/forms.server";
import { ONBOARDING_STEP_NAMES } from "./onboarding";

const stepSchema = z.object({
  id: z.number(),
  name: z.enum(ONBOARDING_STEP_NAMES),
  status: z.enum(["not_started", "in_progress", "complete"]),
});
const stepsSchema = z.object({ steps: z.array(stepSchema) });

/** GET /onboarding-steps/{clientId}: `{steps: [{id, name, status}]}` (the shell reads this too). */
export async function getOnboardingSteps(api: ApiClient, clientId: number) {
  const { steps } = await api.get(`/onboarding-steps/${clientId}`, { schema: stepsSchema });
  return steps;
}

export function setOnboardingStepStatus(
  api: ApiClient,
  clientId: number,
  stepId: number,
  status: z.infer<typeof stepSchema>["status"],
) {
  return api.patch(`/onboarding-steps/${clientId}/${stepId}`, { body: { status }, schema: stepSchema });
}

/** PUT /update_arcadia_vitally_task with the task step code. */
export async function sendOnboardingTaskStep(api: ApiClient, clientId: number, code: number) {
  await api.put("/update_arcadia_vitally_task", { body: { clientId, onboardingStep: code } });
}

/** The onboarding page's one action schema: a step's start button (the step to start). */
export const onboardingActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("start"), stepId: formId }),
]);
