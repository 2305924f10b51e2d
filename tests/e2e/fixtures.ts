import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type Browser, type Locator, type Page, type TestInfo } from "@playwright/test";
import { serverPorts } from "../../playwright.config";
import type { ReceivedEmail } from "../support/mail-reading";

export const PASSWORD = "demo-pass-2024";
export const USERS = {
  dana: "dana@harborcoffee.test",
  sam: "sam@harborcoffee.test",
  alex: "alex@mapledental.test",
  riley: "riley@greenwayhomes.test",
  jordan: "jordan@metrotowers.test",
  morgan: "morgan@energyops.test",
} as const;

const projectOf = (info: TestInfo) => (info.project.name === "nojs" ? "nojs" : "js");
/** The server this test's worker uses (playwright.config.ts): the one of its parallelIndex. */
export const serverOf = (info: TestInfo) => serverPorts(info.parallelIndex);

/** The base URL of this project's embedded api (for its test hooks and for test setup). */
export const apiUrl = (info: TestInfo) => `http://127.0.0.1:${serverOf(info).api}/api`;
/** The HTTP side of this project's mail receiver (tests/support/mail-receiver.ts). */
const mailUrl = (info: TestInfo) => `http://127.0.0.1:${serverOf(info).mail}`;
export const isJs = (info: TestInfo) => projectOf(info) === "js";

/** An email as its reader meets it, received on the project's real SMTP server. */
export type Mail = ReceivedEmail;

/**
 * Waits until the api has handed every email it wrote to the mail server (its test hook GET
 * /dev/mail/delivery: nothing `queued` or `sending`). The api writes an email before it answers the request
 * that caused it, and the receiver has the message before it accepts it; so afterwards what was sent is there.
 */
async function mailDelivered(info: TestInfo) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await fetch(`${apiUrl(info)}/dev/mail/delivery`);
    expect(res.status, "GET /dev/mail/delivery (is ENABLE_TEST_HOOKS set on the test server?)").toBe(200);
    const { pending } = (await res.json()) as { pending: number; failed: number };
    if (pending === 0) return;
    if (Date.now() > deadline) throw new Error(`${pending} emails still not delivered to the mail receiver`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function received(info: TestInfo, to: string | null, since: number) {
  const query = new URLSearchParams({ after: String(since) });
  if (to) query.set("to", to);
  const res = await fetch(`${mailUrl(info)}/messages?${query}`);
  expect(res.status, "the mail receiver (tests/support/mail-receiver.ts)").toBe(200);
  return (await res.json()) as { last: number; items: Mail[] };
}

/**
 * A mark in this project's inbox, taken before the test acts: `waitForMail` and `mailsTo` then read only what
 * arrived after it. Mail still on its way from earlier is delivered first, so it falls before the mark.
 */
export async function mailMark(info: TestInfo): Promise<number> {
  await mailDelivered(info);
  return (await received(info, null, 0)).last;
}

/**
 * Every email to `to` received after the `since` mark (oldest first), whose subject matches `match`, once the
 * api has delivered all it wrote: an empty list means none was sent.
 */
export async function mailsTo(info: TestInfo, to: string, since: number, match?: RegExp): Promise<Mail[]> {
  await mailDelivered(info);
  const { items } = await received(info, to, since);
  return items.filter((m) => !match || match.test(m.subject));
}

/** The newest email to `to` received after the `since` mark (whose subject matches `match`); waits for it. */
export async function waitForMail(info: TestInfo, to: string, since: number, match?: RegExp): Promise<Mail> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const mails = await mailsTo(info, to, since, match);
    if (mails.length) return mails[mails.length - 1];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to}${match ? ` matching ${match}` : ""}`);
}

/** The address of the link a person sees in the email's HTML with these words (its one such link). */
export function mailLink(mail: Mail, label: string | RegExp): string {
  const found = mail.anchors.filter((a) =>
    typeof label === "string" ? a.label === label : label.test(a.label),
  );
  expect(
    found.map((a) => a.label),
    `one link "${label}" in "${mail.subject}"`,
  ).toHaveLength(1);
  return found[0].href;
}

/**
 * Opens the email's HTML in `page` as a mail client shows it, and taps the link with these words: the page
 * goes where that link leads (as the phone's browser opens it; the same tab, so the test goes on in `page`).
 * Returns that answer.
 */
export async function followMailLink(page: Page, mail: Mail, label: string | RegExp) {
  await page.setContent(mail.html);
  const link = page.getByRole("link", { name: label, exact: typeof label === "string" });
  await expect(link).toBeVisible();
  const href = await link.getAttribute("href");
  expect(href).toBe(mailLink(mail, label));
  return page.goto(href!);
}

/**
 * With MAIL_SHOTS=<dir> set (JavaScript project only: the same mail), saves the email as received, at 600 and
 * 390 px, as `<dir>/received/<name>-<width>.png`, to be looked at (docs/testing.md).
 */
export async function shootMail(page: Page, info: TestInfo, mail: Mail, name: string) {
  const dir = process.env.MAIL_SHOTS;
  if (!dir || !isJs(info)) return;
  fs.mkdirSync(path.join(dir, "received"), { recursive: true });
  for (const width of [600, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.setContent(mail.html);
    await page.screenshot({ path: path.join(dir, "received", `${name}-${width}.png`), fullPage: true });
  }
}

/** Runs one notification job now through the api's test hook (POST /dev/notifications/run): how many it wrote. */
export async function runJob(info: TestInfo, kind: string) {
  const res = await fetch(`${apiUrl(info)}/dev/notifications/run`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ kind }),
  });
  expect(res.status, `POST /dev/notifications/run ${kind}`).toBe(200);
  return ((await res.json()) as { sent: number }).sent;
}

/** Signs in through the real login form post (fast path for tests whose subject is not sign-in). */
export async function loginAs(page: Page, email: string, password = PASSWORD) {
  const res = await page.request.post(`/login?email=${encodeURIComponent(email)}`, {
    form: { intent: "password", email, password, next: "/" },
    maxRedirects: 0,
  });
  expect(res.status(), `login as ${email}`).toBe(302);
}

/**
 * Asks for a login link on the login page as the person would (with `next`): the login link email received.
 */
export async function askForLoginLink(page: Page, info: TestInfo, email: string, next: string) {
  const since = await mailMark(info);
  await page.goto(`/login?email=${encodeURIComponent(email)}&next=${encodeURIComponent(next)}`);
  await ready(page, info);
  await page.getByRole("button", { name: "Email me a login link" }).click();
  await expect(
    page.getByText("A login link will be sent if there is an account connected to this email address"),
  ).toBeVisible();
  return waitForMail(info, email, since, /link/i);
}

/**
 * Signs in as a person without a password does: asks for a code on the login page (with `next`), reads it in
 * the email received, types it; the page goes on to `next`.
 */
export async function signInWithCode(page: Page, info: TestInfo, email: string, next: string) {
  const since = await mailMark(info);
  await page.goto(`/login?email=${encodeURIComponent(email)}&next=${encodeURIComponent(next)}`);
  await ready(page, info);
  await page.getByRole("button", { name: "Email me a 6-digit code" }).click();
  const mail = await waitForMail(info, email, since, /code/i);
  expect(mail.code, "the code the email shows").toMatch(/^\d{6}$/);
  await page.getByLabel("6-digit code").fill(mail.code!);
  await page.getByRole("button", { name: "Log in with code" }).click();
  await expect(page).toHaveURL((url) => url.pathname === next);
}

/** Proves the nojs project really runs without JavaScript. */
export async function expectJsState(page: Page, info: TestInfo) {
  const hasRemix = await page.evaluate(
    () => typeof (window as unknown as { __remixContext?: unknown }).__remixContext !== "undefined",
  );
  expect(hasRemix).toBe(isJs(info));
}

/**
 * The page axe scans served-without-JavaScript HTML in: one per browser (so per worker), in its own context with
 * scripting on and no cookies, kept from check to check instead of a new context (and renderer) each time. It
 * only ever shows HTML a check gives it, and each check sets its viewport and content afresh.
 */
const scratchPages = new WeakMap<Browser, Promise<Page>>();
async function scratchPage(browser: Browser, origin: string): Promise<Page> {
  let made = scratchPages.get(browser);
  if (!made || (await made).isClosed()) {
    made = browser.newContext({ javaScriptEnabled: true }).then((ctx) => ctx.newPage());
    scratchPages.set(browser, made);
  }
  const scratch = await made;
  // Same origin as the page scanned, so its styles load as they did there.
  if (new URL(scratch.url()).origin !== origin) await scratch.goto(`${origin}/healthz`);
  return scratch;
}

/**
 * axe with the WCAG 2.0/2.1/2.2 A and AA rules: no serious or critical violation. axe needs scripting, so with
 * JavaScript off it scans the very HTML the server sent (scripts removed) in a scripting-enabled page of the
 * same origin and viewport, styles included.
 */
export async function expectNoSeriousA11yViolations(page: Page) {
  let target = page;
  const jsEnabled = await page
    .evaluate(() => typeof (window as unknown as { __remixContext?: unknown }).__remixContext !== "undefined")
    .catch(() => false);
  if (!jsEnabled) {
    const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
    target = await scratchPage(page.context().browser()!, new URL(page.url()).origin);
    await target.setViewportSize(page.viewportSize() ?? { width: 1280, height: 720 });
    await target.setContent(html, { waitUntil: "load" });
  }
  const results = await new AxeBuilder({ page: target })
    .withTags(["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
  ).toEqual([]);
}

/** Waits until the page is hydrated (js) or simply loaded (nojs). */
export async function ready(page: Page, info: TestInfo) {
  if (isJs(info)) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/**
 * Puts this project's demo data back as seeded (the api's test hook POST /dev/reset, docs/api-contract.md).
 * The `freshData` fixture calls it before every test; call it again inside a test only to start over.
 */
export async function resetData(info: TestInfo) {
  const res = await fetch(`${apiUrl(info)}/dev/reset`, { method: "POST" });
  expect(res.status, "POST /dev/reset (is ENABLE_TEST_HOOKS set on the test server?)").toBe(200);
  return (await res.json()) as { now: string; ms: number; history: boolean };
}

/**
 * Moves both clocks of this project's server, the web's (POST /test-hooks/clock) and its api's (POST
 * /dev/clock), to `at` (an ISO instant), or with null back to the suite's TEST_CLOCK_START one. Test hooks
 * only. The `clockAt` option does it around a test, with the data seeded at that clock.
 */
export async function moveClocks(info: TestInfo, at: string | null) {
  const api = await fetch(`${apiUrl(info)}/dev/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ at }),
  });
  expect(api.status, "POST /dev/clock (is ENABLE_TEST_HOOKS set on the test server?)").toBe(200);
  const web = await fetch(`http://127.0.0.1:${serverOf(info).web}/test-hooks/clock`, {
    method: "POST",
    body: new URLSearchParams(at ? { at } : {}),
  });
  expect(web.status, "POST /test-hooks/clock").toBe(200);
}

export type User = keyof typeof USERS;

type Fixtures = {
  /**
   * Fresh data per test: on (the default), the project's database is reset to the seed before each test, so a
   * test never depends on what another test changed or on the order tests run in. Each project runs its tests
   * one at a time (`workers: 1` per project in playwright.config.ts), so a reset never changes data under
   * another running test. `test.use({ freshData: false })` would skip the reset (no spec needs that).
   */
  freshData: boolean;
  /**
   * The instant both server clocks stand at for the test (`test.use({ clockAt: "…" })`), the data seeded then;
   * put back to TEST_CLOCK_START after it. Unset: the suite's clock.
   */
  clockAt: string | null;
  _resetData: void;
  /** Signs `page` in as a demo user (the real login form post). */
  signIn: (who: User) => Promise<void>;
  /** `page`, signed in as Dana (Harbor Coffee's admin: most of the demo). */
  asDana: Page;
  /** axe on `page` (or another page): no serious or critical WCAG A/AA violation, in both projects. */
  a11y: (target?: Page) => Promise<void>;
};

// `provide` is Playwright's `use` (the name would read as a React hook to the linter).
export const test = base.extend<Fixtures>({
  // The worker's own server (its parallelIndex): relative URLs of page.goto and page.request go there.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern: none here
  baseURL: async ({}, provide, info) => {
    await provide(`http://127.0.0.1:${serverOf(info).web}`);
  },
  freshData: [true, { option: true }],
  clockAt: [null, { option: true }],
  _resetData: [
    async ({ freshData, clockAt }, provide, info) => {
      if (clockAt) await moveClocks(info, clockAt);
      if (freshData || clockAt) await resetData(info);
      await provide();
      // The next test finds the suite's clock (its own reset then seeds the data at it).
      if (clockAt) await moveClocks(info, null);
    },
    { auto: true },
  ],
  signIn: async ({ page }, provide) => {
    await provide((who) => loginAs(page, USERS[who]));
  },
  asDana: async ({ page }, provide) => {
    await loginAs(page, USERS.dana);
    await provide(page);
  },
  a11y: async ({ page }, provide) => {
    await provide((target = page) => expectNoSeriousA11yViolations(target));
  },
});
export { expect };

/** Presses Tab until `target` has the focus (at most `max` times): the user reaches it by keyboard alone. */
export async function tabTo(page: Page, target: Locator, max = 80) {
  await target.waitFor({ state: "attached" });
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error("could not reach the control with Tab");
}

export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
