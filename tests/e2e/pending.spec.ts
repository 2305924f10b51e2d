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

type Seen = { ms: number; label: string | null; status: string | null };

/**
 * Records, in the page, the time from the next click to the first `aria-busy` on `selector`, with the label it
 * then shows and what the status region (`statusSelector`) then says. Read with `page.evaluate`: while the
 * browser waits for the held POST a locator would wait for the next document instead.
 */
async function watchBusy(page: Page, selector: string, statusSelector: string) {
  await page.evaluate(
    ([sel, statusSel]) => {
      const w = window as unknown as { __click?: number; __seen?: Seen };
      window.addEventListener("click", () => (w.__click ??= performance.now()), { capture: true });
      const el = document.querySelector(sel)!;
      new MutationObserver((_, o) => {
        if (el.getAttribute("aria-busy") !== "true") return;
        o.disconnect();
        const ms = performance.now() - (w.__click ?? NaN);
        // The next frame: the status is written in the same task as aria-busy, or by React's next render.
        requestAnimationFrame(() => {
          w.__seen = {
            ms,
            label: el.getAttribute("data-pending-label") ?? el.textContent,
            status: document.querySelector(statusSel)?.textContent ?? null,
          };
          // Kept across the navigation that follows (the tab's session storage).
          sessionStorage.setItem("seen", JSON.stringify(w.__seen));
        });
      }).observe(el, { attributes: true });
    },
    [selector, statusSelector],
  );
  return () => page.evaluate(() => JSON.parse(sessionStorage.getItem("seen") ?? "null") as Seen | null);
}

async function signInPending(page: Page) {
  const posts = await holdSignInPosts(page);
  await page.getByLabel("Password").fill("demo-pass-2024");
  await page
    .getByRole("button", { name: "Log in", exact: true })
    .evaluate((b) => (b.id ||= "pending-under-test"));
  // By id from here: its accessible name changes while pending.
  const button = page.locator("#pending-under-test");
  const seen = await watchBusy(page, "#pending-under-test", "#pending-under-test + [role='status']");
  const box = (await button.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForTimeout(300);
  // A second click while the first request is held sends nothing.
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2).catch(() => undefined);
  await page.waitForURL((url) => !url.pathname.startsWith("/login"), { timeout: 15_000 });
  const pending = await seen();
  expect(pending).not.toBeNull();
  expect(pending!.ms).toBeLessThan(100);
  expect(pending!.label).toBe("Sending…");
  expect(pending!.status).toBe("Sending…");
  expect(posts.count).toBe(1);
}

test("after hydration: the pressed submit shows its pending state at once and sends once", async ({
  page,
}) => {
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

test("before hydration: a link being followed is marked busy and the page says Loading…", async ({
  page,
}) => {
  await page.route(/\/build\/.*\.js$/, (route) => route.abort());
  await page.goto("/login");
  await page.route("**/privacy-policy", async (route) => {
    await new Promise((r) => setTimeout(r, HOLD_MS));
    await route.continue().catch(() => undefined);
  });
  await page
    .locator("a[href='/privacy-policy']")
    .first()
    .evaluate((a) => (a.id = "link-under-test"));
  const seen = await watchBusy(page, "#link-under-test", "#nav-status");
  await page.locator("#link-under-test").click({ noWaitAfter: true });
  await page.waitForURL("**/privacy-policy", { timeout: 15_000 });
  const pending = await seen();
  expect(pending).not.toBeNull();
  expect(pending!.ms).toBeLessThan(100);
  expect(pending!.status).toBe("Loading…");
});
