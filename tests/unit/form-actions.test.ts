import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { connectActionSchema } from "~/features/accounts/connect-action.server";
import { impersonateActionSchema } from "~/features/impersonation/impersonation.server";
import { onboardingActionSchema } from "~/features/onboarding/onboarding.server";
import { controlActionSchema } from "~/features/thermostats/control-room.server";
import { action as connectAction } from "~/routes/_app.authorize-arcadia";
import { action as impersonateAction } from "~/routes/_app.impersonate";
import { action as controlAction } from "~/routes/_app.locations.$locationId.control";
import { action as onboardingAction } from "~/routes/_app.onboarding";
import { commitSession, newSession, type SessionUser } from "~/server/upstream/session.server";
import { DANA_SESSION_USER } from "../support/session-users";

/**
 * Every action parses its form with one Zod schema (a discriminated union on `intent`) and answers a form
 * that does not parse, an unknown intent included, the same way: a 400 with `submission.reply()` as
 * `lastResult` (app/server/forms.server.ts#invalidSubmission), before any upstream call.
 */

const MORGAN: SessionUser = {
  ...DANA_SESSION_USER,
  id: 9001,
  email: "morgan@energyops.test",
  firstName: "Morgan",
  clientId: null,
  client: null,
  isStaff: true,
  isClientAdmin: false,
  canImpersonate: true,
};

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};

/** The field errors of a parse, or null when it succeeded. */
const errorsOf = (schema: Parameters<typeof parseWithZod>[1]["schema"], fields: Record<string, string>) => {
  const submission = parseWithZod(form(fields), { schema });
  return submission.status === "success" ? null : Object.keys(submission.error ?? {});
};

type Replied = {
  data: { lastResult: { status?: string; error?: Record<string, string[] | null> } };
  init: { status: number };
};

async function post(
  run: (args: ActionFunctionArgs) => Promise<unknown>,
  user: SessionUser,
  path: string,
  fields: Record<string, string>,
  params: Record<string, string> = {},
) {
  const s = await newSession();
  s.set("user", user);
  s.set("apiSession", "tok");
  const cookie = (await commitSession(s)).split(";")[0];
  const request = new Request(`http://app.test${path}`, {
    method: "POST",
    headers: { cookie },
    body: new URLSearchParams(fields),
  });
  // No upstream is reachable here: a form that got past the schema would fail differently (or throw).
  return (await run({ request, params, context: { cspNonce: "" } })) as Replied;
}

/** The answer is the shared refusal: 400, and the reply names the fields that failed. */
function expectRefused(res: Replied, fields: string[]) {
  expect(res.init?.status).toBe(400);
  expect(res.data.lastResult.status).toBe("error");
  expect(Object.keys(res.data.lastResult.error ?? {})).toEqual(expect.arrayContaining(fields));
}

describe("the control room's action", () => {
  it("its schema accepts the three intents and refuses an unknown intent and a bad id", () => {
    expect(errorsOf(controlActionSchema, { intent: "save", thermostatId: "7" })).toBeNull();
    expect(errorsOf(controlActionSchema, { intent: "resolve", thermostatId: "7", issueId: "3" })).toBeNull();
    expect(errorsOf(controlActionSchema, { intent: "reboot", thermostatId: "7" })).toEqual(["intent"]);
    expect(errorsOf(controlActionSchema, { intent: "save", thermostatId: "x" })).toEqual(["thermostatId"]);
    expect(errorsOf(controlActionSchema, { intent: "dismiss", thermostatId: "7", issueId: "-1" })).toEqual([
      "issueId",
    ]);
    expect(errorsOf(controlActionSchema, { intent: "save", thermostatId: "1.5" })).toEqual(["thermostatId"]);
    expect(errorsOf(controlActionSchema, { intent: "save", thermostatId: "1e300" })).toEqual([
      "thermostatId",
    ]);
  });

  it("answers an unknown intent and a bad id with a 400 and the reply, not a thrown response", async () => {
    const run = (fields: Record<string, string>) =>
      post(controlAction, DANA_SESSION_USER, "/locations/101/control", fields, { locationId: "101" });
    const unknown = await run({ intent: "reboot", thermostatId: "1013" });
    expectRefused(unknown, ["intent"]);
    expect(unknown.data).toMatchObject({ thermostatId: null });
    expectRefused(await run({ intent: "resolve", thermostatId: "abc", issueId: "1" }), ["thermostatId"]);
    expectRefused(await run({ intent: "dismiss", thermostatId: "1013" }), ["issueId"]);
  });
});

describe("the onboarding action", () => {
  it("its schema refuses an unknown intent and a bad step id", () => {
    expect(errorsOf(onboardingActionSchema, { intent: "start", stepId: "2" })).toBeNull();
    expect(errorsOf(onboardingActionSchema, { intent: "finish", stepId: "2" })).toEqual(["intent"]);
    expect(errorsOf(onboardingActionSchema, { intent: "start", stepId: "two" })).toEqual(["stepId"]);
    expect(errorsOf(onboardingActionSchema, { intent: "start" })).toEqual(["stepId"]);
  });

  it("answers them with a 400 and the reply, not a thrown response", async () => {
    const run = (fields: Record<string, string>) =>
      post(onboardingAction, DANA_SESSION_USER, "/onboarding", fields);
    expectRefused(await run({ intent: "finish", stepId: "1" }), ["intent"]);
    expectRefused(await run({ intent: "start", stepId: "0" }), ["stepId"]);
  });
});

describe("the impersonate action", () => {
  it("its schema refuses an unknown intent, a bad client id and a missing reason", () => {
    expect(
      errorsOf(impersonateActionSchema, { intent: "start", clientId: "1", reason: "Ticket 5" }),
    ).toBeNull();
    expect(errorsOf(impersonateActionSchema, { intent: "stop" })).toBeNull();
    expect(errorsOf(impersonateActionSchema, { intent: "demo-on", redirectTo: "/locations" })).toBeNull();
    expect(errorsOf(impersonateActionSchema, { intent: "become-admin" })).toEqual(["intent"]);
    expect(errorsOf(impersonateActionSchema, { intent: "start", clientId: "x", reason: "Ticket 5" })).toEqual(
      ["clientId"],
    );
  });

  it("answers them with a 400 and the reply; the messages sit next to their fields", async () => {
    const run = (fields: Record<string, string>) => post(impersonateAction, MORGAN, "/impersonate", fields);
    expectRefused(await run({ intent: "become-admin" }), ["intent"]);
    const refused = await run({ intent: "start", clientId: "-4", reason: "" });
    expectRefused(refused, ["clientId", "reason"]);
    expect(refused.data.lastResult.error).toMatchObject({
      clientId: ["Choose a client"],
      reason: ["Please give a reason (at least 3 characters)"],
    });
    // The form keeps what was typed.
    const kept = await run({ intent: "start", clientId: "2", reason: "ab" });
    expect(kept.data.lastResult).toMatchObject({ initialValue: { clientId: "2", reason: "ab" } });
  });
});

describe("the connect page's action", () => {
  it("its schema refuses an unknown intent and a step without its utility", () => {
    expect(errorsOf(connectActionSchema, { intent: "opened" })).toBeNull();
    expect(
      errorsOf(connectActionSchema, {
        intent: "provider-connected",
        utility: "prov_pge",
        correlationId: "c1",
        utilityCredentialId: "uc_1",
      }),
    ).toBeNull();
    // Connect's onCredentialsSubmitted without the provider's credential id.
    expect(
      errorsOf(connectActionSchema, {
        intent: "provider-connected",
        utility: "prov_pge",
        correlationId: "c1",
      }),
    ).toEqual(["utilityCredentialId"]);
    expect(
      errorsOf(connectActionSchema, { intent: "provider-url", utility: "prov_pge", correlationId: "c1" }),
    ).toBeNull();
    expect(errorsOf(connectActionSchema, { intent: "disconnect", utility: "prov_pge" })).toEqual(["intent"]);
    expect(errorsOf(connectActionSchema, { intent: "coned-submit", correlationId: "c1" })).toEqual([
      "utility",
    ]);
  });

  it("keeps a malformed building or credential hint out of the connection, as before", () => {
    const submission = parseWithZod(
      form({ intent: "connect", utility: "prov_pge", correlationId: "c1", building: "12", credential: "x" }),
      { schema: connectActionSchema },
    );
    expect(submission.status === "success" && submission.value).toMatchObject({
      building: 12,
      credential: null,
    });
  });

  it("answers them with a 400 and the reply, not a thrown response", async () => {
    const run = (fields: Record<string, string>) =>
      post(connectAction, DANA_SESSION_USER, "/authorize-arcadia", fields);
    expectRefused(await run({ intent: "disconnect" }), ["intent"]);
    expectRefused(await run({ intent: "coned-submit", utility: "prov_coned" }), ["correlationId"]);
  });
});
