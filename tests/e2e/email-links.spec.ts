import fs from "node:fs";
import path from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import {
  expect,
  loginAs,
  mailMark,
  mailsTo,
  runJob,
  shootMail,
  signInWithCode,
  test,
  USERS,
  type Mail,
  type User,
} from "./fixtures";

/**
 * Every link of every kind of email, followed on a phone (390 px) as its reader would, signed out and signed
 * in, in both projects: the alerts (bills, thermostats, comfort), the Weekly Rundown and the Monthly Recap of
 * every person who gets them, and the three sign-in emails, all received on the project's SMTP server. Each
 * lands on a page that answers (no error), fits the phone (no sideways scroll) and, signed out, either serves
 * the link's own page (the token pages) or asks to log in and keeps where the link led (`next`).
 * With MAIL_SHOTS=<dir>, each landing is saved as a screenshot there (`landing/`), and each kind of email as
 * received (`received/`), to be looked at.
 */
test.describe.configure({ timeout: 300_000 });

const PHONE = { width: 390, height: 800 };
const SHOTS = process.env.MAIL_SHOTS;

/** One link per kind of landing: the path with its ids as `:id`, and the names of its query parameters. */
const shape = (href: string) => {
  const u = new URL(href);
  const keys = [...u.searchParams.keys()].sort().join("&");
  return `${u.pathname.replace(/\/\d+(?=\/|$)/g, "/:id")}${keys ? `?${keys}` : ""}`;
};

async function fitsThePhone(page: Page, what: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${what}: page width at 390 px`).toBeLessThanOrEqual(PHONE.width);
}

async function shoot(page: Page, info: TestInfo, name: string) {
  if (!SHOTS) return;
  const dir = path.join(SHOTS, "landing");
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}-${info.project.name}.png`), fullPage: true });
}

const READERS: User[] = ["dana", "sam", "alex"];
const name = (key: string) => key.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "");

test("every email link lands on a page that works on a phone, signed out and signed in", async ({
  page,
  context,
}, info) => {
  const since = await mailMark(info);
  for (const kind of ["alerts", "weekly_rundown", "monthly_recap"]) await runJob(info, kind);
  // The sign-in emails, asked for as the login page asks (Sam: code and link; Dana: a password reset).
  for (const [who, intent] of [
    ["sam", "link"],
    ["sam", "request-code"],
    ["dana", "reset"],
  ] as const) {
    const email = USERS[who];
    const res = await page.request.post(`/login?email=${encodeURIComponent(email)}`, {
      form: { intent, email, next: "/settings" },
      maxRedirects: 0,
    });
    expect(res.status(), `${intent} for ${who}`).toBe(200);
  }

  // Every link of every email received, one per kind of landing, with whose email it is.
  const landings = new Map<string, { href: string; label: string; reader: User; mail: Mail }>();
  const kinds = new Map<string, Mail>();
  for (const reader of READERS) {
    for (const mail of await mailsTo(info, USERS[reader], since)) {
      const kind = mail.subject.replace(/:.*$/, "");
      if (!kinds.has(`${kind} ${reader}`)) kinds.set(`${kind} ${reader}`, mail);
      for (const a of mail.anchors) {
        const key = shape(a.href);
        if (!landings.has(key)) landings.set(key, { ...a, reader, mail });
      }
    }
  }
  // All the kinds arrived: bill, thermostat and comfort alerts (grouped), both digests, the sign-in emails.
  for (const subject of [
    /Rundown/,
    /Recap/,
    /^Your login code$/,
    /^Your login link$/,
    /^Reset your password$/,
  ])
    expect(
      [...kinds.values()].some((m) => subject.test(m.subject.replace(/:.*$/, ""))),
      `an email ${subject}`,
    ).toBe(true);
  expect(landings.size).toBeGreaterThan(12);

  for (const [kind, mail] of kinds) await shootMail(page, info, mail, name(kind));

  await page.setViewportSize(PHONE);
  const pathOf = (href: string) => new URL(href).pathname + new URL(href).search;

  // Signed out (a phone that never signed in here).
  await context.clearCookies();
  for (const [key, { href, label }] of landings) {
    const target = pathOf(href);
    // With its #fragment, as the phone's browser opens it (the fragment never reaches the server).
    const res = await page.goto(target + new URL(href).hash);
    expect(res?.status(), `${label} (${key}) signed out`).toBeLessThan(400);
    const landed = new URL(page.url());
    if (landed.pathname === "/login" && new URL(href).pathname !== "/login")
      expect(landed.searchParams.get("next"), `${label}: the login page keeps where it led`).toBe(target);
    await expect(page.locator("h1").first()).toBeVisible();
    await fitsThePhone(page, `${label} signed out`);
    await shoot(page, info, `${name(key)}-signed-out`);
  }

  // Signed in as each email's reader.
  for (const reader of READERS) {
    const theirs = [...landings].filter(([, l]) => l.reader === reader);
    if (!theirs.length) continue;
    await context.clearCookies();
    if (reader === "sam") await signInWithCode(page, info, USERS.sam, "/settings");
    else await loginAs(page, USERS[reader]);
    for (const [key, { href, label }] of theirs) {
      const res = await page.goto(pathOf(href) + new URL(href).hash);
      expect(res?.status(), `${label} (${key}) signed in`).toBeLessThan(400);
      if (new URL(href).pathname !== "/login") expect(new URL(page.url()).pathname, label).not.toBe("/login");
      await expect(page.locator("h1").first()).toBeVisible();
      await fitsThePhone(page, `${label} signed in`);
      await shoot(page, info, `${name(key)}-signed-in`);
    }
  }
});
