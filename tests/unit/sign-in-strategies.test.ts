import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { loginCodeStrategy, parseLoginAction, passwordStrategy } from "~/features/auth/login.server";
import { loginLinkStrategy, signInWithLink } from "~/features/auth/login-link.server";
import { InvalidSignInForm, SignInStrategy, type AuthResult } from "~/features/auth/sign-in.server";

const result: AuthResult = {
  user: {
    id: 1,
    email: "a@b.test",
    firstName: "",
    lastName: "",
    clientId: 1,
    client: null,
    isStaff: false,
    isClientAdmin: false,
    isImpersonating: false,
    canImpersonate: false,
    isDemoMode: false,
  },
  apiSession: "s",
};

const post = (fields: Record<string, string>) =>
  new Request("http://web/x", { method: "POST", body: new URLSearchParams(fields) });

describe("sign-in strategies (remix-auth)", () => {
  const schema = z.object({ token: z.string().trim().min(1, "Token is required") });

  it("reads and parses the form once, then verifies the parsed value", async () => {
    const verify = vi.fn(async () => result);
    const strategy = new SignInStrategy("t", schema, verify);
    const request = post({ token: "  abc " });
    await expect(strategy.authenticate(request)).resolves.toBe(result);
    expect(verify).toHaveBeenCalledWith({ value: { token: "abc" }, request });
    expect(request.bodyUsed).toBe(true);
  });

  it("refuses a form its schema rejects without calling upstream, with errors for the form", async () => {
    const verify = vi.fn(async () => result);
    const strategy = new SignInStrategy("t", schema, verify);
    const error = await strategy.authenticate(post({ token: " " })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidSignInForm);
    expect((error as InvalidSignInForm).submission.reply().error).toEqual({ token: ["Token is required"] });
    expect(verify).not.toHaveBeenCalled();
  });

  it("the login link page refuses an empty token through its strategy's schema, before any upstream call", async () => {
    const answer = await signInWithLink(post({ token: "" }), { signInLimited: undefined });
    expect(answer).toMatchObject({ init: { status: 400 }, data: { failed: true, limited: null } });
  });

  it("has one strategy per sign-in method, under remix-auth's names", () => {
    expect(passwordStrategy.name).toBe("password");
    expect(loginCodeStrategy.name).toBe("login-code");
    expect(loginLinkStrategy.name).toBe("login-link");
  });

  it("the login page's union parses a sign-in form exactly as the intent's strategy does", () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ intent: "password", email: " a@b.test ", password: " pw " }))
      form.set(k, v);
    const page = parseLoginAction(form);
    const own = passwordStrategy.parse(form);
    expect(page.status).toBe("success");
    expect(own.status).toBe("success");
    if (page.status === "success" && own.status === "success") expect(page.value).toEqual(own.value);
  });
});
