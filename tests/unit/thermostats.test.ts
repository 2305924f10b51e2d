import { describe, expect, it, vi } from "vitest";
import { MESSAGES } from "~/features/thermostats/messages";
import { saveSettings } from "~/features/thermostats/control-room.server";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { ApiError } from "~/server/upstream/api-error";
import {
  borderColour,
  brandOf,
  cardStatus,
  changedSettings,
  describeChange,
  hasDeviceIssue,
  issueActions,
  issueLabel,
  modelOf,
  modeDisplayName,
  parsePoll,
  parseTab,
  parseWatch,
  anchoredCard,
  cardAnchor,
  pickIssue,
  receiptFollowUp,
  settingsRefusal,
  settingsWarning,
  timesFormatter,
  updateErrorMessage,
  saveFailureToast,
  vendorLabel,
  type ThermostatInfo,
  type ThermostatIssue,
} from "~/features/thermostats/thermostats";
import { canSave, settingsSchema } from "~/features/thermostats/settings-schema";
import { cardTimesOf, formatNewYork } from "~/features/thermostats/control-room.server";
import { formatLocalTime } from "~/lib/local-time";

let nextIssueId = 1;
function issue(
  slug: string,
  status: ThermostatIssue["currentStatus"] = "active",
  extra: Partial<ThermostatIssue> = {},
): ThermostatIssue {
  const category =
    slug === "permanent_hold" || slug === "unchanging_schedule"
      ? "schedule"
      : slug === "one_big_gap"
        ? "data_gap"
        : "system_performance";
  return {
    id: nextIssueId++,
    issueSlug: slug,
    issueCategory: category,
    currentStatus: status,
    isDismissed: status === "dismissed",
    buildingId: 101,
    ...extra,
  };
}

type Overrides = {
  status?: number;
  vendor?: string;
  autoresolve?: boolean;
  reachable?: boolean;
  dispatch?: boolean;
  actionDispatch?: boolean;
  hasSchedule?: boolean;
  issues?: ThermostatIssue[];
};

function item(o: Overrides = {}): ThermostatInfo {
  return {
    thermostat: {
      id: 1,
      buildingId: 101,
      deviceName: "Front Counter",
      vendor: o.vendor ?? "enode",
      status: o.status ?? 1,
      issueAutoresolve: o.autoresolve ?? false,
      vendorData: { information: { brand: "ecobee", model: "Premium" } },
    },
    state: {
      tempIndoorF: 70,
      mode: "cool",
      coolSetpointF: 74,
      heatSetpointF: 68,
      allowedModes: ["auto", "cool", "heat", "off"],
      lastSeen: "2026-03-03T21:05:00Z",
      minSetpointF: 50,
      maxSetpointF: 90,
      minAutoSpacingF: 3,
      hasSchedule: o.hasSchedule ?? true,
    },
    thermostatAction: o.actionDispatch
      ? {
          id: 9,
          thermostatId: 1,
          status: "success",
          deviceSpecificData: { coolSetpointF: 70 },
          dispatchId: 1,
          thermostatName: "Front Counter",
          reason: null,
          createdAt: "2026-03-03T21:05:00Z",
          finishedAt: null,
        }
      : null,
    isReachable: o.reachable ?? true,
    dispatch: o.dispatch
      ? { id: 1, startTime: "2026-03-03T00:00:00Z", endTime: "2026-03-04T00:00:00Z", precoolStartTime: null }
      : null,
    issues: o.issues ?? [],
  };
}

describe("card display status, in priority order", () => {
  it("1. unlinked (status -2) beats everything", () => {
    expect(
      cardStatus(item({ status: -2, reachable: false, dispatch: true, issues: [issue("permanent_hold")] })),
    ).toBe("unlinked");
  });
  it("2. unreachable", () => {
    expect(cardStatus(item({ reachable: false, dispatch: true }))).toBe("unreachable");
  });
  it("3. event in progress: a dispatch, or an action with a dispatch id", () => {
    expect(cardStatus(item({ dispatch: true, hasSchedule: false, issues: [issue("permanent_hold")] }))).toBe(
      "event",
    );
    expect(cardStatus(item({ actionDispatch: true }))).toBe("event");
  });
  it("4. schedule unavailable", () => {
    expect(cardStatus(item({ hasSchedule: false, issues: [issue("permanent_hold", "processing")] }))).toBe(
      "schedule-unavailable",
    );
  });
  it("5. resolving issue (processing)", () => {
    expect(cardStatus(item({ issues: [issue("permanent_hold", "processing")] }))).toBe("resolving");
  });
  it("6. issue dismissed (flag or status)", () => {
    expect(cardStatus(item({ issues: [issue("unchanging_schedule", "dismissed")] }))).toBe("dismissed");
    expect(
      cardStatus(item({ issues: [issue("unchanging_schedule", "active", { isDismissed: true })] })),
    ).toBe("dismissed");
  });
  it("7. inactive schedule (permanent hold)", () => {
    expect(
      cardStatus(item({ issues: [issue("permanent_hold"), issue("heat_setpoint_above_indoor_temp")] })),
    ).toBe("inactive-schedule");
  });
  it("8. inefficient schedule (unchanging schedule), also when failed", () => {
    expect(cardStatus(item({ issues: [issue("unchanging_schedule")] }))).toBe("inefficient-schedule");
    expect(cardStatus(item({ issues: [issue("unchanging_schedule", "failed")] }))).toBe(
      "inefficient-schedule",
    );
  });
  it("9. system performance", () => {
    expect(cardStatus(item({ issues: [issue("heat_setpoint_above_indoor_temp")] }))).toBe(
      "system-performance",
    );
  });
  it("10. otherwise following schedule (no issue, resolved ones, other categories)", () => {
    expect(cardStatus(item())).toBe("following-schedule");
    expect(cardStatus(item({ issues: [issue("permanent_hold", "resolved")] }))).toBe("following-schedule");
    expect(cardStatus(item({ issues: [issue("one_big_gap")] }))).toBe("following-schedule");
  });
});

describe("issue picked for a card", () => {
  it("none when there is no open issue", () => {
    expect(pickIssue([])).toBeNull();
    expect(pickIssue([issue("permanent_hold", "resolved")])).toBeNull();
  });
  it("permanent hold first, then unchanging schedule, then system performance", () => {
    const hold = issue("permanent_hold");
    const unchanging = issue("unchanging_schedule");
    const perf = issue("cool_setpoint_below_indoor_temp");
    expect(pickIssue([perf, unchanging, hold])).toBe(hold);
    expect(pickIssue([perf, unchanging])).toBe(unchanging);
    expect(pickIssue([perf])).toBe(perf);
  });
  it("a dismissed schedule issue gives way to a system-performance issue", () => {
    const hold = issue("permanent_hold", "dismissed");
    const perf = issue("cool_setpoint_below_indoor_temp");
    expect(pickIssue([hold, perf])).toBe(perf);
  });
  it("unless that one is dismissed too", () => {
    const hold = issue("permanent_hold", "dismissed");
    const perf = issue("cool_setpoint_below_indoor_temp", "dismissed");
    expect(pickIssue([hold, perf])).toBe(hold);
  });
  it("a dismissed schedule issue alone stays picked", () => {
    const hold = issue("permanent_hold", "dismissed");
    expect(pickIssue([hold])).toBe(hold);
  });
});

describe("card border colour", () => {
  it("grey when unreachable, unlinked or without schedule", () => {
    expect(borderColour(item({ reachable: false }))).toBe("grey");
    expect(borderColour(item({ status: -2 }))).toBe("grey");
    expect(borderColour(item({ hasSchedule: false }))).toBe("grey");
  });
  it("green in an event", () => {
    expect(borderColour(item({ dispatch: true, issues: [issue("permanent_hold")] }))).toBe("green");
  });
  it("grey when dismissed", () => {
    expect(borderColour(item({ issues: [issue("permanent_hold", "dismissed")] }))).toBe("grey");
  });
  it("active issue: yellow if it auto-resolves, otherwise red", () => {
    expect(borderColour(item({ autoresolve: true, issues: [issue("permanent_hold")] }))).toBe("yellow");
    expect(borderColour(item({ issues: [issue("permanent_hold")] }))).toBe("red");
  });
  it("processing grey, failed red", () => {
    expect(borderColour(item({ issues: [issue("permanent_hold", "processing")] }))).toBe("grey");
    expect(borderColour(item({ issues: [issue("unchanging_schedule", "failed")] }))).toBe("red");
  });
  it("otherwise bright green", () => {
    expect(borderColour(item())).toBe("bright-green");
    expect(borderColour(item({ issues: [issue("permanent_hold", "resolved")] }))).toBe("bright-green");
  });
});

describe("Devices with Issues membership", () => {
  it("unreachable or unlinked devices", () => {
    expect(hasDeviceIssue(item({ reachable: false }))).toBe(true);
    expect(hasDeviceIssue(item({ status: -2 }))).toBe(true);
  });
  it("a non-resolved schedule or system-performance issue with no dispatch", () => {
    expect(hasDeviceIssue(item({ issues: [issue("permanent_hold")] }))).toBe(true);
    expect(hasDeviceIssue(item({ issues: [issue("unchanging_schedule", "dismissed")] }))).toBe(true);
    expect(hasDeviceIssue(item({ issues: [issue("heat_setpoint_above_indoor_temp", "processing")] }))).toBe(
      true,
    );
  });
  it("not with a dispatch, only resolved issues, other categories, or no issue", () => {
    expect(hasDeviceIssue(item({ dispatch: true, issues: [issue("permanent_hold")] }))).toBe(false);
    expect(hasDeviceIssue(item({ issues: [issue("permanent_hold", "resolved")] }))).toBe(false);
    expect(hasDeviceIssue(item({ issues: [issue("one_big_gap")] }))).toBe(false);
    expect(hasDeviceIssue(item())).toBe(false);
  });
});

describe("Resolve Issue and DISMISS", () => {
  it("both for an active schedule issue on an Enode device", () => {
    expect(issueActions(item({ issues: [issue("permanent_hold")] }))).toMatchObject({
      canResolve: true,
      canDismiss: true,
    });
  });
  it("only DISMISS for system performance", () => {
    expect(issueActions(item({ issues: [issue("heat_setpoint_above_indoor_temp")] }))).toMatchObject({
      canResolve: false,
      canDismiss: true,
    });
  });
  it("never for Airzone devices", () => {
    expect(issueActions(item({ vendor: "airzone", issues: [issue("permanent_hold")] }))).toMatchObject({
      canResolve: false,
      canDismiss: false,
    });
  });
  it("DISMISS hidden when the issue auto-resolves", () => {
    expect(issueActions(item({ autoresolve: true, issues: [issue("permanent_hold")] }))).toMatchObject({
      canResolve: true,
      canDismiss: false,
    });
  });
  it("nothing once dismissed, while processing, or without an issue", () => {
    expect(issueActions(item({ issues: [issue("permanent_hold", "dismissed")] }))).toMatchObject({
      canResolve: false,
      canDismiss: false,
    });
    expect(issueActions(item({ issues: [issue("permanent_hold", "processing")] }))).toMatchObject({
      canResolve: false,
      canDismiss: false,
    });
    expect(issueActions(item())).toMatchObject({ issue: null, canResolve: false, canDismiss: false });
  });
  it("a failed issue can be resolved again", () => {
    expect(issueActions(item({ issues: [issue("unchanging_schedule", "failed")] }))).toMatchObject({
      canResolve: true,
      canDismiss: true,
    });
  });
});

describe("mode display names", () => {
  it("maps the vendor modes", () => {
    expect(modeDisplayName("dehumidifier")).toBe("dry");
    expect(modeDisplayName("emergencyheat")).toBe("EM heat");
    expect(modeDisplayName("ventilation")).toBe("fan");
    expect(["auto", "cool", "heat", "off"].map(modeDisplayName)).toEqual(["auto", "cool", "heat", "off"]);
  });
  it("keeps an unknown mode and names a missing one", () => {
    expect(modeDisplayName("eco")).toBe("eco");
    expect(modeDisplayName(null)).toBe("unknown");
  });
});

describe("brand and model", () => {
  it("Enode: the information brand and model", () => {
    const t = { vendor: "enode", vendorData: { information: { brand: "ecobee", model: "Premium" } } };
    expect(brandOf(t)).toBe("ecobee");
    expect(modelOf(t)).toBe("Premium");
  });
  it("Airzone: the manufacturer text and model", () => {
    const t = { vendor: "airzone", vendorData: { manufacturer: { text: "Daikin" }, model: "Aidoo Pro" } };
    expect(brandOf(t)).toBe("Daikin");
    expect(modelOf(t)).toBe("Aidoo Pro");
  });
  it("vendor names for staff detail", () => {
    expect([vendorLabel("enode"), vendorLabel("airzone"), vendorLabel("other")]).toEqual([
      "Enode",
      "Airzone",
      "other",
    ]);
  });
  it("nothing for missing data or another vendor", () => {
    expect(brandOf({ vendor: "enode", vendorData: {} })).toBeNull();
    expect(brandOf({ vendor: "other", vendorData: {} })).toBeNull();
  });
});

describe("the setting form schema", () => {
  const limits = {
    allowedModes: ["auto", "cool", "heat", "off"],
    minSetpointF: 50,
    maxSetpointF: 90,
    minAutoSpacingF: 3,
  };
  const schema = settingsSchema(limits);
  const errorsOf = (v: unknown) => {
    const r = schema.safeParse(v);
    return r.success ? {} : r.error.flatten().fieldErrors;
  };
  it("accepts valid settings", () => {
    expect(schema.safeParse({ mode: "cool", coolSetpointF: 74, heatSetpointF: 68 }).success).toBe(true);
    expect(schema.safeParse({ mode: "auto", coolSetpointF: 71, heatSetpointF: 68 }).success).toBe(true);
  });
  it("requires a mode, and one the device allows", () => {
    expect(errorsOf({ coolSetpointF: 74, heatSetpointF: 68 }).mode).toEqual(["Mode is required"]);
    expect(errorsOf({ mode: "ventilation", coolSetpointF: 74, heatSetpointF: 68 }).mode).toEqual([
      "Choose a mode this thermostat supports",
    ]);
  });
  it("checks the device's setpoint bounds and whole degrees", () => {
    expect(errorsOf({ mode: "cool", coolSetpointF: 91, heatSetpointF: 68 }).coolSetpointF).toEqual([
      "Cool setpoint must be at most 90°F",
    ]);
    expect(errorsOf({ mode: "cool", coolSetpointF: 74, heatSetpointF: 49 }).heatSetpointF).toEqual([
      "Heat setpoint must be at least 50°F",
    ]);
    expect(errorsOf({ mode: "cool", coolSetpointF: 74.5, heatSetpointF: 68 }).coolSetpointF).toEqual([
      "Cool setpoint must be a whole number of degrees",
    ]);
    expect(errorsOf({ mode: "cool", heatSetpointF: 68 }).coolSetpointF).toEqual([
      "Cool setpoint is required",
    ]);
  });
  it("auto mode needs the cool setpoint at least the spacing above the heat setpoint", () => {
    expect(errorsOf({ mode: "auto", coolSetpointF: 70, heatSetpointF: 68 }).coolSetpointF).toEqual([
      "In auto mode the cool setpoint must be at least 3°F above the heat setpoint",
    ]);
    expect(schema.safeParse({ mode: "cool", coolSetpointF: 70, heatSetpointF: 68 }).success).toBe(true);
  });
});

describe("changed fields and Save", () => {
  const current = { mode: "cool", coolSetpointF: 74, heatSetpointF: 68 };
  const limits = {
    allowedModes: ["auto", "cool", "heat", "off"],
    minSetpointF: 50,
    maxSetpointF: 90,
    minAutoSpacingF: 3,
  };
  it("only the changed fields", () => {
    expect(changedSettings(current, { mode: "cool", coolSetpointF: 76, heatSetpointF: 68 })).toEqual({
      coolSetpointF: 76,
    });
    expect(changedSettings(current, { mode: "heat", coolSetpointF: 74, heatSetpointF: 66 })).toEqual({
      mode: "heat",
      heatSetpointF: 66,
    });
  });
  it("the whole form in auto mode", () => {
    expect(changedSettings(current, { mode: "auto", coolSetpointF: 74, heatSetpointF: 68 })).toEqual({
      mode: "auto",
      coolSetpointF: 74,
      heatSetpointF: 68,
    });
    expect(
      changedSettings({ ...current, mode: "auto" }, { mode: "auto", coolSetpointF: 75, heatSetpointF: 68 }),
    ).toEqual({
      mode: "auto",
      coolSetpointF: 75,
      heatSetpointF: 68,
    });
  });
  it("nothing when nothing changed", () => {
    expect(changedSettings(current, { ...current })).toEqual({});
    expect(
      changedSettings({ ...current, mode: "auto" }, { mode: "auto", coolSetpointF: 74, heatSetpointF: 68 }),
    ).toEqual({});
  });
  it("Save: valid and dirty only", () => {
    expect(canSave(limits, current, { mode: "cool", coolSetpointF: "74", heatSetpointF: "68" })).toBe(false);
    expect(canSave(limits, current, { mode: "cool", coolSetpointF: "76", heatSetpointF: "68" })).toBe(true);
    expect(canSave(limits, current, { mode: "cool", coolSetpointF: "95", heatSetpointF: "68" })).toBe(false);
    expect(canSave(limits, current, { mode: "cool", coolSetpointF: "", heatSetpointF: "68" })).toBe(false);
    expect(canSave(limits, current, { mode: "", coolSetpointF: "74", heatSetpointF: "68" })).toBe(false);
  });
});

describe("messages and formatting", () => {
  it("update error: the server's text when readable, otherwise the generic message", () => {
    expect(
      updateErrorMessage({ kind: "validation", message: "cool_setpoint_f: must be between 50 and 90" }),
    ).toBe("cool_setpoint_f: must be between 50 and 90");
    expect(updateErrorMessage({ kind: "http", message: "Device busy" })).toBe("Device busy");
    expect(updateErrorMessage({ kind: "network", message: "Could not reach the server" })).toBe(
      MESSAGES.updateFailed,
    );
    expect(updateErrorMessage({ kind: "http", message: " " })).toBe(MESSAGES.updateFailed);
    expect(updateErrorMessage(null)).toBe("Unable to update Thermostat settings");
  });
  it("action toasts", () => {
    expect(MESSAGES.completed("Lobby")).toBe("Action completed for Thermostat: Lobby");
    expect(MESSAGES.failed("Lobby")).toBe("Failed action for Thermostat: Lobby");
  });
  it("New York time, standard and daylight", () => {
    expect(formatNewYork("2026-03-03T21:05:00Z")).toBe("Mar 3, 2026, 4:05 PM ET");
    expect(formatNewYork("2026-07-01T12:00:00Z")).toBe("Jul 1, 2026, 8:00 AM ET");
    expect(formatNewYork(null)).toBeNull();
    expect(formatNewYork("not a date")).toBeNull();
  });
  /** A change the user sent at `createdAt`, carried by grid event 9. */
  const sentAction = (createdAt: string) => ({
    id: 1,
    thermostatId: 1,
    status: "success" as const,
    deviceSpecificData: { coolSetpointF: 74 },
    dispatchId: 9,
    thermostatName: "Front Counter",
    reason: null,
    createdAt,
    finishedAt: null,
  });
  it("the server writes out each instant the cards show, once", () => {
    const a = item();
    a.state.lastSeen = "2026-03-03T21:05:00Z";
    a.thermostatAction = sentAction("2026-07-01T12:00:00Z");
    a.dispatch = {
      id: 9,
      startTime: "2026-07-01T18:00:00Z",
      endTime: "2026-07-01T20:00:00Z",
      precoolStartTime: null,
    };
    const b = item();
    b.state.lastSeen = "2026-03-03T21:05:00Z";
    // Last seen in New York time (the spec); the receipt and the event's start in the building's zone,
    // labelled with it: an Austin café's change sent at 12:00 UTC in July reads 7:00 AM CDT.
    expect(cardTimesOf([a, b], "America/Chicago")).toEqual({
      lastSeen: { "2026-03-03T21:05:00Z": "Mar 3, 2026, 4:05 PM ET" },
      local: {
        "2026-07-01T12:00:00Z": "Jul 1, 2026, 7:00 AM CDT",
        "2026-07-01T18:00:00Z": "Jul 1, 2026, 1:00 PM CDT",
      },
    });
    const written = timesFormatter({
      lastSeen: { "2026-03-03T21:05:00Z": "(seen)" },
      local: { "2026-07-01T18:00:00Z": "(written)" },
    });
    expect(written.local("2026-07-01T18:00:00Z")).toBe("(written)");
    expect(written.local("2026-03-03T21:05:00Z")).toBeNull();
    expect(written.lastSeen("2026-03-03T21:05:00Z")).toBe("(seen)");
    expect(written.lastSeen("2026-07-01T18:00:00Z")).toBeNull();
    expect(written.local(null)).toBeNull();
  });
  it("a receipt reads the same as Grid Services for the same instant and building", () => {
    const a = item();
    a.thermostatAction = sentAction("2026-11-18T17:11:00Z");
    const { local } = cardTimesOf([a], "America/Los_Angeles");
    expect(local["2026-11-18T17:11:00Z"]).toBe("Nov 18, 2026, 9:11 AM PST");
    expect(local["2026-11-18T17:11:00Z"]).toBe(
      formatLocalTime("2026-11-18T17:11:00Z", "America/Los_Angeles"),
    );
    // Without the building's zone (its list failed), New York time, still labelled.
    expect(cardTimesOf([a], null).local["2026-11-18T17:11:00Z"]).toBe("Nov 18, 2026, 12:11 PM EST");
  });
  it("receipt text and issue labels", () => {
    expect(describeChange({ mode: "dehumidifier", coolSetpointF: 74, heatSetpointF: 68 })).toBe(
      "mode dry, cool 74°F, heat 68°F",
    );
    expect(describeChange({})).toBe("no settings");
    expect(issueLabel("heat_setpoint_above_indoor_temp")).toBe("Heat setpoint above indoor temp");
  });
  it("URL state", () => {
    expect(parseTab("issues")).toBe("issues");
    expect(parseTab(null)).toBe("all");
    expect(parseWatch("1010:5")).toEqual({ thermostatId: 1010, actionId: 5 });
    expect(parseWatch("x")).toBeNull();
    expect(parsePoll("3")).toBe(3);
    expect(parsePoll("99")).toBe(20);
    expect(parsePoll("-1")).toBe(0);
  });
});

describe("an unreachable thermostat's Change settings warns first", () => {
  it("warns for a linked device that is not responding, and only then", () => {
    expect(settingsWarning(item({ reachable: false }))).toBe(MESSAGES.unreachableChange);
    expect(settingsWarning(item())).toBeNull();
    // Unlinked: no form at all (the refusal), so no warning either.
    expect(settingsWarning(item({ status: -2, reachable: false }))).toBeNull();
  });
});

describe("an unlinked thermostat cannot be changed (rule unlinked-no-change)", () => {
  it("refuses settings only for status -2", () => {
    expect(settingsRefusal(item({ status: -2 }))).toBe(MESSAGES.unlinkedRefused);
    expect(settingsRefusal(item())).toBeNull();
    // Unreachable but linked: the vendor answers (and fails the change with its reason), so Save is offered.
    expect(settingsRefusal(item({ reachable: false }))).toBeNull();
  });

  it("Save answers 400 with the refusal and sends nothing to the vendor, even for a valid form", async () => {
    const unlinked = item({ status: -2 });
    const post = vi.fn();
    const api = { get: async () => ({ items: [unlinked] }), post } as unknown as ApiClient;
    const form = new FormData();
    for (const [k, v] of Object.entries({
      intent: "save",
      thermostatId: "1",
      mode: "heat",
      coolSetpointF: "74",
      heatSetpointF: "66",
    }))
      form.set(k, v);
    const outcome = await saveSettings(api, 101, { intent: "save", thermostatId: 1, tab: "all" }, form);
    expect(post).not.toHaveBeenCalled();
    expect(outcome.kind).toBe("reply");
    if (outcome.kind !== "reply") return;
    expect(outcome.status).toBe(400);
    // The refusal is said on the card of the answering page, never as a flash for the next page.
    expect(outcome).not.toHaveProperty("toast");
    expect(outcome.body.lastResult.error?.[""]).toEqual([MESSAGES.unlinkedRefused]);
  });
});

describe("a Save that fails upstream (rule save-failure-toast)", () => {
  const form = () => {
    const f = new FormData();
    for (const [k, v] of Object.entries({
      intent: "save",
      thermostatId: "1",
      mode: "heat",
      coolSetpointF: "74",
      heatSetpointF: "66",
    }))
      f.set(k, v);
    return f;
  };
  it("answers the server's text as the card's error and as the failure the toast shows", async () => {
    const api = {
      get: async () => ({ items: [item()] }),
      post: async () => {
        throw new ApiError("The thermostat vendor is not answering", "http", 503);
      },
    } as unknown as ApiClient;
    const outcome = await saveSettings(api, 101, { intent: "save", thermostatId: 1, tab: "all" }, form());
    expect(outcome.kind).toBe("reply");
    if (outcome.kind !== "reply") return;
    expect(outcome.status).toBe(503);
    expect(outcome.body.lastResult.error?.[""]).toEqual(["The thermostat vendor is not answering"]);
    expect(saveFailureToast(outcome.body)).toEqual({
      kind: "error",
      message: "The thermostat vendor is not answering",
    });
    // Never a flash: without JavaScript the answering page's card says it, and the next page says nothing.
    expect(outcome).not.toHaveProperty("toast");
  });
  it("the list failing says the generic message; the form's own errors get no toast", async () => {
    const failing = {
      get: async () => {
        throw new ApiError("boom", "http", 500);
      },
    } as unknown as ApiClient;
    const outcome = await saveSettings(failing, 101, { intent: "save", thermostatId: 1, tab: "all" }, form());
    if (outcome.kind !== "reply") throw new Error("expected a reply");
    expect(saveFailureToast(outcome.body)).toEqual({ kind: "error", message: MESSAGES.updateFailed });
    const api = { get: async () => ({ items: [item()] }), post: vi.fn() } as unknown as ApiClient;
    const bad = form();
    bad.set("coolSetpointF", "not a number");
    const invalid = await saveSettings(api, 101, { intent: "save", thermostatId: 1, tab: "all" }, bad);
    if (invalid.kind !== "reply") throw new Error("expected a reply");
    expect(invalid.status).toBe(400);
    expect(saveFailureToast(invalid.body)).toBeNull();
    expect(saveFailureToast(undefined)).toBeNull();
  });
});

describe("a completed change and the device's reported state (rule receipt-vs-reported-state)", () => {
  const now = Date.parse("2026-11-18T19:30:00.000Z");
  const eventAction = (over: Partial<NonNullable<ThermostatInfo["thermostatAction"]>> = {}) => ({
    id: 9,
    thermostatId: 1,
    status: "success" as const,
    deviceSpecificData: { mode: "cool", coolSetpointF: 70 },
    dispatchId: 1,
    thermostatName: "Front Counter",
    reason: null,
    createdAt: "2026-11-18T17:30:00.000Z",
    finishedAt: "2026-11-18T17:30:20.000Z",
    ...over,
  });
  const running = {
    id: 1,
    precoolStartTime: "2026-11-18T17:30:00.000Z",
    startTime: "2026-11-18T18:30:00.000Z",
    endTime: "2026-11-20T07:30:00.000Z",
  };
  const reporting = (mode: string, cool: number) => ({
    ...item().state,
    mode,
    coolSetpointF: cool,
    heatSetpointF: 68,
  });

  it("says nothing when the device still has every asked setting, or the change did not complete", () => {
    expect(
      receiptFollowUp(
        { state: reporting("cool", 70), thermostatAction: eventAction(), dispatch: running },
        now,
        formatNewYork,
      ),
    ).toBeNull();
    const pending = eventAction({ status: "pending" });
    expect(
      receiptFollowUp(
        { state: reporting("auto", 74), thermostatAction: pending, dispatch: running },
        now,
        formatNewYork,
      ),
    ).toBeNull();
    expect(
      receiptFollowUp(
        { state: reporting("auto", 74), thermostatAction: null, dispatch: null },
        now,
        formatNewYork,
      ),
    ).toBeNull();
  });

  it("a precool change under a running event: precooling ended when the event began", () => {
    const text = receiptFollowUp(
      { state: reporting("auto", 74), thermostatAction: eventAction(), dispatch: running },
      now,
      formatNewYork,
    );
    expect(text).toBe(
      "The thermostat now reports mode auto, cool 74°F, heat 68°F: precooling ended when the event began (Nov 18, 2026, 1:30 PM ET).",
    );
    // The card passes the times the server wrote out.
    expect(
      receiptFollowUp(
        { state: reporting("auto", 74), thermostatAction: eventAction(), dispatch: running },
        now,
        () => "(written)",
      ),
    ).toContain("precooling ended when the event began ((written)).");
    // Before the event's start, the difference is not explained by the end of precooling.
    expect(
      receiptFollowUp(
        { state: reporting("auto", 74), thermostatAction: eventAction(), dispatch: running },
        Date.parse("2026-11-18T18:00:00.000Z"),
        formatNewYork,
      ),
    ).toMatch(/the event has changed it since\.$/);
  });

  it("an event's change after the event: the event ended and the schedule resumed", () => {
    expect(
      receiptFollowUp(
        { state: reporting("auto", 74), thermostatAction: eventAction(), dispatch: null },
        now,
        formatNewYork,
      ),
    ).toBe(
      "The thermostat now reports mode auto, cool 74°F, heat 68°F: the grid event has ended and the thermostat's schedule resumed.",
    );
  });

  it("a user's change changed since", () => {
    const mine = eventAction({ dispatchId: null, deviceSpecificData: { coolSetpointF: 76 } });
    expect(
      receiptFollowUp(
        { state: reporting("cool", 75), thermostatAction: mine, dispatch: null },
        now,
        formatNewYork,
      ),
    ).toMatch(/now reports mode cool, cool 75°F, heat 68°F: its settings were changed since/);
    // Only the asked fields count: a change of the cool setpoint is not contradicted by another mode.
    expect(
      receiptFollowUp(
        { state: reporting("heat", 76), thermostatAction: mine, dispatch: null },
        now,
        formatNewYork,
      ),
    ).toBeNull();
  });
});

describe("the card anchor Save's redirect carries", () => {
  it("names a card and is read back only in its own shape", () => {
    expect(cardAnchor(1004)).toBe("thermostat-1004");
    expect(anchoredCard("#thermostat-1004")).toBe("thermostat-1004");
    expect(anchoredCard("#main")).toBeNull();
    expect(anchoredCard("#thermostat-1004-name")).toBeNull();
    expect(anchoredCard("")).toBeNull();
  });
});
