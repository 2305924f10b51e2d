import { describe, expect, it } from "vitest";
import { connectActionSchema } from "../../app/features/accounts/connect-action.server";
import { connectVerdictEmail } from "../../api/mail/connect-verdict";

const submitted = (status?: string) =>
  connectActionSchema.parse({
    intent: "provider-connected",
    utility: "prov_duke",
    correlationId: "c-1",
    utilityCredentialId: "uc_1",
    ...(status === undefined ? {} : { status }),
  });

describe("rule connect-close-outcome", () => {
  it("keeps how Connect ended, and takes anything else as pending", () => {
    for (const status of ["verified", "rejected", "timed_out"])
      expect(submitted(status)).toMatchObject({ status });
    expect(submitted("pending")).toMatchObject({ status: "pending" });
    expect(submitted()).toMatchObject({ status: "pending" });
    expect(submitted("no_submit")).toMatchObject({ status: "pending" });
    expect(submitted("<script>")).toMatchObject({ status: "pending" });
  });
});

describe("rule connect-verdict-email", () => {
  const base = { baseUrl: "https://app.example.com", firstName: "Dana", utility: "Duke Energy" };
  it("says what the app says for the verdict and links to the accounts page", () => {
    const rejected = connectVerdictEmail({ ...base, verdict: "rejected" });
    expect(rejected.subject).toBe("Reconnect your Duke Energy login");
    expect(JSON.stringify(rejected.blocks)).toContain("The credentials used were invalid. Please reconnect.");
    expect(JSON.stringify(rejected.blocks)).toContain("https://app.example.com/accounts");
    const late = connectVerdictEmail({ ...base, verdict: "timed_out" });
    expect(JSON.stringify(late.blocks)).toContain("The connection timed out. Please try again.");
    const ok = connectVerdictEmail({ ...base, verdict: "verified" });
    expect(ok.subject).toBe("Your Duke Energy login is connected");
    expect(JSON.stringify(ok.blocks)).toContain("https://app.example.com/accounts");
  });
});
