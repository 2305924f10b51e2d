import { describe, expect, it } from "vitest";
import {
  alertEmailRoom,
  billFlagAlertable,
  groupAlerts,
  issueSendKey,
  type AlertKind,
  digestDue,
  homeTimeZone,
  issueAlertKind,
  issueAlertable,
  monthlyPeriod,
  notificationKey,
  roomUnderLimit,
  wantsKind,
  weeklyPeriod,
} from "../../api/domain/notifications";

const at = (iso: string) => Date.parse(iso);
const NY = "America/New_York";
const DAY = 86_400_000;

describe("weeklyPeriod: Monday 07:00 in the client's home time zone", () => {
  it("a Wednesday belongs to the Monday before it", () => {
    const p = weeklyPeriod(at("2026-11-18T19:30:00Z"), NY);
    expect(p.key).toBe("2026-11-16");
    expect(new Date(p.dueAtMs).toISOString()).toBe("2026-11-16T12:00:00.000Z"); // 07:00 EST
    expect([p.from, p.to, p.beforeFrom]).toEqual(["2026-11-09", "2026-11-16", "2026-11-02"]);
    expect(digestDue(p, at("2026-11-18T19:30:00Z"))).toBe(false);
  });

  it("Monday before 07:00 local is still last week's; at 07:00 it is due", () => {
    expect(weeklyPeriod(at("2026-11-16T11:59:00Z"), NY).key).toBe("2026-11-09");
    const p = weeklyPeriod(at("2026-11-16T12:00:00Z"), NY);
    expect(p.key).toBe("2026-11-16");
    expect(digestDue(p, at("2026-11-16T12:00:00Z"))).toBe(true);
    expect(digestDue(p, at("2026-11-17T04:59:00Z"))).toBe(true); // 23:59 local Monday
    expect(digestDue(p, at("2026-11-17T05:00:00Z"))).toBe(false); // Tuesday local
  });

  it("DST: 07:00 local on the Monday after the spring change is 11:00 UTC, after the fall change 12:00 UTC", () => {
    expect(new Date(weeklyPeriod(at("2026-03-09T15:00:00Z"), NY).dueAtMs).toISOString()).toBe(
      "2026-03-09T11:00:00.000Z",
    );
    expect(new Date(weeklyPeriod(at("2026-11-02T15:00:00Z"), NY).dueAtMs).toISOString()).toBe(
      "2026-11-02T12:00:00.000Z",
    );
  });

  it("the same instant is Monday in Tokyo and Sunday in Los Angeles", () => {
    const now = at("2026-11-16T00:30:00Z"); // Mon 09:30 Tokyo, Sun 16:30 Los Angeles
    expect(weeklyPeriod(now, "Asia/Tokyo").key).toBe("2026-11-16");
    expect(digestDue(weeklyPeriod(now, "Asia/Tokyo"), now)).toBe(true);
    expect(weeklyPeriod(now, "America/Los_Angeles").key).toBe("2026-11-09");
    expect(digestDue(weeklyPeriod(now, "America/Los_Angeles"), now)).toBe(false);
  });
});

describe("monthlyPeriod: the 1st at 07:00 local, recapping the month before", () => {
  it("mid-month belongs to the 1st; covers last month", () => {
    const p = monthlyPeriod(at("2026-11-18T19:30:00Z"), NY);
    expect(p.key).toBe("2026-11-01");
    expect([p.from, p.to]).toEqual(["2026-10-01", "2026-11-01"]);
    expect(digestDue(p, at("2026-11-18T19:30:00Z"))).toBe(false);
  });
  it("January's recap covers December; due on the 1st from 07:00 EST", () => {
    const p = monthlyPeriod(at("2027-01-01T12:00:00Z"), NY);
    expect([p.key, p.from, p.to]).toEqual(["2027-01-01", "2026-12-01", "2027-01-01"]);
    expect(digestDue(p, at("2027-01-01T12:00:00Z"))).toBe(true);
    expect(monthlyPeriod(at("2027-01-01T11:59:00Z"), NY).key).toBe("2026-12-01");
  });
  it("DST: 1 November 07:00 in New York is 12:00 UTC (EST since that night)", () => {
    expect(new Date(monthlyPeriod(at("2026-11-01T13:00:00Z"), NY).dueAtMs).toISOString()).toBe(
      "2026-11-01T12:00:00.000Z",
    );
  });
});

describe("who gets what", () => {
  it("only with the email preference on; missing counts as off", () => {
    expect(wantsKind([{ type: "bill_flag", enabled: true }], "bill_flag")).toBe(true);
    expect(wantsKind([{ type: "bill_flag", enabled: false }], "bill_flag")).toBe(false);
    expect(wantsKind([{ type: "weekly_rundown", enabled: true }], "bill_flag")).toBe(false);
  });
  it("comfort issues are Customer Comfort Alerts, the rest device issues", () => {
    expect(issueAlertKind("heat_setpoint_above_indoor_temp")).toBe("customer_comfort");
    expect(issueAlertKind("extreme_indoor_temperature")).toBe("customer_comfort");
    expect(issueAlertKind("permanent_hold")).toBe("device_issue");
    expect(issueAlertKind("device_communication_issues")).toBe("device_issue");
  });
  it("a flag is alerted when unacknowledged, shown to users, not a change to us, and recent", () => {
    const now = at("2026-11-18T00:00:00Z");
    const f = { type: "supplier_change", status: "unacknowledged", updatedAtMs: now - DAY };
    expect(billFlagAlertable(f, "Direct Energy", "EnergyOps", now)).toBe(true);
    expect(billFlagAlertable(f, "EnergyOps Energy Services", "EnergyOps", now)).toBe(false);
    expect(billFlagAlertable({ ...f, status: "dismissed" }, null, "EnergyOps", now)).toBe(false);
    expect(billFlagAlertable({ ...f, type: "zero_meter_read" }, null, "EnergyOps", now)).toBe(false);
    expect(billFlagAlertable({ ...f, updatedAtMs: now - 15 * DAY }, null, "EnergyOps", now)).toBe(false);
    expect(billFlagAlertable({ ...f, type: "rate_class_change" }, "EnergyOps", "EnergyOps", now)).toBe(true);
  });
  it("an issue is alerted while open, not dismissed and recent", () => {
    const now = at("2026-11-18T00:00:00Z");
    const i = { currentStatus: "active", isDismissed: false, createdAtMs: now - DAY };
    expect(issueAlertable(i, now)).toBe(true);
    expect(issueAlertable({ ...i, currentStatus: "failed" }, now)).toBe(true);
    expect(issueAlertable({ ...i, currentStatus: "resolved" }, now)).toBe(false);
    expect(issueAlertable({ ...i, isDismissed: true }, now)).toBe(false);
    expect(issueAlertable({ ...i, createdAtMs: now - 20 * DAY }, now)).toBe(false);
  });
  it("the home time zone is the first location's", () => {
    expect(
      homeTimeZone([
        { id: 7, timezone: "America/Chicago" },
        { id: 3, timezone: "America/Denver" },
      ]),
    ).toBe("America/Denver");
    expect(homeTimeZone([])).toBeNull();
  });
});

describe("exactly-once keys and limits", () => {
  it("one key per flag, issue or period", () => {
    expect(notificationKey({ flagId: 7001 })).toBe("flag:7001");
    expect(notificationKey({ issueId: 3 })).toBe("issue:3");
    expect(notificationKey({ period: "2026-11-16" })).toBe("period:2026-11-16");
    expect(notificationKey({ flagId: 3 })).not.toBe(notificationKey({ issueId: 3 }));
  });
  it("5 alerts of a kind a day; one rundown in 6 days", () => {
    const now = at("2026-11-18T12:00:00Z");
    const four = [1, 2, 3, 4].map((h) => now - h * 3_600_000);
    expect(roomUnderLimit("bill_flag", four, now)).toBe(1);
    expect(roomUnderLimit("bill_flag", [...four, now - 5 * 3_600_000], now)).toBe(0);
    expect(roomUnderLimit("bill_flag", [...four, now - 25 * 3_600_000], now)).toBe(1);
    expect(roomUnderLimit("weekly_rundown", [now - 7 * DAY], now)).toBe(1);
    expect(roomUnderLimit("weekly_rundown", [now - 5 * DAY], now)).toBe(0);
  });
});

describe("alert runs: grouping, the daily cap in emails, re-sends", () => {
  const now = at("2026-11-18T19:30:00Z");
  const HOUR = 3_600_000;
  const open = { id: 7, currentStatus: "active", isDismissed: false, createdAtMs: now - 2 * DAY };

  it("re-sends a still-open comfort issue after a day, a device issue after a week, a bill flag never", () => {
    expect(issueSendKey("customer_comfort", open, [], now)).toEqual({ key: "issue:7", reminder: false });
    expect(issueSendKey("customer_comfort", open, [now - 23 * HOUR], now)).toBeNull();
    expect(issueSendKey("customer_comfort", open, [now - 2 * DAY, now - 25 * HOUR], now)).toEqual({
      key: "issue:7#3",
      reminder: true,
    });
    expect(issueSendKey("device_issue", open, [now - 6 * DAY], now)).toBeNull();
    expect(issueSendKey("device_issue", open, [now - 7 * DAY], now)).toEqual({
      key: "issue:7#2",
      reminder: true,
    });
    expect(issueSendKey("bill_flag", open, [now - 30 * DAY], now)).toBeNull();
  });

  it("never re-sends a dismissed or closed issue; a first alert only while it is news", () => {
    const dismissed = { ...open, isDismissed: true };
    expect(issueSendKey("customer_comfort", dismissed, [now - 2 * DAY], now)).toBeNull();
    expect(
      issueSendKey("customer_comfort", { ...open, currentStatus: "resolved" }, [now - 2 * DAY], now),
    ).toBeNull();
    expect(issueSendKey("customer_comfort", { ...open, createdAtMs: now - 20 * DAY }, [], now)).toBeNull();
  });

  it("caps alert emails, not findings: three a day; once full, the next from when the oldest is a day old", () => {
    expect(alertEmailRoom([], now)).toEqual({ room: 3, nextAtMs: null });
    // Findings of one email share its instant: two emails, not four findings.
    expect(alertEmailRoom([now - HOUR, now - HOUR, now - 2 * HOUR, now - 2 * HOUR], now).room).toBe(1);
    expect(alertEmailRoom([now - 5 * HOUR, now - 3 * HOUR, now - HOUR], now)).toEqual({
      room: 0,
      nextAtMs: now + 19 * HOUR,
    });
    expect(alertEmailRoom([now - 25 * HOUR, now - 3 * HOUR, now - HOUR], now).room).toBe(1);
  });

  it("orders by location, then kind (comfort, device, bill), then as found; all of the run in one email", () => {
    const f = (name: string, kind: AlertKind, n: number) => ({ location: { name }, kind, n });
    const items = groupAlerts([
      f("B", "bill_flag", 1),
      f("A", "bill_flag", 2),
      f("B", "customer_comfort", 3),
      f("A", "device_issue", 4),
      f("A", "bill_flag", 5),
    ]);
    expect(items.map((i) => i.n)).toEqual([4, 2, 5, 3, 1]);
    // Fifteen findings: fifteen in the email, none left for a "next email".
    expect(groupAlerts(Array.from({ length: 15 }, (_, i) => f("A", "bill_flag", i)))).toHaveLength(15);
  });
});
