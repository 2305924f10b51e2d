import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { parseLoginAction } from "~/features/auth/auth.server";
import {
  authenticator,
  loginCodeStrategy,
  loginLinkStrategy,
  passwordStrategy,
} from "~/features/auth/strategies.server";
import { InvalidSignInForm, SignInStrategy, type AuthResult } from "~/server/auth.server";

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

  it("works through the Authenticator on an unread request (no clone needed)", async () => {
    const error = await authenticator
      .authenticate("login-link", post({ token: "" }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidSignInForm);
  });

  it("registers one strategy per sign-in method", () => {
    expect(authenticator.get("password")).toBe(passwordStrategy);
    expect(authenticator.get("login-code")).toBe(loginCodeStrategy);
    expect(authenticator.get("login-link")).toBe(loginLinkStrategy);
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
