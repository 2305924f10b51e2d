import type { Page, TestInfo } from "@playwright/test";
import {
  expect,
  expectJsState,
  expectNoSeriousA11yViolations,
  isJs,
  ready,
  serverOf,
  test,
} from "./fixtures";
import { submitInConnect } from "./arcadia";

/** The health check's connect step and its success, for the provider's Connect (tests/e2e/arcadia.ts). */
const HEALTH_CHECK = {
  step: "Connect your Xcel Energy account",
  success: "Request Submitted",
  successUrl: /\/free-bill-health-check$/,
};

const unique = (tag: string) => `${tag}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;

async function fillStart(page: Page, info: TestInfo, utilitySearch: string, utility: string, email: string) {
  await page.goto("/free-bill-health-check");
  await ready(page, info);
  await expect(page.getByTestId("utility-filter-status")).toHaveText("Start typing");
  await page.getByLabel("Search utilities").fill(utilitySearch);
  if (!isJs(info)) await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("utility-filter-status")).toHaveText(/found/);
  await page.getByLabel("Utility", { exact: true }).selectOption({ label: utility });
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Company name").fill("Ada's Bakery");
}

test.describe("free bill health check", () => {
  test("a visitor submits a utility through the connect step", async ({ page }, info) => {
    await page.goto("/free-bill-health-check");
    await expectJsState(page, info);
    await expect(page.getByRole("heading", { name: "Free bill health check" })).toBeVisible();
    if (isJs(info)) {
      await ready(page, info);
      await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();
      await page.getByLabel("Search utilities").fill("ed");
      await expect(page.getByTestId("utility-filter-status")).toHaveText("Type at least 3 characters");
      await page.getByLabel("Search utilities").fill("qqqq");
      await expect(page.getByTestId("utility-filter-status")).toHaveText("No utilities found");
      await expectNoSeriousA11yViolations(page);
    }
    await fillStart(page, info, "xcel", "Xcel Energy", unique("ada"));
    if (isJs(info))
      await expect(
        page.getByText("This utility requires e-bill to be enabled on the account."),
      ).toBeVisible();
    await page.getByLabel(/Include a rate quote/).check();
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page.getByRole("heading", { name: "Connect your Xcel Energy account" })).toBeVisible();
    await expect(page.getByText("This utility requires e-bill to be enabled on the account.")).toBeVisible();
    // The provider's Connect, as in the signed-in flow: no utility password in our own form.
    await expect(page.getByLabel("Xcel Energy password")).toHaveCount(0);
    await ready(page, info);
    if (isJs(info)) await expectNoSeriousA11yViolations(page);
    await submitInConnect(page, info, "ada-bakery", { ...HEALTH_CHECK, utility: "Xcel Energy" });
    await expect(page.getByText(/within 2-3 minutes/)).toBeVisible();
    await page.getByRole("link", { name: "Submit another request" }).click();
    await expect(page.getByRole("heading", { name: "Free bill health check" })).toBeVisible();
    await expect(page.getByLabel("First name")).toHaveValue("");
  });

  test("a login Connect rejects or times out keeps the connect step with its message", async ({
    page,
  }, info) => {
    await fillStart(page, info, "xcel", "Xcel Energy", unique("rej"));
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("heading", { name: HEALTH_CHECK.step })).toBeVisible();
    // The step's document allows the provider's Connect, and its token is never stored.
    const doc = await page.goto("/free-bill-health-check");
    expect(doc!.headers()["content-security-policy"]).toContain(
      `frame-src http://127.0.0.1:${serverOf(info).api}`,
    );
    expect(doc!.headers()["cache-control"]).toBe("private, no-store");
    // Without JavaScript the hosted page comes back to success; its verdict follows by webhook.
    await submitInConnect(page, info, "ada-bad", { ...HEALTH_CHECK, utility: "Xcel Energy" });
    if (!isJs(info)) return;
    await expect(page.getByRole("heading", { name: "Free bill health check" })).toBeVisible();
    await submitInConnect(page, info, "ada-timeout", { ...HEALTH_CHECK, button: "Reconnect" });
    await submitInConnect(page, info, "ada-good", { ...HEALTH_CHECK, button: "Reconnect" });
    await expect(page.getByText(/within 2-3 minutes/)).toBeVisible();
  });

  test("a ConEd-type utility collects account numbers", async ({ page }, info) => {
    await fillStart(page, info, "orange", "Orange and Rockland Utilities", unique("bo"));
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(
      page.getByRole("heading", { name: "Enter your Orange and Rockland Utilities account numbers" }),
    ).toBeVisible();
    await ready(page, info);
    await page.getByLabel("Account number").fill(`55-${String(Date.now()).slice(-8)}`);
    await page.getByRole("button", { name: "Add account" }).click();
    await expect(page.getByRole("list", { name: /Accounts to add \(1\)/ })).toBeVisible();
    if (!isJs(info)) {
      await page.getByRole("button", { name: "Submit" }).click();
      await expect(page.getByText("Required", { exact: true })).toBeVisible();
    } else {
      await expect(page.getByRole("button", { name: "Submit" })).toBeDisabled();
    }
    await page
      .getByLabel("I have ensured all accounts listed above have an associated contact email.")
      .check();
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByRole("heading", { name: "Request Submitted" })).toBeVisible();
  });

  test("bad input keeps what was typed; the honeypot refuses bots", async ({ page }, info) => {
    await fillStart(page, info, "duke", "Duke Energy", "ada@nodot");
    if (isJs(info)) {
      await page.getByLabel("Company name").click();
      await expect(page.getByText("Please enter a valid email address")).toBeVisible();
      await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();
    } else {
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByText("Please enter a valid email address")).toBeVisible();
      await expect(page.getByLabel("Company name")).toHaveValue("Ada's Bakery");
      await expect(page.getByLabel("Email address")).toHaveAttribute("aria-invalid", "true");
    }
    await page.getByLabel("Email address").fill(unique("bot"));
    await page.locator("#website").fill("http://spam.test", { force: true });
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("Your request could not be submitted.")).toBeVisible();
  });

  test("searching for a utility keeps what was typed; the e-bill hint shows on the first step", async ({
    page,
  }, info) => {
    await page.goto("/free-bill-health-check");
    await ready(page, info);
    const email = unique("cy");
    // Typed before the search (without JavaScript the search is a round trip to the server).
    await page.getByLabel("First name").fill("Cy");
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Company name").fill("Cy's Cafe");
    await page.getByLabel(/Include a rate quote/).check();
    await page.getByLabel("Search utilities").fill("xcel");
    if (!isJs(info)) await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByTestId("utility-filter-status")).toHaveText("1 utility found");
    await expect(page.getByLabel("First name")).toHaveValue("Cy");
    await expect(page.getByLabel("Email address")).toHaveValue(email);
    await expect(page.getByLabel("Company name")).toHaveValue("Cy's Cafe");
    await expect(page.getByLabel(/Include a rate quote/)).toBeChecked();
    // What was typed never goes into an address (no GET carries it).
    expect(page.url()).not.toContain(encodeURIComponent(email));
    // No error is shown for a search.
    await expect(page.getByText("Please select a utility")).toHaveCount(0);

    const ebill = page.getByText("This utility requires e-bill to be enabled on the account.");
    await expect(ebill).toBeHidden();
    await page.getByLabel("Utility", { exact: true }).selectOption({ label: "Xcel Energy" });
    await expect(ebill).toBeVisible();
    await page.getByLabel("Search utilities").fill("duke");
    if (!isJs(info)) await page.getByRole("button", { name: "Search" }).click();
    await page.getByLabel("Utility", { exact: true }).selectOption({ label: "Duke Energy" });
    await expect(ebill).toBeHidden();
    await expect(page.getByLabel("First name")).toHaveValue("Cy");
    await expectNoSeriousA11yViolations(page);

    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("heading", { name: "Connect your Duke Energy account" })).toBeVisible();
  });
});
