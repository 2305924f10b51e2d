import { expect, isJs, loginAs, ready, test, USERS } from "./fixtures";

/**
 * Rule investigation-queue: staff see every open investigation across clients on /investigations (the staff
 * nav), oldest request first, each with its promise ("respond within 1 business day", rule
 * investigation-response-due), and open one: a POST that impersonates the client and lands on the bill's flag,
 * whose close form closes it; closed, it leaves the queue. Anyone else: 404, and no link. Each project opens
 * its own flag (js: 105's rate class change; nojs: 110's supplier change), as flag-outcome.spec.ts does.
 */

const DUE =
  /^(Due today|Due tomorrow|Due \w{3}, \w{3} \d{1,2}|\d+ business days? late \(was due \w{3}, \w{3} \d{1,2}\)|Late \(was due \w{3}, \w{3} \d{1,2}\))$/;

test("staff see the open investigations oldest first and open one to close it", async ({ page }, info) => {
  await loginAs(page, USERS.morgan);
  await page.goto("/impersonate");
  await page.getByRole("link", { name: "Investigations", exact: true }).click();
  await expect(page).toHaveURL(/\/investigations$/);
  await ready(page, info);
  await expect(page.getByRole("heading", { level: 1, name: "Investigations" })).toBeVisible();
  await expect(page.getByTestId("investigations-count")).toHaveText("2 open investigations");

  const cards = page.locator(".investigation-card");
  await expect(cards).toHaveCount(2);
  const asked: number[] = [];
  for (const card of await cards.all()) {
    await expect(card.getByRole("heading", { level: 2 })).toHaveText(
      /^Harbor Coffee Co\. · .+ \(HCC-\d{3}\)$/,
    );
    await expect(card.locator(".investigation-due .pill")).toHaveText(DUE);
    await expect(card).toContainText(/Bill of \w{3} \d{1,2}, \d{4} · account /);
    await expect(card).toContainText("At stake on this bill, from the rate per kWh alone: ");
    // Who asked and when, in the location's time zone ("Nov 10, 2026, 3:00 AM CST").
    const time = card.locator("dd time");
    await expect(card.locator("dd").last()).toHaveText(
      /^Dana Reyes asked on \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M [A-Z]{2,5}$/,
    );
    asked.push(Date.parse((await time.getAttribute("datetime"))!));
  }
  // Oldest request first.
  expect(asked[0]).toBeLessThanOrEqual(asked[1]);

  const name = isJs(info) ? "Harbor Coffee South Congress" : "Slope";
  const card = cards.filter({ hasText: name });
  await expect(card).toContainText(isJs(info) ? "Delivery rate class changed" : "Supplier changed to ");
  const flagId = (await card.getAttribute("data-testid"))!.replace("investigation-", "");
  await card.getByRole("button", { name: "Open to close" }).click();

  // Impersonating Harbor, on the bill's flag of the location's Bill History, with its close form.
  await expect(page).toHaveURL(
    new RegExp(`/locations/${isJs(info) ? 105 : 110}/spending\\?.*#flag-${flagId}$`),
  );
  await ready(page, info);
  await expect(page.getByText("You are now impersonating Harbor Coffee Co.")).toBeVisible();
  const flag = page.getByTestId(`flag-${flagId}`);
  await expect(flag).toHaveAttribute("data-status", "action_requested");
  await expect(flag).toBeInViewport();
  const form = flag.locator("form.flag-close");
  await form.getByRole("radio", { name: "Billing was correct" }).check();
  await form
    .getByRole("textbox", { name: "Note for the client" })
    .fill("The utility billed the change correctly.");
  await form.getByRole("button", { name: "Close investigation" }).click();
  await expect(page.getByTestId(`flag-${flagId}`)).toHaveAttribute("data-status", "completed");

  // Back in the queue (staff still impersonating): the closed one has left it.
  await page.getByRole("link", { name: "Investigations", exact: true }).click();
  await expect(page).toHaveURL(/\/investigations$/);
  await expect(page.getByTestId("investigations-count")).toHaveText("1 open investigation");
  await expect(page.getByTestId(`investigation-${flagId}`)).toHaveCount(0);
});

test("the queue is staff's alone: a client's admin gets 404 and no link", async ({ page }, info) => {
  await loginAs(page, USERS.dana);
  await page.goto("/locations");
  await ready(page, info);
  await expect(page.getByRole("link", { name: "Investigations" })).toHaveCount(0);
  const res = await page.goto("/investigations");
  expect(res?.status()).toBe(404);
  await expect(page.locator(".investigation-card")).toHaveCount(0);
});

test("at 390 px the cards fit: nothing scrolls sideways", async ({ page }, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, USERS.morgan);
  await page.goto("/investigations");
  await ready(page, info);
  await expect(page.locator(".investigation-card")).toHaveCount(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // Each label sits above its value on a phone: the button is within the card and the screen.
  const button = page.locator(".investigation-card").first().getByRole("button", { name: "Open to close" });
  const box = (await button.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
});
