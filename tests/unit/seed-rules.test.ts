import { describe, expect, it } from "vitest";
import { isReadingIssue, readingsBearOut } from "../../api/domain/setpoint-issues";
import { onboardingContradictions } from "../../api/domain/onboarding-facts";

const r = (tempIndoorF: number | null, heatSetpointF: number | null, coolSetpointF: number | null = 76) => ({
  tempIndoorF,
  heatSetpointF,
  coolSetpointF,
});

describe("setpoint issues and the readings (rule setpoint-issues-match-readings)", () => {
  it("heat setpoint above indoor temp only when the heat setpoint is above the indoor temperature", () => {
    // The card the report quoted: heat 66 °F, indoor 68 °F.
    expect(readingsBearOut("heat_setpoint_above_indoor_temp", r(68, 66))).toBe(false);
    expect(readingsBearOut("heat_setpoint_above_indoor_temp", r(68, 68))).toBe(false);
    expect(readingsBearOut("heat_setpoint_above_indoor_temp", r(66, 70))).toBe(true);
    expect(readingsBearOut("heat_setpoint_below_indoor_temp", r(68, 66))).toBe(true);
  });
  it("cool setpoints against the indoor temperature, and heat against cool", () => {
    expect(readingsBearOut("cool_setpoint_below_indoor_temp", r(78, 66, 74))).toBe(true);
    expect(readingsBearOut("cool_setpoint_below_indoor_temp", r(69, 66, 76))).toBe(false);
    expect(readingsBearOut("cool_setpoint_above_indoor_temp", r(69, 66, 76))).toBe(true);
    expect(readingsBearOut("heat_setpoint_higher_than_cool_setpoint", r(70, 72, 70))).toBe(true);
    expect(readingsBearOut("heat_setpoint_higher_than_cool_setpoint", r(70, 66, 76))).toBe(false);
  });
  it("a missing reading bears out no comparison; other issues are not the readings' to decide", () => {
    expect(readingsBearOut("heat_setpoint_above_indoor_temp", r(null, 70))).toBe(false);
    expect(readingsBearOut("permanent_hold", r(null, null, null))).toBe(true);
    expect(isReadingIssue("permanent_hold")).toBe(false);
    expect(isReadingIssue("cool_setpoint_below_indoor_temp")).toBe(true);
  });
});

describe("onboarding steps and the client's data (rule onboarding-matches-data)", () => {
  const steps = (bill: string, thermostats: string) => [
    { name: "bill_monitoring", status: bill },
    { name: "thermostats", status: thermostats },
    { name: "user_preferences", status: "complete" },
  ];
  it("Bill Monitoring is complete once an account is connected, and not before", () => {
    expect(
      onboardingContradictions(steps("not_started", "complete"), { connectedAccounts: 12, thermostats: 3 }),
    ).toEqual(["bill_monitoring is not_started while 12 accounts are connected"]);
    expect(
      onboardingContradictions(steps("complete", "complete"), { connectedAccounts: 0, thermostats: 3 }),
    ).toEqual(["bill_monitoring is complete with no account connected"]);
    expect(
      onboardingContradictions(steps("in_progress", "in_progress"), { connectedAccounts: 0, thermostats: 0 }),
    ).toEqual([]);
  });
  it("Thermostat Information is complete once thermostats are in the Control Room, and not before", () => {
    expect(
      onboardingContradictions(steps("complete", "in_progress"), { connectedAccounts: 1, thermostats: 2 }),
    ).toEqual(["thermostats is in_progress while 2 thermostats are in the Control Room"]);
    expect(
      onboardingContradictions(steps("complete", "complete"), { connectedAccounts: 1, thermostats: 0 }),
    ).toEqual(["thermostats is complete with no thermostat in the Control Room"]);
    expect(
      onboardingContradictions(steps("complete", "complete"), { connectedAccounts: 1, thermostats: 2 }),
    ).toEqual([]);
  });
});
