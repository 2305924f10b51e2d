/** Connection status label, badge and tooltip of a utility account (rule account-status-labels, docs/rules.md). */

export const ACCOUNT_STATUSES = [
  "NEW_ACCOUNT",
  "CONNECTION_IN_PROGRESS",
  "CONNECTION_SUCCESS",
  "DATA_ACCESS_FAILURE",
  "INACTIVE",
] as const;
export const ACCOUNT_STATUS_DETAILS = [
  "DATA_ACCESSIBLE",
  "ISSUE_UNDER_REVIEW",
  "CREDENTIAL_ISSUE",
  "NO_DATA_AVAILABLE",
  "NO_BILLS_DISCOVERED_AFTER_MOST_RECENT_NEXT_EXPECTED_POST_DATE",
  "NO_BILLS_DISCOVERED_AFTER_FINAL_BILL_NOTICE",
  "EMAIL_APPROVAL",
  "UNSUCCESSFUL_EMAIL_APPROVAL",
  "USER_REVOKED_ACCESS",
] as const;

export type AccountStatusBadge = "success" | "info" | "error";
export type AccountStatusView = { label: string; badge: AccountStatusBadge; tooltip: string | null };

export const ACCOUNT_STATUS_TOOLTIPS = {
  inProgress: "The connection is in progress.",
  emailApproval: "Please approve data sharing via connection email",
  credentialIssue: "The credentials used were invalid. Please reconnect.",
  emailApprovalTimedOut: "The email approval required for connection timed out. Please reconnect.",
  revoked: "The data sharing connection was revoked. Please reconnect.",
  noRecentBills: "This account shows no recent bill data.",
  finalBill: "Final bill received for this account.",
} as const;

/** The label, badge and tooltip for a status and detail; an unknown status reads 'Not Connected'. */
export function accountStatusView(
  status: string | null | undefined,
  detail: string | null | undefined,
): AccountStatusView {
  const t = ACCOUNT_STATUS_TOOLTIPS;
  switch (status) {
    case "CONNECTION_SUCCESS":
      return { label: "Connected", badge: "success", tooltip: null };
    case "NEW_ACCOUNT":
    case "CONNECTION_IN_PROGRESS":
      return detail === "EMAIL_APPROVAL"
        ? { label: "Email Approval Required", badge: "info", tooltip: t.emailApproval }
        : { label: "Processing", badge: "info", tooltip: t.inProgress };
    case "DATA_ACCESS_FAILURE":
      if (detail === "CREDENTIAL_ISSUE")
        return { label: "Invalid Credentials", badge: "error", tooltip: t.credentialIssue };
      if (detail === "UNSUCCESSFUL_EMAIL_APPROVAL")
        return { label: "Connection Failed", badge: "error", tooltip: t.emailApprovalTimedOut };
      if (detail === "USER_REVOKED_ACCESS")
        return { label: "Connection Failed", badge: "error", tooltip: t.revoked };
      return { label: "Connection Failed", badge: "error", tooltip: null };
    case "INACTIVE":
      if (detail === "NO_BILLS_DISCOVERED_AFTER_MOST_RECENT_NEXT_EXPECTED_POST_DATE")
        return { label: "Inactive", badge: "info", tooltip: t.noRecentBills };
      if (detail === "NO_BILLS_DISCOVERED_AFTER_FINAL_BILL_NOTICE")
        return { label: "Closed", badge: "info", tooltip: t.finalBill };
      return { label: "Not Connected", badge: "info", tooltip: null };
    default:
      return { label: "Not Connected", badge: "info", tooltip: null };
  }
}

/** True while the provider is still working on the account (the page offers a refresh). */
export const isConnectionPending = (status: string | null | undefined, detail: string | null | undefined) =>
  (status === "NEW_ACCOUNT" || status === "CONNECTION_IN_PROGRESS") && detail !== "EMAIL_APPROVAL";
