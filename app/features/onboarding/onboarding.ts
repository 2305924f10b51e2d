import type { Tone } from "~/ui/pill";

/** Onboarding (rules onboarding-start-status, bill-monitoring-on-open and onboarding-labels, docs/rules.md). */
export const ONBOARDING_STEP_NAMES = ["bill_monitoring", "thermostats", "user_preferences"] as const;
export type OnboardingStepName = (typeof ONBOARDING_STEP_NAMES)[number];
export type OnboardingStatus = "not_started" | "in_progress" | "complete";
export type OnboardingStep = { id: number; name: OnboardingStepName; status: OnboardingStatus };

export const ONBOARDING_MESSAGES = {
  empty: "No onboarding steps to complete.",
  checklist: "Setup Checklist",
} as const;

export const STEP_LABELS: Record<OnboardingStepName, string> = {
  bill_monitoring: "Bill Monitoring",
  thermostats: "Thermostat Information",
  user_preferences: "User Preferences",
};

export const STEP_DESCRIPTIONS: Record<OnboardingStepName, string> = {
  bill_monitoring: "Connect your utility accounts so we can watch every bill for errors and changes.",
  thermostats: "Tell us about the thermostats at your locations so we can bring them into the Control Room.",
  user_preferences: "Choose which emails you receive.",
};

export const STATUS_LABELS: Record<OnboardingStatus, string> = {
  not_started: "Not Started",
  in_progress: "In Progress",
  complete: "Complete",
};
export const STATUS_TONES: Record<OnboardingStatus, Tone> = {
  not_started: "grey",
  in_progress: "info",
  complete: "success",
};

/** Where each step's start button leads. */
export const STEP_TARGETS: Record<OnboardingStepName, string> = {
  bill_monitoring: "/authorize-arcadia",
  thermostats: "/locations",
  user_preferences: "/settings",
};

/** The status a step moves to when the user starts it: User Preferences completes; the others are in progress. */
export function statusAfterStart(step: Pick<OnboardingStep, "name" | "status">): OnboardingStatus {
  if (step.status === "complete") return "complete";
  return step.name === "user_preferences" ? "complete" : "in_progress";
}

/** Opening the connect flow marks bill_monitoring in progress, unless it is already further along. */
export function billMonitoringUpdate(
  steps: OnboardingStep[],
): { id: number; status: OnboardingStatus } | null {
  const step = steps.find((s) => s.name === "bill_monitoring");
  if (!step || step.status !== "not_started") return null;
  return { id: step.id, status: "in_progress" };
}

/** The shell shows 'Set up your account' while any step is not complete. */
export const hasIncompleteSteps = (steps: Pick<OnboardingStep, "status">[]) =>
  steps.some((s) => s.status !== "complete");

export const startButtonLabel = (status: OnboardingStatus) =>
  status === "complete" ? "Review" : status === "in_progress" ? "Continue" : "Start";
