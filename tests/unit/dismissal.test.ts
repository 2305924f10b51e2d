import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { dismissalHref } from "~/features/thermostats/dismissal";
import { issueLabel } from "../../shared/status-labels";
import { dismissalSchema } from "~/features/thermostats/dismissal.server";
import { DISMISSAL_REFUSALS, dismissalRefusal } from "../../shared/issue-dismissal";

describe("the dismissal link's parameters", () => {
  const parse = (query: string) => parseWithZod(new URLSearchParams(query), { schema: dismissalSchema });

  it("accepts a thermostat id and an issue slug", () => {
    const s = parse("thermostatId=1024&issueSlug=permanent_hold");
    expect(s.status).toBe("success");
    expect(s.status === "success" && s.value).toEqual({ thermostatId: 1024, issueSlug: "permanent_hold" });
  });

  it.each([
    "",
    "thermostatId=1024",
    "issueSlug=permanent_hold",
    "thermostatId=0&issueSlug=permanent_hold",
    "thermostatId=-3&issueSlug=permanent_hold",
    "thermostatId=1.5&issueSlug=permanent_hold",
    "thermostatId=x&issueSlug=permanent_hold",
    "thermostatId=99999999999999999999&issueSlug=permanent_hold",
    "thermostatId=1024&issueSlug=..%2Fx",
    "thermostatId=1024&issueSlug=Permanent%20Hold",
    `thermostatId=1024&issueSlug=${"a".repeat(101)}`,
    // A link cut short, or any slug outside the catalogue: not an issue type.
    "thermostatId=1013&issueSlug=permanent_ho",
    "thermostatId=1013&issueSlug=no_such_issue",
  ])("refuses %j", (query) => {
    expect(parse(query).status).not.toBe("success");
  });

  it("builds the link back", () => {
    expect(dismissalHref({ thermostatId: 1024, issueSlug: "permanent_hold" })).toBe(
      "/dismiss-thermostat-issue?thermostatId=1024&issueSlug=permanent_hold",
    );
  });
});

describe("issueLabel", () => {
  it.each([
    ["permanent_hold", "Inactive schedule"],
    ["unchanging_schedule", "Inefficient schedule"],
    ["cool_setpoint_below_indoor_temp", "Cool setpoint below indoor temp"],
    ["nodata", "Nodata"],
    ["constructor", "Constructor"],
  ])("%s reads %s", (slug, label) => {
    expect(issueLabel(slug)).toBe(label);
  });
});

describe("dismissalRefusal (rule dismissal-offer)", () => {
  const enode = { vendor: "enode", issueAutoresolve: false };
  const active = { currentStatus: "active", isDismissed: false };
  it("lets an open issue of an Enode thermostat be dismissed, failed ones too", () => {
    expect(dismissalRefusal(enode, [active])).toBeNull();
    expect(dismissalRefusal(enode, [{ currentStatus: "failed", isDismissed: false }])).toBeNull();
  });
  it("never on an Airzone thermostat, nor when the issue auto-resolves", () => {
    expect(dismissalRefusal({ vendor: "airzone", issueAutoresolve: false }, [active])).toBe("airzone");
    expect(dismissalRefusal({ vendor: "enode", issueAutoresolve: true }, [active])).toBe("autoresolves");
  });
  it("says an issue is already dismissed, resolved, absent or being resolved", () => {
    expect(dismissalRefusal(enode, [{ currentStatus: "dismissed", isDismissed: true }])).toBe("dismissed");
    expect(dismissalRefusal(enode, [{ currentStatus: "active", isDismissed: true }])).toBe("dismissed");
    expect(dismissalRefusal(enode, [{ currentStatus: "resolved", isDismissed: false }])).toBe("resolved");
    expect(dismissalRefusal(enode, [])).toBe("resolved");
    expect(dismissalRefusal(enode, [{ currentStatus: "processing", isDismissed: false }])).toBe("resolving");
  });
  it("has words for every refusal, none of them an error", () => {
    for (const text of Object.values(DISMISSAL_REFUSALS)) {
      expect(text.heading).not.toMatch(/fail|error/i);
      expect(text.instead.length).toBeGreaterThan(10);
    }
  });
});
