import { describe, expect, it } from "vitest";
import {
  billMonitoringUpdate,
  hasIncompleteSteps,
  startButtonLabel,
  statusAfterStart,
  STEP_LABELS,
} from "~/features/onboarding/onboarding";

describe("onboarding steps", () => {
  it("labels the three steps", () => {
    expect(Object.values(STEP_LABELS)).toEqual([
      "Bill Monitoring",
      "Thermostat Information",
      "User Preferences",
    ]);
  });
  it("starting User Preferences completes it; the others go in progress; complete stays complete", () => {
    expect(statusAfterStart({ name: "user_preferences", status: "not_started" })).toBe("complete");
    expect(statusAfterStart({ name: "user_preferences", status: "in_progress" })).toBe("complete");
    expect(statusAfterStart({ name: "bill_monitoring", status: "not_started" })).toBe("in_progress");
    expect(statusAfterStart({ name: "thermostats", status: "in_progress" })).toBe("in_progress");
    expect(statusAfterStart({ name: "thermostats", status: "complete" })).toBe("complete");
  });
  it("opening the connect flow moves bill_monitoring from not started to in progress only", () => {
    expect(billMonitoringUpdate([{ id: 7, name: "bill_monitoring", status: "not_started" }])).toEqual({
      id: 7,
      status: "in_progress",
    });
    expect(billMonitoringUpdate([{ id: 7, name: "bill_monitoring", status: "in_progress" }])).toBeNull();
    expect(billMonitoringUpdate([{ id: 7, name: "bill_monitoring", status: "complete" }])).toBeNull();
    expect(billMonitoringUpdate([])).toBeNull();
  });
  it("the shell link shows while a step is incomplete", () => {
    expect(hasIncompleteSteps([{ status: "complete" }, { status: "in_progress" }])).toBe(true);
    expect(hasIncompleteSteps([{ status: "complete" }])).toBe(false);
    expect(hasIncompleteSteps([])).toBe(false);
  });
  it("names the start button by status", () => {
    expect(startButtonLabel("not_started")).toBe("Start");
    expect(startButtonLabel("in_progress")).toBe("Continue");
    expect(startButtonLabel("complete")).toBe("Review");
  });
});
