import type { Locator, Page } from "@playwright/test";
import { expect, isJs, loginAs, mailMark, ready, shootMail, test, USERS, waitForMail } from "./fixtures";

/**
 * Rule flag-outcome: staff, impersonating the client, close an investigation (action requested) with an
 * outcome, a credit and a note; the flag becomes completed, the client's Bill Audit Alert recipients get one
 * email with the outcome, and the spending page shows the flag's history. Each project closes its own flag
 * (js: 105's rate class change; nojs: 110's supplier change), both seeded as action requested.
 */

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The supplier the flag's bill names (its row, just above the flag's banner). */
async function supplierOf(flag: Locator) {
  const row = flag.locator("xpath=ancestor::tr[1]/preceding-sibling::tr[1]");
  return ((await row.locator("td.supplier").textContent()) ?? "").trim();
}

async function impersonateHarbor(page: Page) {
  await page.goto("/impersonate?q=Harbor");
  await page.getByRole("radio", { name: /Harbor Coffee Co\./ }).check();
  await page.getByRole("textbox", { name: "Reason" }).fill("Closing a bill investigation");
  await page.getByRole("button", { name: "Start impersonating" }).click();
  await expect(page).not.toHaveURL(/\/impersonate/);
}

test("staff close an investigation with a credit; the client gets the outcome by email and sees the history", async ({
  page,
}, info) => {
  const location = isJs(info) ? 105 : 110;
  const since = await mailMark(info);
  await loginAs(page, USERS.morgan);
  await impersonateHarbor(page);
  await page.goto(`/locations/${location}/spending`);
  await ready(page, info);
  const flag = page.locator('.flag[data-status="action_requested"]').first();
  const flagId = (await flag.getAttribute("data-testid"))!.replace("flag-", "");
  const form = flag.locator("form.flag-close");
  await expect(form.getByRole("group", { name: "Close this investigation" })).toBeVisible();

  // Bad input keeps what was typed and says what is wrong, at the flag.
  await form.getByRole("radio", { name: "Credit received" }).check();
  await form
    .getByRole("textbox", { name: "Note for the client" })
    .fill("Utility refunded the delivery charge.");
  // A comma only separates thousands: "12,05" is refused, never recorded as $1,205.00.
  await form.getByRole("textbox", { name: /Credit received/ }).fill("12,05");
  await form.getByRole("button", { name: "Close investigation" }).click();
  const again = page.getByTestId(`flag-${flagId}`).locator("form.flag-close");
  await expect(again.getByRole("alert")).toHaveText(
    /Enter the credit as an amount above \$0\.00, in dollars and cents, with commas only between thousands/,
  );
  await expect(again.getByRole("textbox", { name: /Credit received/ })).toHaveValue("12,05");
  await expect(again.getByRole("textbox", { name: "Note for the client" })).toHaveValue(
    "Utility refunded the delivery charge.",
  );
  await expect(again.getByRole("radio", { name: "Credit received" })).toBeChecked();

  await again.getByRole("textbox", { name: /Credit received/ }).fill("$48.60");
  await again.getByRole("button", { name: "Close investigation" }).click();
  const closed = page.getByTestId(`flag-${flagId}`);
  await expect(closed).toHaveAttribute("data-status", "completed");
  await expect(closed.locator("form.flag-close")).toHaveCount(0);
  // What was at stake on the bill (rule flag-price): 110's supplier change is priced, 105's rate did not rise.
  const price = (await closed.locator(".flag-price").textContent()) ?? "";
  const stake = /= (\$[\d,]+\.\d{2})\.$/.exec(price)?.[1] ?? null;
  expect(stake === null).toBe(isJs(info));
  const words = `Credit received: $48.60${stake ? ` of ${stake}` : ""}`;
  await expect(page.getByTestId(`flag-outcome-${flagId}`)).toContainText(
    new RegExp(`^You closed the investigation on .+ at .+: ${escapeRe(words)}\\.`),
  );
  // The flag now reads as its outcome, not as a confirmed change or an open request.
  await expect(
    closed.getByRole("heading", { name: "Investigated: credit of $48.60 received" }),
  ).toBeVisible();
  await expect(page.getByTestId(`flag-copy-${flagId}`)).toHaveText(
    `We investigated the ${isJs(info) ? "delivery rate class change" : `change of supplier to ${await supplierOf(closed)}`} and the utility credited this account $48.60${stake ? ` of the ${stake} at stake` : ""}.`,
  );

  // One email to Dana (she gets Bill Audit Alerts) with the outcome and the note.
  const mail = await waitForMail(info, USERS.dana, since, /^Investigation closed: /);
  await shootMail(page, info, mail, "investigation-closed");
  expect(mail.subject).toMatch(/^Investigation closed: Credit received: \$48\.60 at /);
  expect(mail.text).toContain(`Outcome: ${words}`);
  expect(mail.text).toContain("Investigated: credit of $48.60 received");
  expect(mail.text).toContain("Note: Utility refunded the delivery charge.");
  expect(mail.text).toMatch(/Closed by: Morgan .+, .+ at /);
  const link = new URL(mail.links.find((l) => /\/locations\/\d+\/spending\?/.test(l))!);

  // The client opens the email's link: the flag, resolved, with its history (raised, the outcome, who, when).
  await page.context().clearCookies();
  await loginAs(page, USERS.dana);
  await page.goto(link.pathname + link.search + link.hash);
  await ready(page, info);
  const seen = page.getByTestId(`flag-${flagId}`);
  await expect(seen).toHaveAttribute("data-status", "completed");
  await expect(seen.locator("form")).toHaveCount(0);
  await expect(page.getByTestId(`flag-outcome-${flagId}`)).toContainText(
    new RegExp(`^Morgan .+ closed the investigation on .+: ${escapeRe(words)}\\.`),
  );
  await expect(seen.getByRole("heading", { name: "Investigated: credit of $48.60 received" })).toBeVisible();
  await seen.getByText("History").click();
  const history = page.getByTestId(`flag-history-${flagId}`).locator("li");
  await expect(history.first()).toHaveText(/^Raised with the bill of /);
  await expect(history.last()).toHaveText(/^Morgan .+ closed the investigation/);
});

test("the client sees no close form; seeded closed investigations show their outcome", async ({
  page,
}, info) => {
  await loginAs(page, USERS.dana);
  await page.goto(`/locations/${isJs(info) ? 105 : 110}/spending`);
  await ready(page, info);
  await expect(page.locator('.flag[data-status="action_requested"]').first()).toBeVisible();
  await expect(page.locator("form.flag-close")).toHaveCount(0);
  // The seeded closed ones show their outcome (108: a credit; 111: billing was correct).
  await page.goto("/locations/108/spending?accountId=1010");
  await ready(page, info);
  await expect(page.locator(".flag-outcome").first()).toContainText(
    /Credit received: \$182\.50 of \$[\d,]+\.\d{2}/,
  );
  // Headed by the outcome: not "New supplier verified … is confirmed as the energy supplier".
  await expect(page.getByRole("heading", { name: "Investigated: credit of $182.50 received" })).toBeVisible();
  await expect(page.locator(".flag").filter({ hasText: "Investigated: credit" })).not.toContainText(
    "confirmed",
  );
  await page.goto("/locations/111/spending");
  await ready(page, info);
  await expect(page.getByRole("heading", { name: "Investigated: the billing was correct" })).toBeVisible();
});
