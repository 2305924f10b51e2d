import {
  askForLoginLink,
  expect,
  expectJsState,
  expectNoSeriousA11yViolations,
  isJs,
  loginAs,
  followMailLink,
  mailLink,
  mailMark,
  PASSWORD,
  ready,
  test,
  USERS,
  waitForMail,
} from "./fixtures";
import { expectNoAppScripts, openEmailPage } from "./email-pages";

test.describe("sign in", () => {
  test("password login lands on the locations dashboard", async ({ page }, info) => {
    await page.goto("/login");
    await expectJsState(page, info);
    await ready(page, info);
    await page.getByLabel("Email").fill(USERS.dana);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByTestId("login-email")).toHaveText(USERS.dana);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(page).toHaveURL(/\/locations$/);
    await expect(page.getByRole("heading", { name: "Locations", exact: true, level: 1 })).toBeVisible();
  });

  test("over plain HTTP the login page says where sign-in may fail, and why", async ({ page }, info) => {
    // The test servers answer on http://127.0.0.1 with production's Secure cookie: the local variant.
    await page.goto("/login");
    await ready(page, info);
    const notice = page.locator(".alert-warning").filter({ hasText: "Sign-in over plain HTTP" });
    await expect(notice).toContainText(
      "text browsers such as lynx and w3m do not keep the secure sign-in cookie",
    );
    // It names no address from the request (its Host is anyone's to set): the test servers have no HTTPS one.
    await expect(notice).toContainText("use HTTPS, or another browser");
    await expect(notice).not.toContainText(new URL(page.url()).host);
    await page.goto(`/login?email=${encodeURIComponent(USERS.dana)}`);
    await expect(notice).toBeVisible();
  });

  test("wrong password says so and keeps the email", async ({ page }, info) => {
    await page.goto(`/login?email=${encodeURIComponent(USERS.dana)}`);
    await ready(page, info);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(page.getByText("Your email or password is incorrect")).toBeVisible();
    await expect(page.getByTestId("login-email")).toHaveText(USERS.dana);
  });

  test("an empty ?email= is nothing typed yet: no validation error", async ({ page }, info) => {
    for (const query of ["?email=", "?email=%20&next=%2Flocations"]) {
      const res = await page.goto(`/login${query}`);
      expect(res?.status()).toBe(200);
      await ready(page, info);
      await expect(page.getByLabel("Email")).toHaveValue("");
      await expect(page.getByText("Please enter a valid email address")).toHaveCount(0);
      await expect(page.getByLabel("Email")).not.toHaveAttribute("aria-invalid", "true");
    }
  });

  test("unknown and badly formed emails", async ({ page }, info) => {
    await page.goto("/login");
    await ready(page, info);
    await page.getByLabel("Email").fill("nobody@nowhere.test");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("We could not find an account for that email address")).toBeVisible();
    await page.goto("/login?email=not-an-email");
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue("not-an-email");
    if (isJs(info)) {
      await ready(page, info);
      await page.getByLabel("Email").fill("still-bad");
      await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();
      await page.getByLabel("Email").fill("ok@example.test");
      await expect(page.getByRole("button", { name: "Continue" })).toBeEnabled();
    }
  });

  test("login code read from the email", async ({ page }, info) => {
    const since = await mailMark(info);
    await page.goto(`/login?email=${encodeURIComponent(USERS.sam)}`);
    await ready(page, info);
    await expect(page.getByLabel("Password")).toHaveCount(0);
    await page.getByRole("button", { name: "Email me a 6-digit code" }).click();
    await expect(
      page.getByText("We've sent a 6-digit code to your email. Please enter it to log in."),
    ).toBeVisible();
    const mail = await waitForMail(info, USERS.sam, since, /code/i);
    await page.getByLabel("6-digit code").fill(mail.code!);
    await page.getByRole("button", { name: "Log in with code" }).click();
    await expect(page).toHaveURL(/\/locations$/);
  });

  test("login link tapped in the email, with next kept", async ({ page }, info) => {
    const mail = await askForLoginLink(page, info, USERS.dana, "/privacy-policy");
    // The email as received, its button tapped: the login link page (no app script on it).
    await followMailLink(page, mail, "Log in to EnergyOps");
    await expectNoAppScripts(page);
    // A GET never consumes the token: the page only offers Continue.
    await expect(page.getByRole("button", { name: "Continue" })).toBeVisible();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/privacy-policy$/);
  });

  test("an invalid token shows the message and offers a new link, with no timed redirect", async ({
    page,
  }) => {
    await openEmailPage(page, "/login/link?token=not-a-real-token&next=%2Fsettings");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("Invalid token. Please try again.")).toBeVisible();
    await expectNoAppScripts(page);
    await expect(page.getByRole("button", { name: "Email me a new login link" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Log in another way" })).toHaveAttribute(
      "href",
      "/login?next=%2Fsettings",
    );
  });

  test("reset password by email", async ({ page }, info) => {
    const email = USERS.alex;
    const since = await mailMark(info);
    await page.goto(`/login?email=${encodeURIComponent(email)}`);
    await ready(page, info);
    await page.getByRole("button", { name: "Reset password" }).click();
    await expect(page.getByText("Check your email for a link to reset your password.")).toBeVisible();
    const mail = await waitForMail(info, email, since, /password/i);
    const link = new URL(mailLink(mail, "Reset your password"));
    await openEmailPage(page, `${link.pathname}${link.search}`);
    await expect(page.getByRole("heading", { name: "Set a new password" })).toBeVisible();
    await page.getByLabel("New password").fill("short");
    await page.getByLabel("Confirm password").fill("different");
    await page.getByRole("button", { name: "Set password" }).click();
    await expect(page.getByText("Password must contain at least 8 characters")).toBeVisible();
    // The first invalid field has the focus (its autofocus attribute: no hydration on this page).
    await expect(page.getByLabel("New password")).toBeFocused();
    await page.getByLabel("New password").fill(PASSWORD);
    await page.getByLabel("Confirm password").fill(`${PASSWORD}x`);
    await page.getByRole("button", { name: "Set password" }).click();
    await expect(page.getByText("Passwords must match")).toBeVisible();
    await expect(page.getByLabel("Confirm password")).toBeFocused();
    // Password fields are never sent back after a failed submission: type both again.
    await page.getByLabel("New password").fill(PASSWORD);
    await page.getByLabel("Confirm password").fill(PASSWORD);
    await page.getByRole("button", { name: "Set password" }).click();
    await expect(page.getByText("Password successfully changed")).toBeVisible();
    await expectNoAppScripts(page);
    await page.getByRole("link", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/login/);
    // From the page without scripts into the app: a full document load, and the login page hydrates.
    await ready(page, info);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(page).toHaveURL(/\/locations$/);
  });

  test("resi and mycor accounts", async ({ page }, info) => {
    await page.goto("/login");
    await ready(page, info);
    await page.getByLabel("Email").fill(USERS.riley);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("Login has not yet been enabled for this account")).toBeVisible();
    await page.getByLabel("Email").fill(USERS.jordan);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/mycor$/);
    await expect(page.getByTestId("countdown")).toBeVisible();
  });

  test("an open-redirect next is ignored", async ({ page }, info) => {
    await page.goto(
      `/login?email=${encodeURIComponent(USERS.dana)}&next=${encodeURIComponent("//evil.example/steal")}`,
    );
    await ready(page, info);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/locations$/);
  });

  test("a guarded page sends the visitor to login with next", async ({ page }) => {
    await page.goto("/locations?sort=name");
    await expect(page).toHaveURL(/\/login\?next=%2Flocations%3Fsort%3Dname$/);
  });

  test("sign out ends the session", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/locations");
    await ready(page, info);
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/locations");
    await expect(page).toHaveURL(/\/login\?next=/);
  });
});

test.describe("public pages", () => {
  for (const path of [
    "/login",
    `/login?email=${encodeURIComponent(USERS.dana)}`,
    "/login/link?token=abc",
    "/mycor",
    "/privacy-policy",
  ]) {
    test(`axe: ${path}`, async ({ page }) => {
      await page.goto(path);
      await expectNoSeriousA11yViolations(page);
    });
  }

  test("privacy policy", async ({ page }) => {
    await page.goto("/privacy-policy");
    await expect(page.getByText("Last updated August 16th, 2021")).toBeVisible();
  });

  test("unknown paths go to the index", async ({ page }) => {
    await page.goto("/no/such/page");
    await expect(page).toHaveURL(/\/login$/);
  });
});
