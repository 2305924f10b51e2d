import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * The email deep-link pages (token login, password reset, thermostat dismissal, fix-my-bill) never hydrate
 * (app/ui/static-page.tsx): in both projects they load no script file, preload no module and have
 * no Remix context; their only script is inline.
 */
export async function expectNoAppScripts(page: Page) {
  await expect(page.locator("script[src]")).toHaveCount(0);
  await expect(page.locator("link[rel='modulepreload']")).toHaveCount(0);
  expect(await page.evaluate(() => "__remixContext" in window)).toBe(false);
}

/** Opens an email deep-link page (nothing to wait for: there is no hydration) and checks it ships no app JS. */
export async function openEmailPage(page: Page, path: string) {
  const res = await page.goto(path);
  await expectNoAppScripts(page);
  return res;
}
