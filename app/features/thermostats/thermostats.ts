/** Pure rules of the thermostat control room (docs/rules.md, Thermostats). */

export type IssueStatus = "active" | "processing" | "failed" | "resolved" | "dismissed";
export type ActionStatus = "pending" | "success" | "fail";

export type ThermostatIssue = {
  id: number;
  issueSlug: string;
  issueCategory: string;
  currentStatus: IssueStatus;
  isDismissed: boolean;
  buildingId: number;
};

export type ThermostatAction = {
  id: number;
  thermostatId: number;
  status: ActionStatus;
  deviceSpecificData: { mode?: string | null; coolSetpointF?: number | null; heatSetpointF?: number | null };
  dispatchId: number | null;
  thermostatName: string;
  reason: string | null;
  createdAt: string;
  finishedAt: string | null;
};

export type ThermostatInfo = {
  thermostat: {
    id: number;
    buildingId: number;
    deviceName: string;
    vendor: string;
    status: number;
    issueAutoresolve: boolean;
    vendorData: Record<string, unknown>;
  };
  state: {
    tempIndoorF: number | null;
    mode: string | null;
    coolSetpointF: number | null;
    heatSetpointF: number | null;
    allowedModes: string[];
    lastSeen: string | null;
    minSetpointF: number;
    maxSetpointF: number;
    minAutoSpacingF: number;
    hasSchedule: boolean;
  };
  thermostatAction: ThermostatAction | null;
  isReachable: boolean;
  dispatch: { id: number; startTime: string; endTime: string; precoolStartTime: string | null } | null;
  issues: ThermostatIssue[];
};

export const UNLINKED_STATUS = -2;
export const POLL_INTERVAL_MS = 15_000;
export const MAX_POLLS = 20;

import { MESSAGES } from "./messages";
import type { CardStatus } from "../../../shared/status-labels";
import { dismissalRefusal } from "../../../shared/issue-dismissal";

// ---------------------------------------------------------------- modes

export const MODE_NAMES: Record<string, string> = {
  auto: "auto",
  cool: "cool",
  dehumidifier: "dry",
  emergencyheat: "EM heat",
  heat: "heat",
  ventilation: "fan",
  off: "off",
};

/** Display name of a thermostat mode (dehumidifier → dry, emergencyheat → EM heat, ventilation → fan). */
export function modeDisplayName(mode: string | null | undefined): string {
  if (!mode) return "unknown";
  return MODE_NAMES[mode] ?? mode;
}

// ---------------------------------------------------------------- brand, vendor

export function vendorLabel(vendor: string) {
  if (vendor === "enode") return "Enode";
  if (vendor === "airzone") return "Airzone";
  return vendor;
}

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v : null);
const obj = (v: unknown) => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});

/** Brand shown on a card: Enode's information brand, Airzone's manufacturer text. */
export function brandOf(t: Pick<ThermostatInfo["thermostat"], "vendor" | "vendorData">): string | null {
  if (t.vendor === "enode") return str(obj(t.vendorData.information).brand);
  if (t.vendor === "airzone") return str(obj(t.vendorData.manufacturer).text);
  return null;
}

/** Device model for staff detail. */
export function modelOf(t: Pick<ThermostatInfo["thermostat"], "vendor" | "vendorData">): string | null {
  if (t.vendor === "enode") return str(obj(t.vendorData.information).model);
  return str(t.vendorData.model);
}

// ---------------------------------------------------------------- issues

export const SCHEDULE_SLUGS = ["permanent_hold", "unchanging_schedule"] as const;
const ISSUE_CATEGORIES = ["schedule", "system_performance"];
/** Issue kinds a vendor can fix remotely (decided: schedule issues); the others can only be dismissed. */
export const RESOLVABLE_SLUGS: readonly string[] = SCHEDULE_SLUGS;

export const isDismissedIssue = (i: Pick<ThermostatIssue, "isDismissed" | "currentStatus">) =>
  i.isDismissed || i.currentStatus === "dismissed";
const isOpen = (i: ThermostatIssue) => i.currentStatus !== "resolved";

/**
 * The issue a card shows: permanent hold or unchanging schedule first, then system performance; a dismissed
 * schedule issue gives way to a system-performance issue unless that one is dismissed too.
 */
export function pickIssue(issues: ThermostatIssue[]): ThermostatIssue | null {
  const open = issues.filter(isOpen);
  const schedule =
    open.find((i) => i.issueSlug === "permanent_hold") ??
    open.find((i) => i.issueSlug === "unchanging_schedule") ??
    null;
  const performance = open.find((i) => i.issueCategory === "system_performance") ?? null;
  if (schedule) {
    if (isDismissedIssue(schedule) && performance && !isDismissedIssue(performance)) return performance;
    return schedule;
  }
  return performance;
}

// ---------------------------------------------------------------- card status

export const STATUS_EXPLANATIONS: Record<CardStatus, string> = {
  unlinked:
    "This thermostat is no longer linked to its vendor account, so we cannot read or change it. Reconnect it in the vendor's app to restore control.",
  unreachable:
    "We have not heard from this thermostat recently. Check that it has power and a working internet connection.",
  event:
    "A grid services event is in progress. The thermostat follows the event's setpoints until the event ends.",
  "schedule-unavailable":
    "We could not read a schedule from this thermostat, so we cannot tell whether it follows its recommended schedule.",
  resolving: "We are putting this thermostat back on its recommended schedule. This can take a few minutes.",
  dismissed: "This issue was dismissed. We will not flag it again unless it changes.",
  "inactive-schedule":
    "This thermostat is on a permanent hold: it ignores its schedule and keeps the same setpoints day and night.",
  "inefficient-schedule":
    "This thermostat's schedule does not change between open and closed hours, so it heats or cools an empty building.",
  "system-performance": "The heating or cooling system is not performing as expected for its setpoints.",
  "following-schedule": "This thermostat is following its recommended schedule.",
};

/** The card's display status, in priority order (rule card-status-priority, docs/rules.md). */
export function cardStatus(item: ThermostatInfo): CardStatus {
  if (item.thermostat.status === UNLINKED_STATUS) return "unlinked";
  if (!item.isReachable) return "unreachable";
  if (item.dispatch || item.thermostatAction?.dispatchId) return "event";
  if (!item.state.hasSchedule) return "schedule-unavailable";
  const issue = pickIssue(item.issues);
  if (!issue) return "following-schedule";
  if (issue.currentStatus === "processing") return "resolving";
  if (isDismissedIssue(issue)) return "dismissed";
  if (issue.issueSlug === "permanent_hold") return "inactive-schedule";
  if (issue.issueSlug === "unchanging_schedule") return "inefficient-schedule";
  if (issue.issueCategory === "system_performance") return "system-performance";
  return "following-schedule";
}

export type BorderColour = "grey" | "green" | "yellow" | "red" | "bright-green";

/** Card border: grey when unreachable, unlinked or without schedule; green in an event; then by the issue. */
export function borderColour(item: ThermostatInfo): BorderColour {
  const status = cardStatus(item);
  if (status === "unreachable" || status === "unlinked" || status === "schedule-unavailable") return "grey";
  if (status === "event") return "green";
  const issue = pickIssue(item.issues);
  if (!issue) return "bright-green";
  if (isDismissedIssue(issue)) return "grey";
  if (issue.currentStatus === "active") return item.thermostat.issueAutoresolve ? "yellow" : "red";
  if (issue.currentStatus === "processing") return "grey";
  if (issue.currentStatus === "failed") return "red";
  return "bright-green";
}

/** Devices with Issues: unreachable, unlinked, or a non-resolved schedule or system-performance issue with no dispatch. */
export function hasDeviceIssue(item: ThermostatInfo): boolean {
  if (!item.isReachable || item.thermostat.status === UNLINKED_STATUS) return true;
  if (item.dispatch) return false;
  return item.issues.some(
    (i) => ISSUE_CATEGORIES.includes(i.issueCategory) && i.currentStatus !== "resolved",
  );
}

/**
 * Whether a card offers Change settings and the server accepts Save for it (rule unlinked-no-change,
 * docs/rules.md): never for an unlinked device (status -2), which we can neither read nor change; the
 * answer is the refusal's message, or null when a change may be sent.
 */
export function settingsRefusal(item: Pick<ThermostatInfo, "thermostat">): string | null {
  return item.thermostat.status === UNLINKED_STATUS ? MESSAGES.unlinkedRefused : null;
}

/**
 * The warning Change settings opens with, or null: a device that is not responding (unreachable, but still
 * linked) accepts a change that may fail later, so the card says so before Save.
 */
export function settingsWarning(item: Pick<ThermostatInfo, "thermostat" | "isReachable">): string | null {
  if (settingsRefusal(item)) return null;
  return item.isReachable ? null : MESSAGES.unreachableChange;
}

/** Resolve Issue and DISMISS for the picked issue (rule resolve-dismiss-offer, docs/rules.md): never for Airzone; DISMISS hidden once dismissed or auto-resolving. */
export function issueActions(item: ThermostatInfo): {
  issue: ThermostatIssue | null;
  canResolve: boolean;
  canDismiss: boolean;
} {
  const issue = pickIssue(item.issues);
  const none = { issue, canResolve: false, canDismiss: false };
  if (!issue || item.thermostat.vendor === "airzone") return none;
  const open = issue.currentStatus === "active" || issue.currentStatus === "failed";
  if (!open || isDismissedIssue(issue)) return none;
  return {
    issue,
    canResolve: RESOLVABLE_SLUGS.includes(issue.issueSlug),
    canDismiss: dismissalRefusal(item.thermostat, [issue]) === null,
  };
}

/** "heat_setpoint_above_indoor_temp" → "Heat setpoint above indoor temp". */
export function issueLabel(slug: string) {
  const words = slug.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// ---------------------------------------------------------------- times

/**
 * The instants a location's cards write out, written by the server (`cardTimesOf` in control-room.server.ts): "last
 * seen" in New York time; receipts and event times in the building's own zone. The same maps on the server and
 * in the browser, so both render the same text, and the control room's JavaScript carries no date library.
 */
export type CardTimes = { lastSeen: Record<string, string>; local: Record<string, string> };

/** The cards' formatters over the server-written times: null for an instant the server did not write. */
export const timesFormatter = (times: CardTimes) => ({
  lastSeen: (iso: string | null | undefined): string | null =>
    (iso ? times.lastSeen[iso] : undefined) ?? null,
  local: (iso: string | null | undefined): string | null => (iso ? times.local[iso] : undefined) ?? null,
});

// ---------------------------------------------------------------- the setting form

export type DeviceLimits = {
  allowedModes: string[];
  minSetpointF: number;
  maxSetpointF: number;
  minAutoSpacingF: number;
};

export const limitsOf = (item: ThermostatInfo): DeviceLimits => ({
  allowedModes: item.state.allowedModes,
  minSetpointF: item.state.minSetpointF,
  maxSetpointF: item.state.maxSetpointF,
  minAutoSpacingF: item.state.minAutoSpacingF,
});

export type Settings = { mode: string; coolSetpointF: number; heatSetpointF: number };
export type CurrentSettings = {
  mode: string | null;
  coolSetpointF: number | null;
  heatSetpointF: number | null;
};

/**
 * What Save sends: only the changed fields, except in auto mode where the whole form goes.
 * An empty object means nothing changed (the form is not dirty).
 */
export function changedSettings(current: CurrentSettings, next: Settings): Partial<Settings> {
  const changed: Partial<Settings> = {};
  if (next.mode !== current.mode) changed.mode = next.mode;
  if (next.coolSetpointF !== current.coolSetpointF) changed.coolSetpointF = next.coolSetpointF;
  if (next.heatSetpointF !== current.heatSetpointF) changed.heatSetpointF = next.heatSetpointF;
  if (Object.keys(changed).length === 0) return changed;
  // Auto mode sends all three (the vendor checks the spacing); only these three: the form has other fields.
  if (next.mode === "auto")
    return { mode: next.mode, coolSetpointF: next.coolSetpointF, heatSetpointF: next.heatSetpointF };
  return changed;
}

/** The message after a failed Save: the server's error text when it gave one, otherwise the generic one. */
export function updateErrorMessage(error: { kind: string; message: string } | null | undefined): string {
  if (error && ["http", "validation", "errmsg", "forbidden"].includes(error.kind) && error.message.trim())
    return error.message;
  return MESSAGES.updateFailed;
}

/**
 * The toast of a Save that failed upstream (rule save-failure-toast, docs/rules.md): the same message as the card's
 * error, as an error toast; a reply without an upstream failure (the form's own errors, a success) has none.
 */
export function saveFailureToast(
  reply: { failure?: string } | null | undefined,
): { kind: "error"; message: string } | null {
  return reply?.failure ? { kind: "error", message: reply.failure } : null;
}

/** "mode cool, cool 74°F" — what a change asked for, for the card's receipt. */
export function describeChange(data: ThermostatAction["deviceSpecificData"]): string {
  const parts: string[] = [];
  if (data.mode) parts.push(`mode ${modeDisplayName(data.mode)}`);
  if (typeof data.coolSetpointF === "number") parts.push(`cool ${data.coolSetpointF}°F`);
  if (typeof data.heatSetpointF === "number") parts.push(`heat ${data.heatSetpointF}°F`);
  return parts.length ? parts.join(", ") : "no settings";
}

export const RECEIPT_STATUS: Record<ActionStatus, string> = {
  pending: "pending",
  success: "completed",
  fail: "failed",
};

/**
 * What a reader needs when a completed change and the device disagree (rule receipt-vs-reported-state,
 * docs/rules.md): the receipt says what was asked and that it completed; when the device now reports other
 * settings, this says what it reports and why the two differ, so the card does not contradict its receipt.
 * Null when the change is not completed or the device still has every asked setting.
 *
 * - a grid event's change sent before the event began, the event still on the card and started: the
 *   precooling step ended when the event began;
 * - a grid event's change whose event is no longer on the card: the event ended and the schedule resumed;
 * - any other completed change: the settings were changed since (at the device or by its schedule).
 */
export function receiptFollowUp(
  item: Pick<ThermostatInfo, "state" | "thermostatAction" | "dispatch">,
  nowMs: number,
  /** How an instant is written: in the building's zone (`cardTimesOf`), as the server wrote it. */
  formatTime: (iso: string) => string | null,
): string | null {
  const action = item.thermostatAction;
  if (!action || action.status !== "success") return null;
  const asked = action.deviceSpecificData;
  const { state } = item;
  const differs =
    (asked.mode != null && asked.mode !== state.mode) ||
    (typeof asked.coolSetpointF === "number" && asked.coolSetpointF !== state.coolSetpointF) ||
    (typeof asked.heatSetpointF === "number" && asked.heatSetpointF !== state.heatSetpointF);
  if (!differs) return null;
  const reported = `The thermostat now reports ${describeChange({
    mode: state.mode,
    coolSetpointF: state.coolSetpointF,
    heatSetpointF: state.heatSetpointF,
  })}`;
  if (action.dispatchId !== null) {
    const event = item.dispatch;
    if (event && event.id === action.dispatchId) {
      const began = Date.parse(event.startTime);
      if (began <= nowMs && Date.parse(action.createdAt) < began)
        return `${reported}: precooling ended when the event began (${formatTime(event.startTime)}).`;
      return `${reported}: the event has changed it since.`;
    }
    return `${reported}: the grid event has ended and the thermostat's schedule resumed.`;
  }
  return `${reported}: its settings were changed since, at the thermostat or by its schedule.`;
}

// ---------------------------------------------------------------- URL state

export type Tab = "all" | "issues";
export const parseTab = (v: string | null): Tab => (v === "issues" ? "issues" : "all");

/** The card's element id: the fragment Save's redirect carries, so the page opens on (and focuses) the card. */
export const cardAnchor = (thermostatId: number) => `thermostat-${thermostatId}`;
const CARD_ANCHOR = /^#thermostat-\d{1,12}$/;
/** The card a location's fragment names (`#thermostat-<id>`), or null. */
export const anchoredCard = (hash: string) => (CARD_ANCHOR.test(hash) ? hash.slice(1) : null);

/** `watch=<thermostatId>:<actionId>` names the change whose outcome the page reports. */
export function parseWatch(v: string | null): { thermostatId: number; actionId: number } | null {
  const m = /^(\d{1,12}):(\d{1,12})$/.exec(v ?? "");
  return m ? { thermostatId: Number(m[1]), actionId: Number(m[2]) } : null;
}

/** The no-JavaScript refresh counter `poll`, 0..MAX_POLLS. */
export function parsePoll(v: string | null): number {
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? Math.min(n, MAX_POLLS) : 0;
}
