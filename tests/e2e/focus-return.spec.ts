import type { Page } from "@playwright/test";
import { expect, isJs, loginAs, ready, test, USERS } from "./fixtures";

/**
 * Closing a dialog returns focus to the control that opened it. With JavaScript: Escape or Close, focus is
 * back on the opener. Without: Close is a link to the page with the opener's fragment, so the next Tab starts
 * there.
 */
async function closeAndCheck(page: Page, js: boolean, opener: string, how: "escape" | "close") {
  if (how === "escape") await page.keyboard.press("Escape");
  else await page.getByRole("dialog").getByRole("link", { name: "Close" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`#${opener}$`));
  if (js) await expect(page.locator(`#${opener}`)).toBeFocused();
  else {
    // The fragment makes the opener the starting point of sequential focus: Tab goes to what follows it
    // (once the new page has loaded and scrolled to the fragment).
    await page.waitForLoadState("load");
    await expect(page.locator(`#${opener}`)).toBeInViewport();
    await page.keyboard.press("Tab");
    const follows = await page
      .locator(`#${opener}`)
      .evaluate(
        (el) =>
          document.activeElement !== document.body &&
          Boolean(el.compareDocumentPosition(document.activeElement!) & Node.DOCUMENT_POSITION_FOLLOWING),
      );
    expect(follows).toBe(true);
  }
}

test.describe("focus returns to the opener of a dialog", () => {
  test("the team editor (Escape with JavaScript, Close without)", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/settings?tab=team");
    await ready(page, info);
    const edit = page.getByRole("link", { name: /^Edit access for/ }).first();
    const opener = (await edit.getAttribute("id"))!;
    expect(opener).toMatch(/^edit-access-\d+$/);
    await edit.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog")).toBeVisible();
    await closeAndCheck(page, isJs(info), opener, isJs(info) ? "escape" : "close");
  });

  test("the usage date picker and bill picker", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations/101/usage/demand");
    await ready(page, info);
    for (const [name, opener] of [
      ["Select date", "select-date"],
      ["Select bill", "select-bill"],
    ] as const) {
      const link = page.getByRole("link", { name, exact: true });
      await link.focus();
      await page.keyboard.press("Enter");
      await expect(page.getByRole("dialog")).toBeVisible();
      await closeAndCheck(page, isJs(info), opener, isJs(info) ? "escape" : "close");
    }
  });
});

test.describe("menus close on Escape", () => {
  test("the row ⋯ menu and the location switcher close on Escape and focus their button", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations");
    await ready(page, info);
    const rowMenu = page
      .getByRole("group")
      .filter({ has: page.getByLabel(/^Actions for /) })
      .first();
    const summary = page.getByLabel(/^Actions for /).first();
    const switcher = page.getByTestId("location-select");
    for (const [menu, button] of [
      [rowMenu, summary],
      [switcher, switcher.locator("summary")],
    ] as const) {
      await button.focus();
      await page.keyboard.press("Enter");
      await expect(menu).toHaveAttribute("open", "");
      await menu.getByRole("link").first().focus();
      await page.keyboard.press("Escape");
      if (isJs(info)) {
        await expect(menu).not.toHaveAttribute("open");
        await expect(button).toBeFocused();
      } else {
        // Without JavaScript Escape does nothing to a <details>; its button still closes it.
        await button.focus();
        await page.keyboard.press("Enter");
        await expect(menu).not.toHaveAttribute("open");
      }
    }
  });
});
