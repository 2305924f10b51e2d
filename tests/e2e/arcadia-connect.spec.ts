import type { Page } from "@playwright/test";
import { expect, isJs, loginAs, ready, serverOf, test, USERS } from "./fixtures";
import { submitInConnect } from "./arcadia";

/**
 * The provider's own Connect against the simulator on the api's port (api/simulators/arcadia.ts):
 * with JavaScript, @arcadia-eng/connect-react opens Connect over the page; without, the provider's hosted page.
 * The username typed into Connect chooses the simulator's verdict (docs/testing.md), which reaches the
 * accounts page by a signed webhook after UTILITY_PROVIDER_DELAY_MS.
 */

/**
 * Waits (reloading) for an accounts-page row of `utility` to read `status` and, when given, for the page's one
 * credential alert saying `alert`. Both are awaited together: "Processing" is also the row's status before the
 * webhook has arrived, so the status alone says nothing about the verdict.
 */
async function expectAccountStatus(page: Page, utility: RegExp, status: string, alert?: string) {
  await page.goto("/accounts");
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("row", { name: utility }).filter({ hasText: status }).first()).toBeVisible({
      timeout: 1000,
    });
    if (alert)
      await expect(page.getByTestId("credential-alert").filter({ hasText: alert })).toHaveCount(1, {
        timeout: 1000,
      });
  }).toPass({ timeout: 30_000 });
}

test.describe("the provider's Connect", () => {
  test("a new connection: Connect opens from our page, the verdict reaches the accounts page", async ({
    page,
  }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/authorize-arcadia?step=connect_arcadia&utility=prov_duke");
    await expect(page.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
    await expect(page.getByText("We read up to 12 months of bills from your utility account.")).toBeVisible();
    // The built-in form is not the step any more.
    await expect(page.getByLabel("Duke Energy password")).toHaveCount(0);
    await submitInConnect(page, info, `harbor-duke-${info.project.name}`, { utility: "Duke Energy" });
    await expectAccountStatus(page, /Duke Energy/, "Connected");
  });

  for (const [username, status, banner] of [
    ["bad-login", "Invalid Credentials", "Reconnect Required"],
    ["mfa-login", "Processing", "MFA Refresh Required"],
    ["timeout-login", "Connection Failed", "Reconnect Required"],
  ] as const) {
    test(`a '${username}' in Connect ends in ${status} with the ${banner} banner`, async ({ page }, info) => {
      await loginAs(page, USERS.dana);
      await page.goto("/authorize-arcadia?step=connect_arcadia&utility=prov_gapower");
      await submitInConnect(page, info, username, { utility: "Georgia Power" });
      await expectAccountStatus(page, /Georgia Power/, status, `${banner}: Georgia Power (${username})`);
    });
  }

  test("a failure inside Connect says so on the step, which stays", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/authorize-arcadia?step=connect_arcadia&utility=prov_gapower");
    await ready(page, info);
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    if (isJs(info)) {
      const frame = page.frameLocator('iframe[title="Arcadia Connect"]');
      await frame.getByLabel("Utility username").fill("error-login");
      await frame.getByLabel("Utility password").fill("pw");
      await frame.getByRole("button", { name: "Submit credentials" }).click();
      await expect(page.getByRole("dialog", { name: "Arcadia Connect" })).toHaveCount(0);
      await expect(page.getByRole("alert")).toHaveText("An error has occurred, please try again.");
      await expect(page.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
    } else {
      await page.getByLabel("Utility username").fill("error-login");
      await page.getByLabel("Utility password").fill("pw");
      await page.getByRole("button", { name: "Submit credentials" }).click();
      await expect(page.getByRole("heading", { name: "Something went wrong." })).toBeVisible();
    }
  });

  test("closing Connect without submitting leaves the step as it was", async ({ page }, info) => {
    test.skip(!isJs(info), "the hosted page has a Cancel link back instead");
    await loginAs(page, USERS.dana);
    await page.goto("/authorize-arcadia?step=connect_arcadia&utility=prov_gapower");
    await ready(page, info);
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await page.getByRole("button", { name: "Close Connect" }).click();
    await expect(page.getByRole("dialog", { name: "Arcadia Connect" })).toHaveCount(0);
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Connect", exact: true })).toBeEnabled();
  });

  test("the hosted page's Cancel goes back to the step, not to Success", async ({ page }, info) => {
    test.skip(isJs(info), "with JavaScript Connect closes over the page (the test above)");
    await loginAs(page, USERS.dana);
    await page.goto("/authorize-arcadia?step=connect_arcadia&utility=prov_gapower");
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await expect(page).toHaveURL(/\/arcadia-sim\/connect\/cu_/);
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
    await expect(
      page.getByText("Connect was closed before a login was submitted: nothing was connected."),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Connection(s) Initiated" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Connect", exact: true })).toBeEnabled();
  });

  for (const [banner, link, username] of [
    ["Reconnect Required", "RECONNECT", "harbor.chicago"],
    ["MFA Refresh Required", "REFRESH MFA", "harbor.boston"],
  ] as const) {
    test(`${link} opens Connect in update mode for that credential and clears the ${banner} banner`, async ({
      page,
    }, info) => {
      await loginAs(page, USERS.dana);
      await page.goto("/accounts");
      const alert = page
        .getByTestId("credential-alert")
        .filter({ hasText: `${banner}:` })
        .filter({ hasText: username });
      await expect(alert).toHaveCount(1);
      await alert.getByRole("link", { name: new RegExp(`^${link}`) }).click();
      await ready(page, info);
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByRole("heading", { name: "Review accounts" })).toBeVisible();
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByRole("heading", { name: "Enter Credentials" })).toBeVisible();
      await expect(page.getByText(/where you update your .* login/)).toBeVisible();
      await submitInConnect(page, info, `${username}-fixed`, { button: "Reconnect" });
      await page.goto("/accounts");
      await expect(async () => {
        await page.reload();
        await expect(page.getByTestId("credential-alert").filter({ hasText: username })).toHaveCount(0, {
          timeout: 1000,
        });
      }).toPass({ timeout: 30_000 });
    });
  }
});

test.describe("Connect's security", () => {
  test("only the connect page allows the provider's origins and carries a token", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    const connect = await page.goto("/authorize-arcadia?step=connect_arcadia&utility=prov_duke");
    const apiOrigin = `http://127.0.0.1:${serverOf(info).api}`;
    const csp = connect!.headers()["content-security-policy"];
    expect(csp).toContain(`frame-src ${apiOrigin}`);
    expect(csp).toMatch(new RegExp(`script-src [^;]*${apiOrigin.replace(/[.:/]/g, "\\$&")}`));
    expect(connect!.headers()["cache-control"]).toBe("private, no-store");
    expect(await connect!.text()).toMatch(/ct_[0-9a-f]{24}/);
    for (const path of ["/accounts", "/locations", "/settings", "/grid-services?connect=1"]) {
      const res = await page.goto(path);
      const other = res!.headers()["content-security-policy"];
      expect(other, path).not.toContain(apiOrigin);
      expect(other, path).toContain("frame-src 'none'");
      expect(await res!.text(), path).not.toMatch(/ct_[0-9a-f]{24}/);
    }
  });

  test("the webhook endpoint is not reachable through the web tier", async ({ request }) => {
    const res = await request.post("/api/webhooks/arcadia", {
      data: { id: "evt_x", type: "utility_credential_verified", created_at: new Date().toISOString() },
      maxRedirects: 0,
    });
    expect([404, 405]).toContain(res.status());
  });
});
