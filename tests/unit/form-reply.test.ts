import type { ActionFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loginActionSchema, resetPasswordSchema } from "~/features/auth/auth";
import { settingsActionSchema } from "~/features/settings/settings-form";
import { action as impersonateAction } from "~/routes/_app.impersonate";
import { parseForm } from "~/server/forms.server";
import { commitSession, newSession } from "~/server/upstream/session.server";
import { DANA_SESSION_USER } from "../support/session-users";

/**
 * `parseForm` (app/server/forms.server.ts) is the one form parse of the server: its reply echoes only the
 * fields the schema names (never a password, never a field a stranger added), and Conform's control fields
 * that Conform would throw on make a failed submission instead of a 500.
 */

const form = (pairs: [string, string][]) => {
  const f = new FormData();
  for (const [k, v] of pairs) f.append(k, v);
  return f;
};

const signIn: [string, string][] = [
  ["intent", "password"],
  ["email", "a@b.co"],
  ["password", "x"],
];

describe("parseForm's reply", () => {
  it("echoes the schema's fields and nothing else: no stranger's field, no password", () => {
    const submission = parseForm(form([...signIn, ["x[999]", "1"], ["extra", "y"], ["a.b.c", "z"]]), {
      schema: loginActionSchema,
    });
    expect(submission.status).toBe("success");
    const reply = submission.reply({ formErrors: ["Wrong password"] });
    expect(reply.initialValue).toEqual({ intent: "password", email: "a@b.co" });
    expect(reply.fields).toEqual(["intent", "email"]);
    expect(reply.error).toEqual({ "": ["Wrong password"] });
    expect(JSON.stringify(reply).length).toBeLessThan(200);
  });

  it("never echoes a password, even when the call site forgets hideFields", () => {
    const submission = parseForm(
      form([
        ["password", "secret-1"],
        ["confirmPassword", "secret-2"],
      ]),
      { schema: resetPasswordSchema },
    );
    expect(JSON.stringify(submission.reply())).not.toMatch(/secret/);
  });

  it("keeps a repeated field as a list, and drops a list or an object where the schema has one value", () => {
    const submission = parseForm(
      form([
        ["intent", "access-save"],
        ["userId", "7"],
        ["building", "1"],
        ["building", "2"],
        ["submissionId", "s1"],
        ["userId.a", "1"],
      ]),
      { schema: settingsActionSchema },
    );
    const value = submission.reply().initialValue;
    expect(value).toMatchObject({ intent: "access-save", building: ["1", "2"], submissionId: "s1" });
    expect(value).not.toHaveProperty("userId");
    const nested = z.object({ a: z.object({ b: z.array(z.string()) }) });
    expect(
      parseForm(
        form([
          ["a.b[0]", "x"],
          ["a.c", "y"],
          ["a.b[1].d", "z"],
        ]),
        { schema: nested },
      ).reply(),
    ).toMatchObject({ initialValue: { a: { b: ["x"] } } });
  });

  it("a control field that does not parse fails the form, which keeps its own fields", () => {
    for (const control of [
      ["__intent__", "x"],
      ["__state__", "{"],
      ["__intent__", '{"type":"update","payload":{"name":"x[999999999]","value":"1"}}'],
      ["__state__", '{"validated":{"a":true}}'],
    ] as [string, string][]) {
      const submission = parseForm(form([...signIn, control]), { schema: loginActionSchema });
      expect(submission.status, control[1]).toBe("error");
      const reply = submission.reply();
      expect(reply).toMatchObject({ status: "error", initialValue: { intent: "password", email: "a@b.co" } });
      expect(reply).not.toHaveProperty("state");
      expect(reply).not.toHaveProperty("intent");
    }
  });

  it("parses a query the same way (the dismissal link)", () => {
    const schema = z.object({ id: z.string() });
    const query = new URLSearchParams("id=1&__intent__=x");
    expect(parseForm(query, { schema }).status).toBe("error");
    expect(parseForm(new URLSearchParams("id=1"), { schema }).status).toBe("success");
  });
});

describe("an action given control fields and stray names", () => {
  it("answers 400 with the form kept, not a thrown error, and echoes none of the strays", async () => {
    const s = await newSession();
    s.set("user", {
      ...DANA_SESSION_USER,
      isStaff: true,
      canImpersonate: true,
      clientId: null,
      client: null,
    });
    s.set("apiSession", "tok");
    const cookie = (await commitSession(s)).split(";")[0];
    for (const control of ["__intent__=x", "__state__=%7B"]) {
      const request = new Request("http://app.test/impersonate", {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: `intent=start&clientId=2&reason=abcd&x[999]=1&${control}`,
      });
      const res = (await impersonateAction({
        request,
        params: {},
        context: { cspNonce: "" },
      } as unknown as ActionFunctionArgs)) as { init: { status: number }; data: { lastResult: object } };
      expect(res.init.status).toBe(400);
      expect(res.data.lastResult).toMatchObject({ initialValue: { clientId: "2", reason: "abcd" } });
      expect(JSON.stringify(res.data.lastResult)).not.toMatch(/999|null,null/);
    }
  });
});
