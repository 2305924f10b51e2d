import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { getLoginOptions, parseLoginAction } from "~/features/auth/login.server";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { action as loginAction } from "~/routes/login";
import { ApiError } from "~/server/upstream/api-error";

function fakeApi(answers: (() => unknown)[]) {
  const get = vi.fn(async () => {
    const next = answers.shift();
    if (!next) throw new Error("no more answers");
    return next();
  });
  return { api: { get } as unknown as ApiClient, get };
}

const fail = (kind: ApiError["kind"], status: number) => () => {
  throw new ApiError("x", kind, status);
};

describe("getLoginOptions", () => {
  it("returns the offered options", async () => {
    const { api } = fakeApi([
      () => ({ items: ["password", "login_link", "login_code", "other"], error: null }),
    ]);
    expect(await getLoginOptions(api, "a@b.test")).toEqual({
      kind: "options",
      options: ["password", "login_link", "login_code"],
    });
  });

  it("does not retry mycor or resi", async () => {
    const mycor = fakeApi([() => ({ items: [], error: "mycor" })]);
    expect(await getLoginOptions(mycor.api, "a@b.test")).toEqual({ kind: "mycor" });
    expect(mycor.get).toHaveBeenCalledTimes(1);
    const resi = fakeApi([() => ({ items: [], error: "resi" })]);
    expect(await getLoginOptions(resi.api, "a@b.test")).toEqual({ kind: "resi" });
    expect(resi.get).toHaveBeenCalledTimes(1);
  });

  it("a 404 means no account, without retries", async () => {
    const { api, get } = fakeApi([fail("http", 404)]);
    expect(await getLoginOptions(api, "a@b.test")).toEqual({ kind: "unknown" });
    expect(get).toHaveBeenCalledTimes(1);
  });

  it("retries other failures up to 3 times, then fails", async () => {
    const { api, get } = fakeApi([
      fail("http", 500),
      fail("network", 502),
      fail("empty-body", 200),
      fail("http", 503),
    ]);
    expect(await getLoginOptions(api, "a@b.test")).toEqual({ kind: "failed" });
    expect(get).toHaveBeenCalledTimes(4);
  });

  it("succeeds on a retry", async () => {
    const { api, get } = fakeApi([fail("http", 500), () => ({ items: ["login_link"], error: null })]);
    expect(await getLoginOptions(api, "a@b.test")).toEqual({ kind: "options", options: ["login_link"] });
    expect(get).toHaveBeenCalledTimes(2);
  });

  it("a timeout spends the page's budget: no retry", async () => {
    const { api, get } = fakeApi([fail("timeout", 504)]);
    expect(await getLoginOptions(api, "a@b.test")).toEqual({ kind: "failed" });
    expect(get).toHaveBeenCalledTimes(1);
  });
});

describe("login action schema", () => {
  const formOf = (entries: [string, string | Blob][]) => {
    const f = new FormData();
    for (const [k, v] of entries) f.append(k, v);
    return f;
  };
  const email: [string, string] = ["email", " dana@example.test "];

  it("parses every sign-in intent, trimming the address", () => {
    const pw = parseLoginAction(
      formOf([["intent", "password"], email, ["password", "pw"], ["next", "/bills"]]),
    );
    expect(pw.status === "success" && pw.value).toEqual({
      intent: "password",
      email: "dana@example.test",
      password: "pw",
      next: "/bills",
    });
    const code = parseLoginAction(formOf([["intent", "code"], email, ["code", "123456"]]));
    expect(code.status === "success" && code.value).toMatchObject({ intent: "code", code: "123456" });
    for (const intent of ["link", "request-code", "reset"]) {
      const s = parseLoginAction(formOf([["intent", intent], email]));
      expect(s.status === "success" && s.value).toEqual({ intent, email: "dana@example.test" });
    }
  });

  it("fails an unknown or missing intent on intent alone", () => {
    for (const entries of [[["intent", "bogus"], email], [email]] as [string, string][][]) {
      const s = parseLoginAction(formOf(entries));
      expect(s.status).toBe("error");
      expect(s.status === "error" && Object.keys(s.error ?? {})).toEqual(["intent"]);
    }
  });

  it("reports the address and the intent's own fields", () => {
    const s = parseLoginAction(
      formOf([
        ["intent", "password"],
        ["email", "nope"],
      ]),
    );
    expect(s.status === "error" && s.error).toEqual({
      email: ["Please enter a valid email address"],
      password: ["Password is required"],
    });
    const code = parseLoginAction(formOf([["intent", "code"], email, ["code", "12"]]));
    expect(code.status === "error" && code.error).toEqual({ code: ["Enter the 6-digit code"] });
  });

  it("ignores a next that is not text (safeRedirect then falls back)", () => {
    const s = parseLoginAction(formOf([["intent", "link"], email, ["next", new Blob(["x"])]]));
    expect(s.status === "success" && s.value.next).toBeUndefined();
  });
});

describe("login action", () => {
  const post = (fields: Record<string, string>) =>
    new Request("http://web.test/login", { method: "POST", body: new URLSearchParams(fields) });
  const run = (fields: Record<string, string>, context: Partial<AppLoadContext> = {}) =>
    loginAction({
      request: post(fields),
      context: { cspNonce: "", ...context } as AppLoadContext,
      params: {},
    });
  const email = "dana@example.test";

  it("answers an unknown intent with a 400 and the form's reply, not a thrown response", async () => {
    const res = await run({ intent: "bogus", email });
    expect(res).toMatchObject({
      init: { status: 400 },
      data: { intent: null, lastResult: { status: "error", error: { intent: [expect.any(String)] } } },
    });
  });

  it("keeps the order: email, then the per-IP limit, then the intent's fields", async () => {
    expect(
      await run({ intent: "password", email: "nope" }, { signInLimited: { retryAfterSeconds: 60 } }),
    ).toMatchObject({
      init: { status: 400 },
      data: { intent: "password", formError: "Please enter a valid email address" },
    });
    const limited = await run({ intent: "password", email }, { signInLimited: { retryAfterSeconds: 60 } });
    expect(limited).toMatchObject({ init: { status: 429, headers: { "Retry-After": "60" } } });
    expect(await run({ intent: "password", email })).toMatchObject({
      init: { status: 400 },
      data: { intent: "password", lastResult: { error: { password: ["Password is required"] } } },
    });
    expect(await run({ intent: "code", email, code: "12" })).toMatchObject({
      init: { status: 400 },
      data: {
        intent: "code",
        codeRequested: true,
        lastResult: { error: { code: ["Enter the 6-digit code"] } },
      },
    });
  });

  it("a valid form under the per-IP limit waits, whatever the intent", async () => {
    for (const intent of ["link", "reset", "request-code"]) {
      expect(await run({ intent, email }, { signInLimited: { retryAfterSeconds: 5 } })).toMatchObject({
        init: { status: 429 },
        data: { intent },
      });
    }
  });
});
