/**
 * Whether a thermostat issue may be dismissed by its user, and if not, why and what to do instead (rule
 * dismissal-offer, docs/rules.md). The control room's DISMISS button, the issue alert's "Dismiss this thermostat
 * issue" link and the dismissal page all ask this one function, so the email never offers what the api refuses
 * (spec part 2 §6: not for Airzone devices; hidden once dismissed or when the issue auto-resolves).
 */

export type DismissalRefusal = "airzone" | "autoresolves" | "dismissed" | "resolved" | "resolving";

export type DismissalThermostat = { vendor: string; issueAutoresolve: boolean };
export type DismissalIssue = { currentStatus: string; isDismissed: boolean };

/**
 * Null when the issue may be dismissed; otherwise the reason it may not. With no issue of that kind open on the
 * thermostat (`issues` empty or all resolved) the answer is "resolved".
 */
export function dismissalRefusal(
  thermostat: DismissalThermostat,
  issues: DismissalIssue[],
): DismissalRefusal | null {
  const open = issues.filter((i) => i.currentStatus !== "resolved");
  if (open.length === 0) return "resolved";
  if (open.every((i) => i.isDismissed || i.currentStatus === "dismissed")) return "dismissed";
  if (thermostat.vendor === "airzone") return "airzone";
  if (!open.some((i) => i.currentStatus === "active" || i.currentStatus === "failed")) return "resolving";
  if (thermostat.issueAutoresolve) return "autoresolves";
  return null;
}

/**
 * What the dismissal page (and the alert, in place of the link) says for each refusal: a heading, why, and
 * what to do instead. None of them is an error: they are the rules.
 */
export const DISMISSAL_REFUSALS: Record<DismissalRefusal, { heading: string; why: string; instead: string }> =
  {
    airzone: {
      heading: "This issue cannot be dismissed here",
      why: "Issues on Airzone thermostats cannot be resolved or dismissed in EnergyOps: Airzone manages them.",
      instead:
        "Check the thermostat's settings in its control room, or change them on the thermostat or in the Airzone app. If the issue is expected, tell our support team and we will take it off your list.",
    },
    autoresolves: {
      heading: "This issue clears by itself",
      why: "This thermostat's issues are resolved automatically once it is back to normal, so there is nothing to dismiss.",
      instead: "Check the thermostat in its control room; the issue goes away once its readings are normal.",
    },
    dismissed: {
      heading: "Already dismissed",
      why: "This issue is already dismissed. We no longer flag it for this thermostat.",
      instead: "Nothing more is needed. The thermostat's card in the control room shows it as dismissed.",
    },
    resolved: {
      heading: "This issue is resolved",
      why: "This issue is no longer open on this thermostat.",
      instead: "Nothing more is needed. The control room shows the thermostat's current status.",
    },
    resolving: {
      heading: "This issue is being resolved",
      why: "We are putting this thermostat back on its recommended schedule.",
      instead: "Nothing more is needed. The control room shows when it is done.",
    },
  };
