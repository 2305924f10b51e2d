import { describe, expect, it } from "vitest";
import {
  attentionLabel,
  attentionLine,
  hasThermostatIssues,
  thermostatChip,
} from "../../shared/location-status";

/** The one status rule the dashboard and the Weekly Rundown share (shared/location-status.ts). */

const summary = (deviceStatus: string, num: number, unreachable: number[] = [], issues: number[] = []) => ({
  deviceStatus,
  numThermostats: num,
  unreachableThermostatsIds: unreachable,
  issueThermostatsIds: issues,
});

describe("thermostatChip (spec part 1 §2)", () => {
  it("shows an ongoing dispatch first, whatever else is true", () => {
    expect(thermostatChip(summary("IN_DISPATCH_EVENT", 4, [4], [1])).label).toBe("Ongoing Dispatch Event");
  });
  it("says Offline when every device is unreachable", () => {
    expect(thermostatChip(summary("DEVICE_ISSUES", 2, [1, 2])).label).toBe("Offline");
    expect(thermostatChip(summary("DEVICE_ISSUES", 2, [1, 2], [1])).label).toBe("Offline");
  });
  it("says n/m Offline when some are unreachable and none has an issue", () => {
    expect(thermostatChip(summary("DEVICE_ISSUES", 3, [7])).label).toBe("1/3 Offline");
  });
  it("counts the distinct union of issue and unreachable devices", () => {
    expect(thermostatChip(summary("DEVICE_ISSUES", 5, [16], [13, 14, 15])).label).toBe("4 device issues");
    expect(thermostatChip(summary("DEVICE_ISSUES", 3, [7], [7])).label).toBe("1 device issue");
    expect(thermostatChip(summary("DEVICE_ISSUES", 3, [], [2, 2])).label).toBe("1 device issue");
  });
  it("says Operating when nothing is wrong, and No Devices when there are none", () => {
    expect(thermostatChip(summary("OPERATING", 3)).label).toBe("Operating");
    expect(thermostatChip(summary("NO_DEVICES", 0)).label).toBe("No Devices");
  });
});

describe("locations that need attention", () => {
  it("are those with an issue or an unreachable device, whatever the chip leads with", () => {
    expect(hasThermostatIssues(summary("DEVICE_ISSUES", 2, [1, 2]))).toBe(true);
    expect(hasThermostatIssues(summary("DEVICE_ISSUES", 3, [7]))).toBe(true);
    expect(hasThermostatIssues(summary("DEVICE_ISSUES", 3, [], [2]))).toBe(true);
    expect(hasThermostatIssues(summary("IN_DISPATCH_EVENT", 4, [4]))).toBe(true);
    expect(hasThermostatIssues(summary("OPERATING", 3))).toBe(false);
    expect(hasThermostatIssues(summary("NO_DEVICES", 0))).toBe(false);
  });
  it("read as the chip, a dispatch with its device issues too", () => {
    expect(attentionLabel(summary("DEVICE_ISSUES", 2, [1, 2]))).toBe("Offline");
    expect(attentionLabel(summary("DEVICE_ISSUES", 3, [7]))).toBe("1/3 Offline");
    expect(attentionLabel(summary("IN_DISPATCH_EVENT", 4, [4]))).toBe(
      "Ongoing Dispatch Event, 1 device issue",
    );
    expect(attentionLabel(summary("IN_DISPATCH_EVENT", 4))).toBe("Ongoing Dispatch Event");
  });
  it("opens the digest with how many of how many need attention", () => {
    expect(attentionLine(3, 14)).toBe("3 of 14 locations need attention.");
    expect(attentionLine(1, 14)).toBe("1 of 14 locations needs attention.");
    expect(attentionLine(0, 14)).toBe("None of your 14 locations needs attention.");
    expect(attentionLine(1, 1)).toBe("Your location needs attention.");
    expect(attentionLine(0, 1)).toBe("Nothing at your location needs attention.");
  });
});
