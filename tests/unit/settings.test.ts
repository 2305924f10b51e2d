import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import {
  ACCESS_INTENTS,
  accessChanges,
  bulkChoice,
  emailToggles,
  isAccessIntent,
  PREFERENCE_TOGGLES,
  locationsColumn,
  searchAndSortTeam,
  settingsTab,
  truncateName,
} from "~/features/settings/settings";
import { settingsActionSchema } from "~/features/settings/settings-form";
import { saveTeamAccess } from "~/features/settings/settings.server";
import { ApiError } from "~/server/upstream/api-error";
import { KIND_NAMES } from "../../api/domain/notifications";
import type { ApiClient } from "~/server/upstream/api-client.server";

const b = (buildingId: number, buildingName: string, hasAccess: boolean) => ({
  userId: 1,
  buildingId,
  buildingName,
  hasAccess,
});

describe("locationsColumn", () => {
  it("shows up to two names, each cut to 23 characters", () => {
    expect(locationsColumn([b(1, "Pike Place", true)])).toBe("Pike Place");
    expect(locationsColumn([b(1, "Harbor Coffee Capitol Hill", true), b(2, "Short", true)])).toBe(
      "Harbor Coffee Capitol…, Short",
    );
    expect(truncateName("Harbor Coffee Pike Place Flagship").length).toBeLessThanOrEqual(23);
    expect(truncateName("Harbor Coffee Pike Place Flagship")).toBe("Harbor Coffee Pike Pla…");
    expect(truncateName("12345678901234567890123")).toBe("12345678901234567890123");
  });
  it("then 'N selected' when there are more, counting only locations with access", () => {
    expect(locationsColumn([b(1, "A", true), b(2, "B", false), b(3, "C", true), b(4, "D", true)])).toBe(
      "A, C, 3 selected",
    );
  });
  it("says when there are none", () => {
    expect(locationsColumn([b(1, "A", false)])).toBe("No locations");
  });
});

describe("team list", () => {
  const m = (id: number, firstName: string, lastName: string, email: string, n: number) => ({
    id,
    firstName,
    lastName,
    email,
    userBuildingsWithName: Array.from({ length: 3 }, (_, i) => b(i, `L${i}`, i < n)),
  });
  const team = [
    m(1, "Dana", "Reyes", "dana@h.test", 3),
    m(2, "Sam", "Okafor", "sam@h.test", 1),
    m(3, "Priya", "Shah", "priya@h.test", 2),
  ];
  it("searches name and email", () => {
    expect(searchAndSortTeam(team, "oka").map((x) => x.id)).toEqual([2]);
    expect(searchAndSortTeam(team, "PRIYA@").map((x) => x.id)).toEqual([3]);
  });
  it("sorts by name, email or location count, both ways", () => {
    expect(searchAndSortTeam(team, "", "name").map((x) => x.id)).toEqual([2, 1, 3]);
    expect(searchAndSortTeam(team, "", "email", "desc").map((x) => x.id)).toEqual([2, 3, 1]);
    expect(searchAndSortTeam(team, "", "locations").map((x) => x.id)).toEqual([2, 3, 1]);
  });
});

describe("access editing", () => {
  const current = [b(1, "A", true), b(2, "B", false), b(3, "C", true)];
  it("finds one change per location that differs", () => {
    expect(accessChanges(current, [1, 2])).toEqual([
      { buildingId: 2, hasAccess: true },
      { buildingId: 3, hasAccess: false },
    ]);
    expect(accessChanges(current, [1, 3])).toEqual([]);
  });
  it("select all, revoke all, keep (dropping unknown ids)", () => {
    expect(bulkChoice([1, 2, 3], [1], "select-all")).toEqual([1, 2, 3]);
    expect(bulkChoice([1, 2, 3], [1], "revoke-all")).toEqual([]);
    expect(bulkChoice([1, 2, 3], [1, 1, 9], "keep")).toEqual([1]);
  });
  it("saves with one call per changed location and reports the failures", async () => {
    const calls: unknown[] = [];
    const api = {
      put: async (path: string, o: { body: { buildingId: number } }) => {
        calls.push([path, o.body]);
        if (o.body.buildingId === 3) throw new ApiError("boom", "http", 500);
        return null;
      },
    } as unknown as ApiClient;
    const result = await saveTeamAccess(api, 2, [
      { buildingId: 2, hasAccess: true },
      { buildingId: 3, hasAccess: false },
    ]);
    expect(calls).toEqual([
      ["/user_building_access", { userId: 2, buildingId: 2, hasAccess: true }],
      ["/user_building_access", { userId: 2, buildingId: 3, hasAccess: false }],
    ]);
    expect(result).toEqual({ saved: [2], failed: [3], maybeApplied: false });
  });
});

describe("preferences and tabs", () => {
  it("reads the email toggles, thermostat issue alerts included", () => {
    const t = emailToggles([
      {
        userId: 1,
        deliveryMethodPreference: "email",
        communicationPreferenceType: "bill_flag",
        enabled: true,
      },
      {
        userId: 1,
        deliveryMethodPreference: "sms",
        communicationPreferenceType: "weekly_rundown",
        enabled: true,
      },
    ]);
    expect(t.map((x) => [x.label, x.enabled])).toEqual([
      ["Bill Audit Alerts", true],
      ["Weekly Rundown", false],
      ["Monthly Recap", false],
      ["Customer Comfort Alerts", false],
      ["Thermostat Issue Alerts", false],
      ["Grid Event Notices", false],
    ]);
  });
  it("shows Team only to team managers", () => {
    expect(settingsTab("team", true)).toBe("team");
    expect(settingsTab("team", false)).toBe("preferences");
    expect(settingsTab(null, true)).toBe("preferences");
  });
});

describe("the action's schema (one per intent)", () => {
  const parse = (fields: [string, string][]) =>
    parseWithZod(new URLSearchParams(fields), { schema: settingsActionSchema });
  const ID = "3f1c2b9e-8a4d-4c6e-9b2a-1d5e7f0a9c31";

  it("reads a preference switch", () => {
    const s = parse([
      ["intent", "preference"],
      ["type", "monthly_recap"],
      ["enabled", "false"],
    ]);
    expect(s.status).toBe("success");
    expect(s.status === "success" && s.value).toEqual({
      intent: "preference",
      type: "monthly_recap",
      enabled: false,
    });
    const on = parse([
      ["intent", "preference"],
      ["type", "bill_flag"],
      ["enabled", "true"],
    ]);
    expect(on.status === "success" && on.value).toMatchObject({ enabled: true });
  });

  it("refuses a preference that cannot be edited here, or a switch without its state", () => {
    for (const type of ["sms", "", "<script>", "BILL_FLAG"])
      expect(
        parse([
          ["intent", "preference"],
          ["type", type],
          ["enabled", "true"],
        ]).status,
      ).toBe("error");
    expect(
      parse([
        ["intent", "preference"],
        ["type", "bill_flag"],
      ]).status,
    ).toBe("error");
    expect(
      parse([
        ["intent", "preference"],
        ["type", "bill_flag"],
        ["enabled", "yes"],
      ]).status,
    ).toBe("error");
  });

  it("reads an access save: the member, every ticked location, the submission id", () => {
    const s = parse([
      ["intent", "access-save"],
      ["userId", "7"],
      ["building", "101"],
      ["building", "104"],
      ["submissionId", ID],
    ]);
    expect(s.status === "success" && s.value).toEqual({
      intent: "access-save",
      userId: 7,
      building: [101, 104],
      submissionId: ID,
    });
  });

  it("reads one ticked location or none (Revoke all) as a list", () => {
    const one = parse([
      ["intent", "access-select-all"],
      ["userId", "7"],
      ["building", "101"],
    ]);
    expect(one.status === "success" && one.value).toEqual({
      intent: "access-select-all",
      userId: 7,
      building: [101],
      submissionId: undefined,
    });
    const none = parse([
      ["intent", "access-revoke-all"],
      ["userId", "7"],
      ["submissionId", "not-a-uuid"],
    ]);
    expect(none.status === "success" && none.value).toEqual({
      intent: "access-revoke-all",
      userId: 7,
      building: [],
      submissionId: undefined,
    });
  });

  it("refuses a member or location that is not an id", () => {
    for (const userId of ["", "0", "-1", "1.5", "NaN", "99999999999999999999999", "x"])
      expect(
        parse([
          ["intent", "access-save"],
          ["userId", userId],
        ]).status,
      ).toBe("error");
    expect(
      parse([
        ["intent", "access-save"],
        ["userId", "7"],
        ["building", "abc"],
      ]).status,
    ).toBe("error");
  });

  it("refuses an unknown or missing intent", () => {
    for (const intent of ["", "x", "access", "PREFERENCE"])
      expect(
        parse([
          ["intent", intent],
          ["userId", "7"],
          ["type", "bill_flag"],
          ["enabled", "true"],
        ]).status,
      ).toBe("error");
    expect(parse([["userId", "7"]]).status).toBe("error");
  });

  it("tells the access intents apart from the others (the team-manager guard)", () => {
    expect(ACCESS_INTENTS.every(isAccessIntent)).toBe(true);
    expect(isAccessIntent("preference")).toBe(false);
    expect(isAccessIntent(["access-save"])).toBe(false);
  });
});

describe("emails, as My Preferences names their switches", () => {
  it("name each switch", () => {
    for (const { type, label } of PREFERENCE_TOGGLES)
      expect(KIND_NAMES[type].replace(/^the /, "")).toBe(label);
  });
});
