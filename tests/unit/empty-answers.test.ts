import { describe, expect, it } from "vitest";
import { answerFlag } from "~/features/bills/bills.server";
import { answerIssue } from "~/features/thermostats/control-room.server";
import { MESSAGES } from "~/features/thermostats/messages";
import { createApiClient } from "~/server/upstream/api-client.server";

/**
 * The api contract: a 204 gives null, a success. Dismiss, resolve and a bill-flag answer answered with an
 * empty 204 go through the real api client (its schemas included) and count as done.
 */
const empty204 = () =>
  createApiClient({
    baseUrl: "http://up/api",
    apiSession: "tok",
    timeoutMs: 500,
    fetchImpl: (async () => new Response(null, { status: 204 })) as unknown as typeof fetch,
  });

describe("an empty 204 answer is a success", () => {
  it("DISMISS: the dismissed toast, not an error", async () => {
    const out = await answerIssue(empty204(), 101, {
      intent: "dismiss",
      thermostatId: 1,
      issueId: 2,
      tab: "all",
    });
    expect(out.toast).toEqual({ kind: "success", message: MESSAGES.dismissed });
  });

  it("Resolve Issue: back to the card, no error", async () => {
    const out = await answerIssue(empty204(), 101, {
      intent: "resolve",
      thermostatId: 1,
      issueId: 2,
      tab: "all",
    });
    expect(out.toast).toBeUndefined();
    expect(out.to).toContain("card=1");
  });

  it("a bill-flag answer resolves to null", async () => {
    await expect(answerFlag(empty204(), 7, 8, "confirm")).resolves.toBeNull();
  });
});
