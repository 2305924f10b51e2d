import type { Page, Route } from "@playwright/test";
import { expect, test, USERS } from "./fixtures";

/**
 * Every click answers at once (app/ui/pending.tsx): a submit button reads its pending label, is aria-busy and
 * its status region speaks within 100 ms of the click, JavaScript loaded or not yet; a second click sends no
 * second request. The sign-in POST is held for 3 s so the pending state can be looked at. JavaScript only:
 * without it nothing in the page can react to a click (the browser's own loading indicator does).
 */
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the pending state is made by a script");

const HOLD_MS = 3000;

/** Holds every sign-in POST (document or Remix data request) and counts them. */
async function holdSignInPosts(page: Page) {
  const posts = { count: 0 };
  await page.route(/\/login(\.data)?\?/, async (route: Route) => {
    if (route.request().method() !== "POST") return route.continue();
    posts.count++;
    await new Promise((r) => setTimeout(r, HOLD_MS));
    await route.continue().catch(() => undefined);
  });
  return posts;
}

/** Records, in the page, the time of the next click and of the first `aria-busy` on `selector`. */
async function timeBusy(page: Page, selector: string) {
  await page.evaluate((sel) => {
    const w = window as unknown as { __click?: number; __busy?: number };
    window.addEventListener("click", () => (w.__click ??= performance.now()), { capture: true });
    const el = document.querySelector(sel)!;
    new MutationObserver((_, o) => {
      if (el.getAttribute("aria-busy") === "true") {
        w.__busy = performance.now();
        o.disconnect();
      }
    }).observe(el, { attributes: true });
  }, selector);
  return () =>
    page.evaluate(() => {
      const w = window as unknown as { __click?: number; __busy?: number };
      return w.__busy !== undefined && w.__click !== undefined ? w.__busy - w.__click : Infinity;
    });
}

async function signInPending(page: Page) {
  const posts = await holdSignInPosts(page);
  await page.getByLabel("Password").fill("demo-pass-2024");
  const button = page.getByRole("button", { name: "Log in", exact: true });
  await button.evaluate((b) => (b.id ||= "pending-under-test"));
  const elapsed = await timeBusy(page, "#pending-under-test");
  const box = (await button.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(button).toHaveAttribute("aria-busy", "true");
  expect(await elapsed()).toBeLessThan(100);
  await expect(button).toHaveAccessibleName("Sending…");
  await expect(page.locator("#pending-under-test + [role='status']")).toHaveText("Sending…");
  // A second click while the first request is held sends nothing.
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForTimeout(300);
  expect(posts.count).toBe(1);
  await page.waitForURL((url) => !url.pathname.startsWith("/login"), { timeout: 15_000 });
  expect(posts.count).toBe(1);
}

test("after hydration: the pressed submit shows its pending state at once and sends once", async ({ page }) => {
  await page.goto(`/login?email=${encodeURIComponent(USERS.dana)}`);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await signInPending(page);
});

test("before hydration: the same, with the JavaScript files held back", async ({ page }) => {
  await page.route(/\/build\/.*\.js$/, (route) => route.abort());
  await page.goto(`/login?email=${encodeURIComponent(USERS.dana)}`);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
  await signInPending(page);
});

test("before hydration: a link being followed is marked busy and the page says Loading…", async ({ page }) => {
  await page.route(/\/build\/.*\.js$/, (route) => route.abort());
  await page.goto("/login");
  await page.route("**/privacy-policy", async (route) => {
    await new Promise((r) => setTimeout(r, HOLD_MS));
    await route.continue().catch(() => undefined);
  });
  const link = page.locator("a[href='/privacy-policy']").first();
  await link.click();
  await expect(link).toHaveAttribute("aria-busy", "true", { timeout: 100 });
  await expect(page.locator("#nav-status")).toHaveText("Loading…");
});
