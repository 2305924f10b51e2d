import { describe, expect, it } from "vitest";
import {
  applyAccountListOp,
  conedStepErrors,
  connectSequence,
  connectUrl,
  credentialsSchema,
  filterUtilities,
  nextConnectStep,
  parseAccountListOp,
  reconnectHref,
  resolveConnectStep,
  shouldSendTaskStep,
  recordsFlowOpening,
  soleUtilityMatch,
  utilityFilterStatus,
  CONNECT_MESSAGES,
} from "~/features/accounts/accounts";
import { connectWidgetConfig } from "~/features/accounts/utility-connect";

const U = (name: string, id: string) => ({ name, arcadiaProviderId: id });
const utilities = [
  U("Consolidated Edison (ConEd)", "prov_coned"),
  U("Commonwealth Edison (ComEd)", "prov_comed"),
  U("Duke Energy", "prov_duke"),
];

describe("filterUtilities", () => {
  it("lists everything with 'Start typing' before anything is typed", () => {
    expect(filterUtilities(utilities, "")).toEqual({ items: utilities, message: "Start typing" });
    expect(filterUtilities(utilities, "   ").message).toBe("Start typing");
    expect(filterUtilities(utilities, null).message).toBe("Start typing");
  });
  it("does not filter under 3 characters", () => {
    expect(filterUtilities(utilities, "du")).toEqual({
      items: utilities,
      message: "Type at least 3 characters",
    });
  });
  it("filters from 3 characters, case-insensitively, every word", () => {
    expect(filterUtilities(utilities, "EDI").items.map((u) => u.arcadiaProviderId)).toEqual([
      "prov_coned",
      "prov_comed",
    ]);
    expect(filterUtilities(utilities, "edison comm").items.map((u) => u.arcadiaProviderId)).toEqual([
      "prov_comed",
    ]);
    expect(filterUtilities(utilities, "duke").message).toBeNull();
  });
  it("says 'No utilities found' and keeps the selected one listed", () => {
    expect(filterUtilities(utilities, "zzz")).toEqual({ items: [], message: "No utilities found" });
    const kept = filterUtilities(utilities, "zzz", "prov_duke");
    expect(kept.items.map((u) => u.arcadiaProviderId)).toEqual(["prov_duke"]);
    expect(kept.message).toBe("No utilities found");
  });
});

describe("soleUtilityMatch", () => {
  it("is the one utility a search of 3 characters or more finds", () => {
    expect(soleUtilityMatch(utilities, "duke")?.arcadiaProviderId).toBe("prov_duke");
    expect(soleUtilityMatch(utilities, "  EDISON comm ")?.arcadiaProviderId).toBe("prov_comed");
  });
  it("is nothing when the search finds none or several, or is too short to filter", () => {
    expect(soleUtilityMatch(utilities, "edison")).toBeNull();
    expect(soleUtilityMatch(utilities, "zzz")).toBeNull();
    expect(soleUtilityMatch([U("Duke Energy", "prov_duke")], "du")).toBeNull();
    expect(soleUtilityMatch(utilities, null)).toBeNull();
  });
});

describe("utilityFilterStatus", () => {
  it("counts what the search found, and names the one it selected", () => {
    expect(utilityFilterStatus(filterUtilities(utilities, "edison"), null)).toBe("2 utilities found");
    expect(utilityFilterStatus(filterUtilities(utilities, "duke"), null)).toBe("1 utility found");
    expect(utilityFilterStatus(filterUtilities(utilities, "duke"), utilities[2])).toBe(
      "1 utility found, Duke Energy selected",
    );
  });
  it("keeps the spec's messages", () => {
    expect(utilityFilterStatus(filterUtilities(utilities, ""), null)).toBe("Start typing");
    expect(utilityFilterStatus(filterUtilities(utilities, "du"), null)).toBe("Type at least 3 characters");
    expect(utilityFilterStatus(filterUtilities(utilities, "zzz"), null)).toBe("No utilities found");
  });
});

describe("connect steps", () => {
  const base = { accounts: [] as string[], confirmed: false, hasReceipt: false };
  it("has two sequences", () => {
    expect(connectSequence(false)).toEqual([
      "select_utility",
      "review_accounts",
      "connect_arcadia",
      "success",
    ]);
    expect(connectSequence(true)).toEqual([
      "select_utility",
      "enter_coned_credentials",
      "connect_arcadia",
      "success",
    ]);
  });
  it("moves forward per sequence", () => {
    expect(nextConnectStep("select_utility", false)).toBe("review_accounts");
    expect(nextConnectStep("review_accounts", false)).toBe("connect_arcadia");
    expect(nextConnectStep("connect_arcadia", false)).toBe("success");
    expect(nextConnectStep("success", false)).toBe("success");
    expect(nextConnectStep("select_utility", true)).toBe("enter_coned_credentials");
    expect(nextConnectStep("review_accounts", true)).toBe("connect_arcadia");
    expect(nextConnectStep("enter_coned_credentials", false)).toBe("connect_arcadia");
  });
  it("falls back to selecting a utility without one", () => {
    expect(resolveConnectStep("connect_arcadia", { ...base, utility: null })).toBe("select_utility");
    expect(resolveConnectStep(null, { ...base, utility: { isConed: false } })).toBe("select_utility");
    expect(resolveConnectStep("bogus", { ...base, utility: { isConed: false } })).toBe("select_utility");
  });
  it("routes a regular utility through review", () => {
    const s = { ...base, utility: { isConed: false } };
    expect(resolveConnectStep("review_accounts", s)).toBe("review_accounts");
    expect(resolveConnectStep("enter_coned_credentials", s)).toBe("review_accounts");
    expect(resolveConnectStep("connect_arcadia", s)).toBe("connect_arcadia");
  });
  it("keeps a ConEd utility on account numbers until it has accounts and the checkbox", () => {
    const s = { ...base, utility: { isConed: true } };
    expect(resolveConnectStep("review_accounts", s)).toBe("enter_coned_credentials");
    expect(resolveConnectStep("connect_arcadia", s)).toBe("enter_coned_credentials");
    expect(resolveConnectStep("connect_arcadia", { ...s, accounts: ["1234"] })).toBe(
      "enter_coned_credentials",
    );
    expect(resolveConnectStep("connect_arcadia", { ...s, accounts: ["1234"], confirmed: true })).toBe(
      "connect_arcadia",
    );
  });
  it("shows success only with a receipt", () => {
    expect(resolveConnectStep("success", { ...base, utility: null, hasReceipt: true })).toBe("success");
    expect(resolveConnectStep("success", { ...base, utility: null })).toBe("select_utility");
    expect(resolveConnectStep("success", { ...base, utility: { isConed: true } })).toBe(
      "enter_coned_credentials",
    );
  });
  it("builds the step URLs", () => {
    expect(connectUrl({})).toBe("/authorize-arcadia");
    expect(
      connectUrl({
        step: "enter_coned_credentials",
        utility: "prov_coned",
        accounts: ["1 2", "3"],
        confirmed: true,
      }),
    ).toBe(
      "/authorize-arcadia?step=enter_coned_credentials&utility=prov_coned&account=1+2&account=3&confirmed=on",
    );
  });
});

describe("ConEd account list", () => {
  it("adds valid, unique numbers and removes by index", () => {
    expect(applyAccountListOp([], { op: "add", value: "  29-4410  8801 " })).toEqual({
      accounts: ["29-4410 8801"],
      error: null,
    });
    expect(applyAccountListOp(["1234"], { op: "add", value: "1234" }).error).toBe(
      CONNECT_MESSAGES.duplicateAccount,
    );
    expect(applyAccountListOp(["1234"], { op: "add", value: "12" }).error).toBe(
      CONNECT_MESSAGES.badAccountNumber,
    );
    expect(applyAccountListOp(["1234"], { op: "add", value: "12$4" }).accounts).toEqual(["1234"]);
    expect(applyAccountListOp(["1111", "2222", "3333"], { op: "remove", index: 1 }).accounts).toEqual([
      "1111",
      "3333",
    ]);
  });
  it("parses the list buttons", () => {
    expect(parseAccountListOp("add", "x")).toEqual({ op: "add", value: "x" });
    expect(parseAccountListOp("remove-3", null)).toEqual({ op: "remove", index: 3 });
    expect(parseAccountListOp("continue", null)).toEqual({ op: "none" });
    expect(parseAccountListOp(null, null)).toEqual({ op: "none" });
  });
  it("requires accounts and the contact-email checkbox", () => {
    expect(conedStepErrors([], false)).toEqual({
      accounts: CONNECT_MESSAGES.noAccounts,
      confirmed: "Required",
    });
    expect(conedStepErrors(["1234"], true)).toEqual({});
  });
});

describe("credentials", () => {
  it("requires the MFA checkbox unless the provider is exempt", () => {
    expect(credentialsSchema(false).safeParse({ username: "a", password: "b" }).success).toBe(false);
    expect(
      credentialsSchema(false).safeParse({ username: "a", password: "b", mfaAcknowledged: "on" }).success,
    ).toBe(true);
    expect(credentialsSchema(true).safeParse({ username: "a", password: "b" }).success).toBe(true);
    expect(credentialsSchema(true).safeParse({ username: " ", password: "b" }).success).toBe(false);
  });
  it("sends task codes 1 and 2 for non-staff users only", () => {
    expect(shouldSendTaskStep({ isStaff: false }, 1)).toBe(true);
    expect(shouldSendTaskStep({ isStaff: false }, 2)).toBe(true);
    expect(shouldSendTaskStep({ isStaff: false }, 5)).toBe(false);
    expect(shouldSendTaskStep({ isStaff: true }, 1)).toBe(false);
  });
  it("a GET of the flow records its opening for a client's user, never for staff, a prefetch or a subresource", () => {
    const client = { isStaff: false, clientId: 2 };
    const req = (method: string, headers: Record<string, string> = {}) => ({
      method,
      headers: new Headers(headers),
    });
    expect(recordsFlowOpening(req("GET"), client)).toBe(true);
    expect(recordsFlowOpening(req("GET", { "sec-fetch-dest": "document" }), client)).toBe(true);
    expect(recordsFlowOpening(req("GET", { "sec-fetch-dest": "empty" }), client)).toBe(true);
    expect(recordsFlowOpening(req("GET"), { isStaff: true, clientId: 2 })).toBe(false);
    expect(recordsFlowOpening(req("GET"), { isStaff: false, clientId: null })).toBe(false);
    expect(recordsFlowOpening(req("HEAD"), client)).toBe(false);
    expect(recordsFlowOpening(req("GET", { "sec-purpose": "prefetch" }), client)).toBe(false);
    expect(recordsFlowOpening(req("GET", { purpose: "prefetch" }), client)).toBe(false);
    expect(recordsFlowOpening(req("GET", { "sec-purpose": "prefetch;prerender" }), client)).toBe(false);
    expect(recordsFlowOpening(req("GET", { "sec-fetch-dest": "image" }), client)).toBe(false);
    expect(recordsFlowOpening(req("GET", { "sec-fetch-dest": "script" }), client)).toBe(false);
  });
  it("turns the provider's reconnect address into a link", () => {
    expect(
      reconnectHref(
        "http://elsewhere.test/authorize-arcadia?utility=prov_comed&credential=3",
        "http://app.test",
      ),
    ).toBe("/authorize-arcadia?utility=prov_comed&credential=3");
    expect(reconnectHref("https://provider.test/reconnect/abc", "http://app.test")).toBe(
      "https://provider.test/reconnect/abc",
    );
    expect(reconnectHref("javascript:alert(1)", "http://app.test")).toBe("/authorize-arcadia");
  });
  it("picks the widget implementation from config: the provider's Connect by default", () => {
    expect(connectWidgetConfig({ UTILITY_CONNECT_WIDGET: "builtin" })).toEqual({ kind: "builtin" });
    expect(connectWidgetConfig({ UTILITY_CONNECT_WIDGET: "provider" })).toEqual({
      kind: "provider",
      scriptUrl: "https://connect-main.prod.arcadia.com/dist/v5.js",
    });
    expect(
      connectWidgetConfig({
        UTILITY_CONNECT_WIDGET: "provider",
        ARCADIA_CONNECT_SCRIPT_URL: "http://127.0.0.1:3001/arcadia-sim/dist/v5.js",
      }),
    ).toEqual({ kind: "provider", scriptUrl: "http://127.0.0.1:3001/arcadia-sim/dist/v5.js" });
  });
  it("gives demo mode the built-in form: the provider's Connect would not know a provider id stand-in", () => {
    expect(connectWidgetConfig({ UTILITY_CONNECT_WIDGET: "provider" }, true)).toEqual({ kind: "builtin" });
  });
});
