import type { EmailDoc } from "./layout";

/**
 * The three sign-in emails. Their sentences are the ones these emails always had (the e2e tests read the code
 * and the first link); the layout adds the heading and the footer, without Manage preferences: their reader
 * is signed out, and these emails are not a preference.
 */

export function loginCodeEmail(baseUrl: string, code: string, minutes: number): EmailDoc {
  return {
    subject: "Your login code",
    preview: `Your login code is ${code}`,
    heading: "Your login code",
    baseUrl,
    preferencesLink: false,
    blocks: [
      { type: "code", text: code },
      { type: "p", text: `Your login code is ${code}. It expires in ${minutes} minutes.` },
      // The way back to where the code is typed, for a reader who closed the page.
      {
        type: "button",
        secondary: true,
        link: { href: new URL("/login", baseUrl).href, label: "Open the login page" },
      },
      { type: "p", text: "If you did not ask for this code, you can ignore this email." },
    ],
  };
}

export function loginLinkEmail(baseUrl: string, href: string, minutes: number): EmailDoc {
  return {
    subject: "Your login link",
    preview: "Use this link to log in",
    heading: "Log in to EnergyOps",
    baseUrl,
    preferencesLink: false,
    blocks: [
      { type: "p", text: `Use this link to log in. It expires in ${minutes} minutes and works once:` },
      { type: "button", link: { href, label: "Log in to EnergyOps" } },
      { type: "p", text: "If you did not ask for this link, you can ignore this email." },
    ],
  };
}

export function passwordResetEmail(
  baseUrl: string,
  href: string,
  minutes: number,
  hasPassword: boolean,
): EmailDoc {
  const subject = hasPassword ? "Reset your password" : "Set your password";
  return {
    subject,
    preview: "Use this link to set a new password",
    heading: subject,
    baseUrl,
    preferencesLink: false,
    blocks: [
      { type: "p", text: `Use this link to set a new password. It expires in ${minutes} minutes:` },
      { type: "button", link: { href, label: subject } },
      {
        type: "p",
        text: "If you did not ask for this, you can ignore this email: your password stays as it is.",
      },
    ],
  };
}
