import { describe, expect, it } from "vitest";
import {
  ACCOUNT_STATUS_DETAILS,
  accountStatusView,
  isConnectionPending,
} from "~/features/accounts/account-status";

describe("accountStatusView", () => {
  it("is Connected for any detail of CONNECTION_SUCCESS", () => {
    for (const d of [...ACCOUNT_STATUS_DETAILS, null]) {
      expect(accountStatusView("CONNECTION_SUCCESS", d)).toEqual({
        label: "Connected",
        badge: "success",
        tooltip: null,
      });
    }
  });

  it.each(["NEW_ACCOUNT", "CONNECTION_IN_PROGRESS"])("%s: email approval or processing", (s) => {
    expect(accountStatusView(s, "EMAIL_APPROVAL")).toEqual({
      label: "Email Approval Required",
      badge: "info",
      tooltip: "Please approve data sharing via connection email",
    });
    for (const d of [null, "DATA_ACCESSIBLE", "ISSUE_UNDER_REVIEW"]) {
      expect(accountStatusView(s, d)).toEqual({
        label: "Processing",
        badge: "info",
        tooltip: "The connection is in progress.",
      });
    }
  });

  it("DATA_ACCESS_FAILURE: invalid credentials, or failed with the reason's tooltip", () => {
    expect(accountStatusView("DATA_ACCESS_FAILURE", "CREDENTIAL_ISSUE")).toEqual({
      label: "Invalid Credentials",
      badge: "error",
      tooltip: "The credentials used were invalid. Please reconnect.",
    });
    expect(accountStatusView("DATA_ACCESS_FAILURE", "UNSUCCESSFUL_EMAIL_APPROVAL")).toEqual({
      label: "Connection Failed",
      badge: "error",
      tooltip: "The email approval required for connection timed out. Please reconnect.",
    });
    expect(accountStatusView("DATA_ACCESS_FAILURE", "USER_REVOKED_ACCESS")).toEqual({
      label: "Connection Failed",
      badge: "error",
      tooltip: "The data sharing connection was revoked. Please reconnect.",
    });
    expect(accountStatusView("DATA_ACCESS_FAILURE", "NO_DATA_AVAILABLE")).toEqual({
      label: "Connection Failed",
      badge: "error",
      tooltip: null,
    });
    expect(accountStatusView("DATA_ACCESS_FAILURE", null).label).toBe("Connection Failed");
  });

  it("INACTIVE: inactive, closed or not connected", () => {
    expect(
      accountStatusView("INACTIVE", "NO_BILLS_DISCOVERED_AFTER_MOST_RECENT_NEXT_EXPECTED_POST_DATE"),
    ).toEqual({
      label: "Inactive",
      badge: "info",
      tooltip: "This account shows no recent bill data.",
    });
    expect(accountStatusView("INACTIVE", "NO_BILLS_DISCOVERED_AFTER_FINAL_BILL_NOTICE")).toEqual({
      label: "Closed",
      badge: "info",
      tooltip: "Final bill received for this account.",
    });
    expect(accountStatusView("INACTIVE", "ISSUE_UNDER_REVIEW")).toEqual({
      label: "Not Connected",
      badge: "info",
      tooltip: null,
    });
    expect(accountStatusView("INACTIVE", null).label).toBe("Not Connected");
  });

  it("an unknown status reads Not Connected", () => {
    expect(accountStatusView("SOMETHING_NEW", null)).toEqual({
      label: "Not Connected",
      badge: "info",
      tooltip: null,
    });
    expect(accountStatusView(undefined, undefined).label).toBe("Not Connected");
  });

  it("pending only while the provider works without waiting on an email approval", () => {
    expect(isConnectionPending("CONNECTION_IN_PROGRESS", null)).toBe(true);
    expect(isConnectionPending("NEW_ACCOUNT", "EMAIL_APPROVAL")).toBe(false);
    expect(isConnectionPending("CONNECTION_SUCCESS", "DATA_ACCESSIBLE")).toBe(false);
  });
});
