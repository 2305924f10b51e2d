import { parseWithZod } from "@conform-to/zod";
import { feedbackHeading } from "~/features/bills/feedback";
import { describe, expect, it } from "vitest";
import {
  billUsageHref,
  billWindow,
  answerRecordText,
  chartBills,
  flagAnswerView,
  FLAG_UPDATE_FAILED,
  FLAG_MAYBE_APPLIED,
  flagErrorLines,
  formatMoney,
  formatRate,
  groupHeading,
  groupPillStatus,
  pillTone,
  visibleFlags,
} from "~/features/bills/bills";
import { flagAnswerSchema } from "~/features/bills/spending-form";
import {
  answersOpen,
  decideFlagAnswer,
  FLAG_ANSWER_LIMIT,
  flagCopy,
  flagHeading,
} from "../../shared/bill-flags";
import { action as spendingAction } from "~/routes/_app.locations.$locationId.spending";
import { commitSession, newSession } from "~/server/upstream/session.server";
import { DANA_SESSION_USER } from "../support/session-users";

describe("flag headings", () => {
  it("supplier change by status", () => {
    expect(flagHeading({ type: "supplier_change", status: "unacknowledged" })).toBe(
      "Please verify energy supplier change",
    );
    expect(flagHeading({ type: "supplier_change", status: "action_requested" })).toBe(
      "Help Request Received — We're on it!",
    );
    expect(flagHeading({ type: "supplier_change", status: "dismissed" })).toBe("New supplier verified");
    expect(flagHeading({ type: "supplier_change", status: "completed" })).toBe("New supplier verified");
  });
  it("rate class change by status", () => {
    expect(flagHeading({ type: "rate_class_change", status: "unacknowledged" })).toBe(
      "Your utility delivery rate increased",
    );
    for (const status of ["action_requested", "dismissed", "completed"]) {
      expect(flagHeading({ type: "rate_class_change", status })).toBe("Utility delivery rate class updated");
    }
  });
  it("a closed investigation is headed and explained by its outcome", () => {
    const supplier = { type: "supplier_change", status: "completed" };
    const price = { kind: "priced" as const, cents: 7427, change: { before: 1260, after: 1421 } };
    const credit = { price, outcome: { outcome: "credit_received" as const, creditCents: 6840 } };
    expect(flagHeading(supplier, credit)).toBe("Investigated: credit of $68.40 received");
    expect(flagCopy(supplier, "Direct Energy Business", credit)).toBe(
      "We investigated the change of supplier to Direct Energy Business and the utility credited this account $68.40 of the $74.27 at stake.",
    );
    const correct = { price, outcome: { outcome: "billing_correct" as const, creditCents: null } };
    expect(flagHeading(supplier, correct)).toBe("Investigated: the billing was correct");
    expect(flagCopy({ type: "rate_class_change", status: "completed" }, null, correct)).toBe(
      "We investigated the delivery rate class change: the billing was correct.",
    );
    const client = { price, outcome: { outcome: "closed_by_client" as const, creditCents: null } };
    expect(flagHeading({ type: "rate_class_change", status: "completed" }, client)).toBe(
      "Closed at your request",
    );
    expect(flagCopy(supplier, "Direct Energy Business", client)).toBe(
      "The investigation of the change of supplier to Direct Energy Business was closed at your request.",
    );
    // Not "New supplier verified … is confirmed as the energy supplier": that is a dismissed flag's words.
    expect(flagCopy(supplier, "Direct Energy Business", credit)).not.toContain("confirmed");
  });
  it("a rate class change is headed by what its bill shows, with the measured change", () => {
    const flag = { type: "rate_class_change", status: "unacknowledged" };
    const noRise = {
      price: { kind: "no_rise" as const, cents: null, change: { before: 1450, after: 1421 } },
    };
    expect(flagHeading(flag, noRise)).toBe("Your utility changed this account's rate class");
    expect(flagCopy(flag, null, noRise)).toContain(
      "On this bill the rate per kWh did not rise: it went from $0.1450 to $0.1421 per kWh (−2.0%).",
    );
    const rise = { price: { kind: "priced" as const, cents: 609, change: { before: 1612, after: 1616 } } };
    expect(flagHeading(flag, rise)).toBe("Your utility delivery rate increased");
    expect(flagCopy(flag, null, rise)).toContain("rose from $0.1612 to $0.1616 per kWh (+0.2%)");
    expect(flagCopy({ ...flag, status: "action_requested" }, null, rise)).not.toContain("50-70%");
  });
  it("group heading", () => {
    const f = (...statuses: string[]) => statuses.map((status) => ({ status }));
    expect(groupHeading(f("unacknowledged", "unacknowledged"))).toBe(
      "We have detected 2 bill issues that could mean higher bills",
    );
  });
  it("the group heading counts every flag shown, answered or not", () => {
    const f = (...statuses: string[]) => statuses.map((status) => ({ status }));
    expect(groupHeading(f("unacknowledged", "dismissed"))).toBe(
      "We have detected 2 bill issues that could mean higher bills",
    );
    expect(groupHeading(f("action_requested", "dismissed"))).toBe(
      "We have detected 2 bill issues that could mean higher bills",
    );
    expect(groupHeading(f("completed", "dismissed", "action_requested"))).toBe(
      "We have detected 3 bill issues that could mean higher bills",
    );
  });
});

describe("pills", () => {
  it("yellow for open statuses, grey for final ones", () => {
    expect(pillTone("unacknowledged")).toBe("yellow");
    expect(pillTone("action_requested")).toBe("yellow");
    expect(pillTone("dismissed")).toBe("grey");
    expect(pillTone("completed")).toBe("grey");
  });
  it("the group pill uses the first unacknowledged or action_requested flag", () => {
    expect(
      groupPillStatus([
        { status: "dismissed" },
        { status: "action_requested" },
        { status: "unacknowledged" },
      ]),
    ).toBe("action_requested");
    expect(groupPillStatus([{ status: "completed" }, { status: "dismissed" }])).toBe("completed");
    expect(groupPillStatus([])).toBeNull();
  });
});

describe("visibility", () => {
  const flags = [
    { id: 1, type: "supplier_change", status: "unacknowledged" },
    { id: 2, type: "rate_class_change", status: "unacknowledged" },
    { id: 3, type: "zero_meter_read", status: "unacknowledged" },
    { id: 4, type: "high_supply_rate", status: "action_requested" },
  ];
  it("shows only supplier and rate class changes", () => {
    expect(visibleFlags(flags, "Constellation NewEnergy", "EnergyOps").map((f) => f.id)).toEqual([1, 2]);
  });
  it("hides a supplier change to the provider itself (case-insensitive)", () => {
    expect(visibleFlags(flags, "ENERGYOPS Energy Services", "EnergyOps").map((f) => f.id)).toEqual([2]);
    expect(visibleFlags(flags, null, "EnergyOps").map((f) => f.id)).toEqual([1, 2]);
  });
  it("who may answer what: a second opinion is never lost", () => {
    // Unacknowledged: either answer.
    expect(answersOpen("unacknowledged", false)).toEqual(["dismissed", "action_requested"]);
    // After "Yes, this is expected" anyone may still ask for an investigation; saying yes again records nothing.
    expect(decideFlagAnswer("dismissed", "action_requested", false)).toBe("record");
    expect(decideFlagAnswer("dismissed", "dismissed", false)).toBe("already");
    expect(answersOpen("dismissed", false)).toEqual(["action_requested"]);
    // An investigation request stays, unless it is your own wrong tap.
    expect(decideFlagAnswer("action_requested", "dismissed", false)).toBe("refused");
    expect(decideFlagAnswer("action_requested", "dismissed", true)).toBe("record");
    expect(answersOpen("action_requested", false)).toEqual([]);
    expect(answersOpen("action_requested", true)).toEqual(["dismissed"]);
    // Completed is final.
    expect(decideFlagAnswer("completed", "action_requested", true)).toBe("refused");
    expect(answersOpen("completed", true)).toEqual([]);
  });
  it("an answer link escalates but never withdraws; a flag takes at most FLAG_ANSWER_LIMIT answers", () => {
    // From an email: "Yes" → "No, please investigate" is taken; your own "No" → "Yes" needs the signed-in page.
    expect(decideFlagAnswer("dismissed", "action_requested", false, "email")).toBe("record");
    expect(decideFlagAnswer("unacknowledged", "dismissed", false, "email")).toBe("record");
    expect(decideFlagAnswer("action_requested", "dismissed", true, "email")).toBe("signed-in");
    expect(decideFlagAnswer("action_requested", "dismissed", false, "email")).toBe("refused");
    expect(answersOpen("action_requested", true, "email")).toEqual([]);
    expect(answersOpen("action_requested", true, "app")).toEqual(["dismissed"]);
    // The limit: the 10th answer is taken, an 11th is not, from anywhere; a repeat is still just "already".
    expect(decideFlagAnswer("dismissed", "action_requested", false, "app", FLAG_ANSWER_LIMIT - 1)).toBe(
      "record",
    );
    expect(decideFlagAnswer("dismissed", "action_requested", false, "app", FLAG_ANSWER_LIMIT)).toBe("limit");
    expect(decideFlagAnswer("action_requested", "dismissed", true, "app", FLAG_ANSWER_LIMIT)).toBe("limit");
    expect(decideFlagAnswer("dismissed", "dismissed", false, "app", FLAG_ANSWER_LIMIT)).toBe("already");
    expect(answersOpen("dismissed", false, "app", FLAG_ANSWER_LIMIT)).toEqual([]);
    // The spending page says so instead of offering answers.
    const answers = Array.from({ length: FLAG_ANSWER_LIMIT }, (_, i) => ({
      answer: i % 2 ? ("dismissed" as const) : ("action_requested" as const),
      by: { name: "Dana Reyes", you: true },
      source: "app" as const,
      answeredAt: "2026-11-03T20:00:00.000Z",
    }));
    const view = flagAnswerView({ status: "dismissed", answerOnRecord: answers.at(-1), answers }, "UTC");
    expect(view).toMatchObject({ options: [], limitReached: true });
  });
  it("a refused answer says 'Unable to process update', then who answered and when", () => {
    const flag = {
      answerView: {
        onRecord:
          "Sam Okafor answered “No, please investigate” on Nov 3, 2026 at 2:00 PM PST, on the spending page.",
      },
      outcome: null,
    };
    expect(flagErrorLines({ message: FLAG_UPDATE_FAILED, answered: true }, flag)).toEqual([
      "Unable to process update",
      flag.answerView.onRecord,
    ]);
    // A closed investigation: its outcome says who closed it and when.
    expect(
      flagErrorLines(
        { message: FLAG_UPDATE_FAILED, answered: true },
        { ...flag, outcome: { text: "Closed by Morgan" } },
      ),
    ).toEqual(["Unable to process update", "Closed by Morgan"]);
    expect(flagErrorLines({ message: FLAG_UPDATE_FAILED, maybeApplied: true }, flag)).toEqual([
      "Unable to process update",
      FLAG_MAYBE_APPLIED,
    ]);
  });
  it("an answer in words: who, when, from where", () => {
    const dana = {
      answer: "dismissed" as const,
      by: { name: "Dana Reyes", you: false },
      source: "email" as const,
      answeredAt: "2026-11-03T20:00:00.000Z",
    };
    expect(answerRecordText(dana, "America/Chicago")).toBe(
      "Dana Reyes answered “Yes, this is expected” on Nov 3, 2026 at 2:00 PM CST, from an email alert.",
    );
    const mine = {
      answer: "action_requested" as const,
      by: { name: "Sam Okafor", you: true },
      source: "app" as const,
      answeredAt: "2026-11-04T15:30:00.000Z",
    };
    expect(answerRecordText(mine, "America/New_York")).toBe(
      "You answered “No, please investigate” on Nov 4, 2026 at 10:30 AM EST, on the spending page.",
    );
    const view = flagAnswerView(
      { status: "action_requested", answerOnRecord: mine, answers: [dana, mine] },
      "America/New_York",
    );
    expect(view.onRecord).toMatch(/^You answered “No, please investigate”/);
    expect(view.earlier).toEqual([
      "Dana Reyes answered “Yes, this is expected” on Nov 3, 2026 at 3:00 PM EST, from an email alert.",
    ]);
    expect(view.options).toEqual(["dismissed"]);
    // A flag answered before the history was kept: its status stands without a name, and nothing is offered.
    expect(flagAnswerView({ status: "action_requested" }, null)).toEqual({
      onRecord: null,
      earlier: [],
      options: [],
      limitReached: false,
    });
  });
  it("feedback headings", () => {
    expect(feedbackHeading("action_requested")).toBe("Help is on the way!");
    expect(feedbackHeading("dismissed")).toBe("Bill feedback received");
    expect(feedbackHeading("anything-else")).toBe("Bill feedback received");
  });
});

describe("formatting", () => {
  it("money in dollars with 2 decimals", () => {
    expect(formatMoney(401121)).toBe("$4,011.21");
    expect(formatMoney(5)).toBe("$0.05");
    expect(formatMoney(-1250)).toBe("-$12.50");
    expect(formatMoney(null)).toBe("—");
  });
  it("rate as cents ÷ 100 per kWh with 4 decimals", () => {
    expect(formatRate(14.004)).toBe("$0.1400/kWh");
    expect(formatRate(9.87654)).toBe("$0.0988/kWh");
    expect(formatRate(undefined)).toBe("—");
    expect(formatRate(14.004, false)).toBe("$0.1400");
  });
  it("bill window of 13 months", () => {
    expect(billWindow(new Date(Date.UTC(2026, 10, 21)))).toEqual({
      minDate: "2025-10-21",
      maxDate: "2026-11-21",
    });
    expect(billWindow(new Date(Date.UTC(2026, 2, 31)))).toEqual({
      minDate: "2025-02-28",
      maxDate: "2026-03-31",
    });
  });
  it("chart bills: the newest 13, oldest first; usage link", () => {
    const bills = Array.from({ length: 15 }, (_, i) => ({
      id: i,
      statementDate: `20${25 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}-05`,
    })).reverse();
    const picked = chartBills(bills);
    expect(picked).toHaveLength(13);
    expect(picked.map((b) => b.id)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(billUsageHref(101, 5)).toBe("/locations/101/usage/demand?period=bill&start=5");
  });
});

/* ---------- the flag answer form: one schema through parseWithZod ---------- */

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};
const SUBMISSION = "0b7c8a2e-3f4d-4e5a-9b6c-7d8e9f0a1b2c";

describe("flagAnswerSchema", () => {
  it("reads both answers, the ids as numbers and the submission id", () => {
    const ok = parseWithZod(
      form({ intent: "investigate", statementId: "12", flagId: "34", submissionId: SUBMISSION }),
      { schema: flagAnswerSchema },
    );
    expect(ok.status).toBe("success");
    expect(ok.status === "success" && ok.value).toEqual({
      intent: "investigate",
      statementId: 12,
      flagId: 34,
      submissionId: SUBMISSION,
    });
    const confirm = parseWithZod(form({ intent: "confirm", statementId: "12", flagId: "34" }), {
      schema: flagAnswerSchema,
    });
    expect(confirm.status === "success" && confirm.value).toEqual({
      intent: "confirm",
      statementId: 12,
      flagId: 34,
      submissionId: undefined,
    });
  });
  it("refuses an unknown or missing answer and ids that are not positive whole numbers", () => {
    const cases: Record<string, string>[] = [
      { intent: "delete", statementId: "12", flagId: "34" },
      { statementId: "12", flagId: "34" },
      { intent: "confirm", statementId: "0", flagId: "34" },
      { intent: "confirm", statementId: "12", flagId: "3.5" },
      { intent: "confirm", statementId: "12" },
    ];
    for (const fields of cases) {
      expect(parseWithZod(form(fields), { schema: flagAnswerSchema }).status, JSON.stringify(fields)).toBe(
        "error",
      );
    }
  });
});

const dana = DANA_SESSION_USER;

/** A `data()` answer of the action (Remix's DataWithResponseInit). */
type Replied = {
  data: {
    flagId: number | null;
    message: string;
    lastResult: { status?: string; error?: Record<string, string[] | null> };
  };
  init: { status: number };
};

describe("the spending action refuses a malformed answer before any upstream call", () => {
  it("answers an unknown intent like any invalid field: 400, 'Unable to process update' and the submission's reply", async () => {
    const s = await newSession();
    s.set("user", dana);
    s.set("apiSession", "tok");
    const cookie = (await commitSession(s)).split(";")[0];
    const cases: Record<string, string>[] = [
      { intent: "delete", statementId: "1", flagId: "1" },
      { statementId: "1", flagId: "1" },
      { intent: "investigate", statementId: "1", flagId: "x" },
    ];
    for (const fields of cases) {
      const request = new Request("http://app.test/locations/101/spending", {
        method: "POST",
        headers: { cookie },
        body: new URLSearchParams(fields),
      });
      const res = (await spendingAction({
        request,
        params: { locationId: "101" },
        context: { cspNonce: "" },
      })) as unknown as Replied;
      expect(res.init.status, JSON.stringify(fields)).toBe(400);
      expect(res.data).toMatchObject({
        flagId: null,
        message: FLAG_UPDATE_FAILED,
        lastResult: { status: "error" },
      });
    }
  });
});
