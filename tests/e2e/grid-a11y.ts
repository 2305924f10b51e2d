import type { Page, TestInfo } from "@playwright/test";
import { expectNoSeriousA11yViolations, isJs } from "./fixtures";

/**
 * axe on the current page in both projects. axe-core schedules its work with timers, which never fire in a
 * page with JavaScript disabled (the shared helper hangs there), so in `nojs` the server's HTML of this page
 * (scripts removed, styles kept) is checked in a scratch JavaScript-enabled page of the same origin.
 */
export async function expectAccessible(page: Page, info: TestInfo) {
  if (isJs(info)) return expectNoSeriousA11yViolations(page);
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
  const browser = page.context().browser();
  if (!browser) throw new Error("no browser");
  const ctx = await browser.newContext({
    javaScriptEnabled: true,
    viewport: page.viewportSize() ?? undefined,
  });
  try {
    const scratch = await ctx.newPage();
    await scratch.goto(new URL("/healthz", page.url()).toString());
    await scratch.setContent(html, { waitUntil: "load" });
    await expectNoSeriousA11yViolations(scratch);
  } finally {
    await ctx.close();
  }
}
