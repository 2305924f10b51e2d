import type { Locator, Page, Request, Route } from "@playwright/test";
import { expect, loginAs, test, USERS } from "./fixtures";

/**
 * Every click answers at once (app/ui/pending.tsx): a submit button reads its pending label, is aria-busy and
 * its status region speaks within 100 ms of the click, JavaScript loaded or not yet; a second click sends no
 * second request. The sign-in POST, and the connect dialog's fetcher requests, are held for 3 s so the pending
 * state can be looked at. JavaScript only:
 * without it nothing in the page can react to a click (the browser's own loading indicator does).
 */
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the pending state is made by a script");

const HOLD_MS = 3000;

/** Holds every request to `url` that `held` picks (document or Remix data request) and counts them. */
async function holdRequests(page: Page, url: RegExp, held: (request: Request) => boolean) {
  const seen = { count: 0 };
  await page.route(url, async (route: Route) => {
    if (!held(route.request())) return route.continue();
    seen.count++;
    await new Promise((r) => setTimeout(r, HOLD_MS));
    await route.continue().catch(() => undefined);
  });
  return seen;
}

const holdSignInPosts = (page: Page) =>
  holdRequests(page, /\/login(\.data)?\?/, (request) => request.method() === "POST");

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
      // Watched again on the same page: from the next click on.
      w.__click = undefined;
      sessionStorage.removeItem("seen");
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

/**
 * Presses `button` (its request held by `held`), presses it again 300 ms later, waits for `answered`, then checks
 * the pending state came within 100 ms of the first press and that one request went out.
 */
async function pressTwice(
  page: Page,
  button: Locator,
  held: { count: number },
  answered: () => Promise<unknown>,
) {
  await page.evaluate(() => document.getElementById("pending-under-test")?.removeAttribute("id"));
  await button.evaluate((b) => (b.id = "pending-under-test"));
  // By id from here: its accessible name changes while pending.
  const byId = page.locator("#pending-under-test");
  const seen = await watchBusy(page, "#pending-under-test", "#pending-under-test + [role='status']");
  const box = (await byId.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForTimeout(300);
  // A second click while the first request is held sends nothing.
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2).catch(() => undefined);
  await answered();
  const pending = await seen();
  expect(pending).not.toBeNull();
  expect(pending!.ms).toBeLessThan(100);
  expect(pending!.label).toBe("Sending…");
  expect(pending!.status).toBe("Sending…");
  expect(held.count).toBe(1);
}

async function signInPending(page: Page) {
  const posts = await holdSignInPosts(page);
  await page.getByLabel("Password").fill("demo-pass-2024");
  await pressTwice(page, page.getByRole("button", { name: "Log in", exact: true }), posts, () =>
    page.waitForURL((url) => !url.pathname.startsWith("/login"), { timeout: 15_000 }),
  );
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

test("in the connect dialog: a fetcher's GET shows its pending state at once and sends once", async ({
  page,
}) => {
  // Three steps of the flow, one of them held for 3 s.
  test.slow();
  await loginAs(page, USERS.dana);
  // Not over /accounts, whose background refresh reloads the dialog's step too (a second request not clicked).
  await page.goto("/grid-services?connect=1");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  const dialog = page.getByRole("dialog", { name: "Connect Utility Accounts" });
  await expect(dialog.getByRole("heading", { name: "Select Utility" })).toBeVisible();
  await dialog.getByLabel("Search utilities").fill("duke");
  await dialog.getByLabel("Utility", { exact: true }).selectOption({ label: "Duke Energy" });

  // Continue: the fetcher loads the next step (a GET submission).
  const loads = await holdRequests(page, /\/authorize-arcadia(\.data)?\?/, (request) =>
    request.url().includes("step=review_accounts"),
  );
  await pressTwice(page, dialog.getByRole("button", { name: "Continue" }), loads, () =>
    expect(dialog.getByRole("heading", { name: "Review accounts" })).toBeVisible({ timeout: 15_000 }),
  );

  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
  // The provider's Connect opens on the connect page only (its policy allows the provider; the dialog's host
  // page's does not): the dialog's step links there, so no POST is left in this flow's dialog.
  await expect(dialog.getByRole("link", { name: "Connect", exact: true })).toHaveAttribute(
    "href",
    /^\/authorize-arcadia\?step=connect_arcadia&utility=prov_duke/,
  );
});
