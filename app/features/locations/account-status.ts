/** Utility account connection status (spec part 1 §4): the Bill Monitoring label, badge and tooltip. */
export type AccountStatus =
  "NEW_ACCOUNT" | "CONNECTION_IN_PROGRESS" | "CONNECTION_SUCCESS" | "DATA_ACCESS_FAILURE" | "INACTIVE";
export type AccountStatusDetail =
  | "DATA_ACCESSIBLE"
  | "ISSUE_UNDER_REVIEW"
  | "CREDENTIAL_ISSUE"
  | "NO_DATA_AVAILABLE"
  | "NO_BILLS_DISCOVERED_AFTER_MOST_RECENT_NEXT_EXPECTED_POST_DATE"
  | "NO_BILLS_DISCOVERED_AFTER_FINAL_BILL_NOTICE"
  | "EMAIL_APPROVAL"
  | "UNSUCCESSFUL_EMAIL_APPROVAL"
  | "USER_REVOKED_ACCESS";

export type ConnectionBadge = "success" | "info" | "error";
export type ConnectionStatusView = { label: string; badge: ConnectionBadge; tooltip: string | null };

const RECONNECT_TOOLTIPS: Partial<Record<string, string>> = {
  CREDENTIAL_ISSUE: "The credentials used were invalid. Please reconnect.",
  UNSUCCESSFUL_EMAIL_APPROVAL: "The email approval required for connection timed out. Please reconnect.",
  USER_REVOKED_ACCESS: "The data sharing connection was revoked. Please reconnect.",
};

/** The label, badge and tooltip of an account's connection (the table of spec part 1 §4, word for word). */
export function connectionStatus(
  status: string | null | undefined,
  detail: string | null | undefined,
): ConnectionStatusView {
  switch (status) {
    case "CONNECTION_SUCCESS":
      return { label: "Connected", badge: "success", tooltip: null };
    case "NEW_ACCOUNT":
    case "CONNECTION_IN_PROGRESS":
      return detail === "EMAIL_APPROVAL"
        ? {
            label: "Email Approval Required",
            badge: "info",
            tooltip: "Please approve data sharing via connection email",
          }
        : { label: "Processing", badge: "info", tooltip: "The connection is in progress." };
    case "DATA_ACCESS_FAILURE":
      return detail === "CREDENTIAL_ISSUE"
        ? { label: "Invalid Credentials", badge: "error", tooltip: RECONNECT_TOOLTIPS.CREDENTIAL_ISSUE! }
        : {
            label: "Connection Failed",
            badge: "error",
            tooltip: (detail && RECONNECT_TOOLTIPS[detail]) ?? null,
          };
    case "INACTIVE":
      if (detail === "NO_BILLS_DISCOVERED_AFTER_MOST_RECENT_NEXT_EXPECTED_POST_DATE") {
        return { label: "Inactive", badge: "info", tooltip: "This account shows no recent bill data." };
      }
      if (detail === "NO_BILLS_DISCOVERED_AFTER_FINAL_BILL_NOTICE") {
        return { label: "Closed", badge: "info", tooltip: "Final bill received for this account." };
      }
      return {
        label: "Not Connected",
        badge: "info",
        tooltip: (detail && RECONNECT_TOOLTIPS[detail]) ?? null,
      };
    default:
      return { label: "Not Connected", badge: "info", tooltip: null };
  }
}
