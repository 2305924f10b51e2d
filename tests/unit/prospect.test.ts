import { parseWithZod } from "@conform-to/zod";
import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import {
  clientIpFromHeaders,
  conedUtilityData,
  effectiveIntent,
  prospectActionSchema,
  prospectSchema,
  prospectStep,
} from "~/features/prospect/prospect";
import { action as prospectAction } from "~/routes/free-bill-health-check";

const formOf = (entries: [string, string][]) => {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
};

describe("prospect action schema", () => {
  const start: [string, string][] = [
    ["intent", "start"],
    ["firstName", "Ada"],
    ["emailAddress", "ada@example.test"],
    ["companyName", "Ada's"],
    ["arcadiaProvider", "prov_pge"],
  ];
  it("parses each intent of the page", () => {
    const s = parseWithZod(formOf(start), { schema: prospectActionSchema(true) });
    expect(s.status === "success" && s.value).toMatchObject({ intent: "start", firstName: "Ada" });
    const coned = parseWithZod(
      formOf([
        ["intent", "coned-submit"],
        ["account", "1"],
        ["account", "2"],
        ["confirmed", "on"],
      ]),
      { schema: prospectActionSchema(true) },
    );
    expect(coned.status === "success" && coned.value).toEqual({
      intent: "coned-submit",
      account: ["1", "2"],
      confirmed: "on",
    });
    // The provider's Connect reports its credential and how it ended; without JavaScript, the hosted page.
    const provider = parseWithZod(
      formOf([
        ["intent", "provider-connected"],
        ["utilityCredentialId", "uc_1"],
        ["status", "rejected"],
      ]),
      { schema: prospectActionSchema(true) },
    );
    expect(provider.status === "success" && provider.value).toEqual({
      intent: "provider-connected",
      utilityCredentialId: "uc_1",
      status: "rejected",
    });
    for (const bad of [
      [],
      [["utilityCredentialId", "uc_1"]],
      [
        ["utilityCredentialId", "uc_1"],
        ["status", "no_submit"],
      ],
    ])
      expect(
        parseWithZod(formOf([["intent", "provider-connected"], ...(bad as [string, string][])]), {
          schema: prospectActionSchema(true),
        }).status,
      ).toBe("error");
    expect(
      parseWithZod(formOf([["intent", "provider-url"]]), { schema: prospectActionSchema(true) }).status,
    ).toBe("success");
  });
  it("answers an unknown or missing intent with an error on intent", () => {
    for (const intent of ["bogus", ""]) {
      const s = parseWithZod(formOf([...start.slice(1), ["intent", intent]]), {
        schema: prospectActionSchema(true),
      });
      expect(s.status).toBe("error");
      expect(s.status === "error" && s.error?.intent).toBeTruthy();
    }
  });
  it("reports the first form's field errors", () => {
    const s = parseWithZod(
      formOf([
        ["intent", "start"],
        ["emailAddress", "nope"],
      ]),
      {
        schema: prospectActionSchema(true),
      },
    );
    expect(s.status === "error" && s.error).toMatchObject({
      emailAddress: ["Please enter a valid email address"],
      firstName: ["Required"],
    });
  });
  it("asks for the MFA acknowledgement only when the utility is not exempt", () => {
    const creds = formOf([
      ["intent", "connect"],
      ["username", "u"],
      ["password", "p"],
    ]);
    expect(parseWithZod(creds, { schema: prospectActionSchema(true) }).status).toBe("success");
    const s = parseWithZod(creds, { schema: prospectActionSchema(false) });
    expect(s.status === "error" && Object.keys(s.error ?? {})).toEqual(["mfaAcknowledged"]);
  });
});

describe("prospect form", () => {
  const ok = {
    firstName: "Ada",
    emailAddress: "ada@example.test",
    companyName: "Ada's",
    arcadiaProvider: "prov_pge",
  };
  it("requires the four fields; the checkboxes are optional", () => {
    expect(prospectSchema.safeParse(ok).success).toBe(true);
    expect(prospectSchema.safeParse({ ...ok, rateQuote: "on", communicationsConsent: "on" }).success).toBe(
      true,
    );
    for (const k of Object.keys(ok)) expect(prospectSchema.safeParse({ ...ok, [k]: "" }).success).toBe(false);
    const bad = prospectSchema.safeParse({ ...ok, emailAddress: "nope" });
    expect(bad.success ? null : bad.error.issues[0].message).toBe("Please enter a valid email address");
  });
  it("goes form → ConEd numbers or connect → success", () => {
    expect(prospectStep(null, null)).toBe("form");
    expect(prospectStep({ isConed: true, done: false }, null)).toBe("coned");
    expect(prospectStep({ isConed: false, done: false }, "success")).toBe("connect");
    expect(prospectStep({ isConed: false, done: true }, null)).toBe("success");
    expect(prospectStep({ isConed: false, done: true }, "form")).toBe("form");
  });
  it("derives utility_data from the account numbers", () => {
    expect(conedUtilityData(["1", "2"])).toEqual({
      coned_accounts: [{ account_number: "1" }, { account_number: "2" }],
    });
  });
  it("reads the client IP only behind trusted proxies", () => {
    expect(clientIpFromHeaders("1.1.1.1, 10.0.0.1", 0)).toBeNull();
    expect(clientIpFromHeaders("6.6.6.6, 1.1.1.1, 10.0.0.1", 1)).toBe("10.0.0.1");
    expect(clientIpFromHeaders("6.6.6.6, 1.1.1.1, 10.0.0.1", 2)).toBe("1.1.1.1");
    expect(clientIpFromHeaders("1.1.1.1", 5)).toBe("1.1.1.1");
    expect(clientIpFromHeaders(null, 1)).toBeNull();
  });
});

describe("prospect action", () => {
  const run = (fields: [string, string][]) =>
    prospectAction({
      request: new Request("http://web.test/free-bill-health-check", {
        method: "POST",
        body: new URLSearchParams(fields),
      }),
      context: { cspNonce: "" } as AppLoadContext,
      params: {},
    });

  it("answers an unknown intent with a 400 and the form's reply, not a thrown response", async () => {
    const res = await run([["intent", "bogus"]]);
    expect(res).toMatchObject({
      init: { status: 400 },
      data: { intent: "bogus", lastResult: { status: "error", error: { intent: [expect.any(String)] } } },
    });
  });

  it("refuses a filled honeypot and an invalid first form with a 400", async () => {
    const bot = await run([
      ["intent", "start"],
      ["firstName", "Ada"],
      ["emailAddress", "ada@example.test"],
      ["companyName", "Ada's"],
      ["arcadiaProvider", "prov_pge"],
      ["website", "http://spam.test"],
    ]);
    expect(bot).toMatchObject({
      init: { status: 400 },
      data: { intent: "start", lastResult: { error: { "": ["Your request could not be submitted."] } } },
    });
    expect(await run([["intent", "start"]])).toMatchObject({
      init: { status: 400 },
      data: { intent: "start", lastResult: { error: { firstName: ["Required"] } } },
    });
  });

  it("sends a later step without a flow in progress back to the start", async () => {
    for (const intent of ["coned-submit", "connect", "provider-connected"]) {
      const res = await run([["intent", intent]]);
      expect(res instanceof Response && res.status).toBe(302);
      expect(res instanceof Response && res.headers.get("location")).toBe("/free-bill-health-check");
    }
  });
});

describe("effectiveIntent (rule prospect-enter-continues)", () => {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields);

  it("keeps a search whose query changed since the page was searched", () => {
    expect(effectiveIntent(form({ intent: "search", q: "xcel", searched: "" }))).toBe("search");
  });

  it("continues when Enter reached the default Search button with the query unchanged", () => {
    expect(effectiveIntent(form({ intent: "search", q: "xcel ", searched: "xcel" }))).toBe("start");
    expect(effectiveIntent(form({ intent: "search", q: "", searched: "" }))).toBe("start");
  });

  it("leaves other intents, and a search without the page's marker, as they are", () => {
    expect(effectiveIntent(form({ intent: "start", q: "x", searched: "x" }))).toBe("start");
    expect(effectiveIntent(form({ intent: "search", q: "" }))).toBe("search");
  });
});
