import { describe, expect, it } from "vitest";
import { renderEmail } from "../../api/mail/layout";
import { loginCodeEmail, loginLinkEmail, passwordResetEmail } from "../../api/mail/sign-in";
import { emailProblems } from "../support/email-checks";

const BASE = "https://app.energyops.example";

describe("sign-in email templates", () => {
  it("login code: both parts, the code and its sentence in the text, a good email", async () => {
    const mail = await renderEmail(loginCodeEmail(BASE, "123456", 10));
    expect(mail.subject).toBe("Your login code");
    expect(mail.text).toContain("Your login code is 123456. It expires in 10 minutes.");
    expect(mail.html).toContain("123456");
    expect(emailProblems(mail, BASE)).toEqual([]);
  });

  it("login link: the link first, absolute, in both parts", async () => {
    const href = `${BASE}/login/link?token=abc&next=%2Fsettings`;
    const mail = await renderEmail(loginLinkEmail(BASE, href, 15));
    expect(mail.links[0]).toBe(href);
    expect(mail.links).toContain(`${BASE}/settings`);
    expect(mail.text).toContain("Use this link to log in. It expires in 15 minutes and works once:");
    expect(mail.html).toContain("Log in to EnergyOps</");
    expect(emailProblems(mail, BASE)).toEqual([]);
  });

  it("password reset: subject by whether a password exists", async () => {
    const href = `${BASE}/reset-password?token=xyz`;
    const set = await renderEmail(passwordResetEmail(BASE, href, 60, false));
    const reset = await renderEmail(passwordResetEmail(BASE, href, 60, true));
    expect(set.subject).toBe("Set your password");
    expect(reset.subject).toBe("Reset your password");
    expect(reset.links[0]).toBe(href);
    expect(emailProblems(reset, BASE)).toEqual([]);
    expect(emailProblems(set, BASE)).toEqual([]);
  });

  it("the checks find a relative link, a vague link and a missing lang", () => {
    const bad = {
      subject: "x",
      html: '<html><body><h1>x</h1><a href="/settings">here</a><img src="x.png"></body></html>',
      text: "",
      links: ["/settings"],
    };
    expect(emailProblems(bad, BASE)).toEqual(
      expect.arrayContaining([
        "no lang on <html>",
        "an image",
        `link not absolute to ${BASE}: /settings`,
        'link words say nothing alone: "here"',
      ]),
    );
  });
});
