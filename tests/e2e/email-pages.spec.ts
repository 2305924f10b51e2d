import { expect, expectJsState, isJs, loginAs, ready, test, USERS } from "./fixtures";
import { expectNoAppScripts, openEmailPage } from "./email-pages";

/**
 * The email deep-link pages without hydration (app/ui/static-page.tsx): what their small inline
 * script does with JavaScript on, and the way from them into the app, in both projects. Their own flows are in
 * auth.spec (token login, password reset), thermostats.spec (dismissal) and bills.spec (fix-my-bill).
 */
// Front of House: an Enode thermostat whose hold does not auto-resolve, so the rule lets it be dismissed.
const LINK = "/dismiss-thermostat-issue?thermostatId=1013&issueSlug=permanent_hold";

test.describe("email deep-link pages", () => {
  test("a link from the page leads into the app, which hydrates there", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await openEmailPage(page, "/fix-my-bill/action_requested");
    await page.getByRole("link", { name: "Visit Dashboard" }).click();
    await expect(page).toHaveURL(/\/locations$/);
    await ready(page, info);
    await expectJsState(page, info);
    await expect(page.getByRole("heading", { name: "Locations", exact: true, level: 1 })).toBeVisible();
  });

  test("the reset page with a spent or unknown token passes axe", async ({ page, a11y }) => {
    await openEmailPage(page, "/reset-password?token=not-a-real-token");
    await expect(page.getByRole("link", { name: "Back to login" })).toBeVisible();
    await a11y();
  });

  /**
   * The page's small inline pending script (app/ui/pending.tsx) marks the button busy at the first press and
   * refuses the second. With JavaScript off nothing can: Chrome may drop the first navigation for the second and
   * send the form twice, so there the dismissal itself must be the same whether it arrives once or twice.
   */
  test("a double press on the button is one dismissal", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await openEmailPage(page, LINK);
    let posts = 0;
    await page.route(/\/dismiss-thermostat-issue\?/, async (route) => {
      if (route.request().method() === "POST") {
        posts += 1;
        // Hold the answer so that the second press comes while the first is under way.
        await new Promise((r) => setTimeout(r, 1500));
      }
      await route.continue();
    });
    // Two presses in a row: the second comes while the first POST is under way.
    await page.getByRole("button", { name: "Dismiss issue" }).dblclick();
    await expect(page.getByRole("heading", { name: "Thermostat feedback received" })).toBeVisible();
    if (isJs(info)) expect(posts).toBe(1);
    else expect(posts).toBeGreaterThanOrEqual(1);
  });

  test("a browser error on the page is reported to the BFF", async ({ page }, info) => {
    test.skip(!isJs(info), "without JavaScript no script runs, so none can fail");
    await openEmailPage(page, "/fix-my-bill/dismissed");
    const sent = page.waitForRequest((r) => r.url().endsWith("/client-errors") && r.method() === "POST");
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error("email page test error");
      }, 0);
    });
    const request = await sent;
    expect(request.postDataJSON()).toMatchObject({
      kind: "error",
      name: "Error",
      message: "email page test error",
      page: "/fix-my-bill/dismissed",
    });
    expect((await request.response())?.status()).toBe(204);
    await expectNoAppScripts(page);
  });
});
