import { z } from "zod";
import { z as z4 } from "zod/v4";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { formId, invalidSubmission, parseForm } from "~/server/forms.server";
import { ONBOARDING_STEP_NAMES, STEP_TARGETS, statusAfterStart } from "./onboarding";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { redirectWithToast } from "~/server/upstream/session.server";
import { requireClientUser } from "~/server/upstream/guards.server";
import { ApiError, isApiError, settle } from "~/server/upstream/api-error";

// The PATCH answer's schema: zod 4 (faster to check, server-only); the action's schema is zod 3 (Conform).
const STEP_STATUSES = ["not_started", "in_progress", "complete"] as const;
const stepSchema = z4.object({
  id: z4.number(),
  name: z4.enum(ONBOARDING_STEP_NAMES),
  status: z4.enum(STEP_STATUSES),
});
type OnboardingStep = z4.infer<typeof stepSchema>;

const isStep = (s: unknown): s is OnboardingStep => {
  const step = s as Partial<Record<keyof OnboardingStep, unknown>> | null;
  return (
    typeof step === "object" &&
    step !== null &&
    typeof step.id === "number" &&
    (ONBOARDING_STEP_NAMES as readonly unknown[]).includes(step.name) &&
    (STEP_STATUSES as readonly unknown[]).includes(step.status)
  );
};

/**
 * GET /onboarding-steps/{clientId}: `{steps: [{id, name, status}]}`. The shell reads and checks the same answer
 * on every page (locations.server.ts): the request fetches and converts it once, and these pages check its
 * few rows by hand instead of a second schema's parse; anything else is not the contract.
 */
export async function getOnboardingSteps(api: ApiClient, clientId: number): Promise<OnboardingStep[]> {
  const answer = await api.get(`/onboarding-steps/${clientId}`);
  const steps = (answer as { steps?: unknown } | null)?.steps;
  if (!Array.isArray(steps) || !steps.every(isStep))
    throw new ApiError("The server answered in an unexpected format", "contract", 502);
  return steps;
}

export function setOnboardingStepStatus(
  api: ApiClient,
  clientId: number,
  stepId: number,
  status: OnboardingStep["status"],
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

export async function onboardingLoader({ request, context }: LoaderFunctionArgs) {
  const user = await requireClientUser(request);
  const steps = await settle(getOnboardingSteps(await getApi(request, context), user.clientId));
  return withPrimaryStatus(
    {
      firstName: user.firstName,
      clientName: user.client.name,
      error: !steps.ok,
      steps: steps.ok ? steps.data : [],
    },
    steps,
  );
}

export async function onboardingAction({ request, context }: ActionFunctionArgs) {
  const user = await requireClientUser(request);
  // One schema: an unknown intent or a malformed step id fails here (a 400 and the reply).
  const submission = parseForm(await request.formData(), { schema: onboardingActionSchema });
  if (submission.status !== "success") return invalidSubmission(submission);
  const { stepId } = submission.value;
  const api = await getApi(request, context);
  try {
    const steps = await getOnboardingSteps(api, user.clientId);
    const step = steps.find((s) => s.id === stepId);
    if (!step) throw data({ message: "Not found" }, { status: 404 });
    const next = statusAfterStart(step);
    // Idempotent: a retried start finds the status already moved and only navigates.
    if (next !== step.status) await setOnboardingStepStatus(api, user.clientId, step.id, next);
    return redirect(STEP_TARGETS[step.name]);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return redirectWithToast(request, "/onboarding", { kind: "error", message: error.message });
  }
}
