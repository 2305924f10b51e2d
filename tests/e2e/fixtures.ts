import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type Locator, type Page, type TestInfo } from "@playwright/test";
import { PORTS } from "../../playwright.config";

export const PASSWORD = "demo-pass-2024";
export const USERS = {
  dana: "dana@harborcoffee.test",
  sam: "sam@harborcoffee.test",
  alex: "alex@mapledental.test",
  riley: "riley@greenwayhomes.test",
  jordan: "jordan@metrotowers.test",
  morgan: "morgan@energyops.test",
} as const;

type ProjectName = keyof typeof PORTS;
const projectOf = (info: TestInfo) => (info.project.name === "nojs" ? "nojs" : "js") as ProjectName;

/** The base URL of this project's embedded api (for the outbox and for test setup). */
export const apiUrl = (info: TestInfo) => `http://127.0.0.1:${PORTS[projectOf(info)].api}/api`;
export const isJs = (info: TestInfo) => projectOf(info) === "js";

type Mail = {
  id: number;
  to: string;
  subject: string;
  text: string;
  links: string[];
  code: string | null;
  sent_at: string;
};

/**
 * Where the outbox ends now: `waitForMail` then waits for a mail sent after it. (Ids, not times: the test
 * servers' clock starts at a fixed instant, tests/support/clock.ts, and is not this process's clock.)
 */
export async function outboxMark(info: TestInfo): Promise<number> {
  const res = await fetch(`${apiUrl(info)}/dev/outbox`);
  const { items } = (await res.json()) as { items: Mail[] };
  return items[0]?.id ?? 0;
}

/** The newest email to an address sent after the `since` mark of `outboxMark` (polls the mail simulator's outbox). */
export async function waitForMail(info: TestInfo, to: string, since: number, match?: RegExp): Promise<Mail> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const res = await fetch(`${apiUrl(info)}/dev/outbox?email=${encodeURIComponent(to)}`);
    const { items } = (await res.json()) as { items: Mail[] };
    const mail = items.find((m) => m.id > since && (!match || match.test(m.subject)));
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to}`);
}

/** Signs in through the real login form post (fast path for tests whose subject is not sign-in). */
export async function loginAs(page: Page, email: string, password = PASSWORD) {
  const res = await page.request.post(`/login?email=${encodeURIComponent(email)}`, {
    form: { intent: "password", email, password, next: "/" },
    maxRedirects: 0,
  });
  expect(res.status(), `login as ${email}`).toBe(302);
}

/** Proves the nojs project really runs without JavaScript. */
export async function expectJsState(page: Page, info: TestInfo) {
  const hasRemix = await page.evaluate(
    () => typeof (window as unknown as { __remixContext?: unknown }).__remixContext !== "undefined",
  );
  expect(hasRemix).toBe(isJs(info));
}

/**
 * axe with the WCAG 2.0/2.1/2.2 A and AA rules: no serious or critical violation. axe needs scripting, so with
 * JavaScript off it scans the very HTML the server sent (scripts removed) in a scripting-enabled page of the
 * same origin, styles included.
 */
export async function expectNoSeriousA11yViolations(page: Page) {
  let target = page;
  let scratch: Page | undefined;
  const jsEnabled = await page
    .evaluate(() => typeof (window as unknown as { __remixContext?: unknown }).__remixContext !== "undefined")
    .catch(() => false);
  if (!jsEnabled) {
    const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
    const browser = page.context().browser()!;
    const ctx = await browser.newContext({
      javaScriptEnabled: true,
      viewport: page.viewportSize() ?? undefined,
    });
    scratch = await ctx.newPage();
    await scratch.goto(new URL("/healthz", page.url()).href);
    await scratch.setContent(html, { waitUntil: "load" });
    target = scratch;
  }
  const results = await new AxeBuilder({ page: target })
    .withTags(["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"])
    .analyze();
  if (scratch) await scratch.context().close();
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

export type User = keyof typeof USERS;

type Fixtures = {
  /**
   * Fresh data per test: on (the default), the project's database is reset to the seed before each test, so a
   * test never depends on what another test changed or on the order tests run in. Each project runs its tests
   * one at a time (`workers: 1` per project in playwright.config.ts), so a reset never changes data under
   * another running test. `test.use({ freshData: false })` would skip the reset (no spec needs that).
   */
  freshData: boolean;
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
  freshData: [true, { option: true }],
  _resetData: [
    async ({ freshData }, provide, info) => {
      if (freshData) await resetData(info);
      await provide();
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
