import {
  expect,
  expectNoSeriousA11yViolations,
  followMailLink,
  loginAs,
  mailMark,
  mailsTo,
  ready,
  runJob,
  shootMail,
  test,
  USERS,
  waitForMail,
} from "./fixtures";
import { testToday } from "../support/clock";

/**
 * Opting a location out of a grid event from the Grid Services page (rule grid-opt-out), in both projects: the
 * expanded pending event offers the button (opening it changes nothing), the POST opts the location out, the
 * row then reads Opted out with its thermostats out, and the button is gone.
 */
const tomorrow = () => new Date(testToday().getTime() + 86_400_000).toISOString().slice(0, 10);

test.describe("opting out of a grid event", () => {
  test("the pending event tomorrow at Mission: open it, opt out, it stays out", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    const day = tomorrow();
    await page.goto(`/grid-services?q=Mission&from=${day}&to=${day}`);
    await ready(page, info);
    const row = page.getByTestId("dispatch-row");
    await expect(row).toHaveCount(1);
    await expect(row.getByText("Pending")).toBeVisible();
    await row.getByRole("link", { name: /Show thermostat details/ }).click();
    await expect(page).toHaveURL(/open=\d+/);
    const details = page.getByTestId("dispatch-details");
    const parts = details.getByTestId("thermostat-part");
    await expect(parts.first()).toHaveText("Scheduled");
    const button = details.getByRole("button", { name: "Opt out of this event" });
    await expect(button).toBeVisible();
    await expect(details.getByText(/they will not pre-cool or hold/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    // Opening the event (a GET) changed nothing: reloaded, it is still pending and still offers the button.
    await page.reload();
    await ready(page, info);
    await expect(row.getByText("Pending")).toBeVisible();

    await page.setViewportSize({ width: 390, height: 900 });
    await page.screenshot({ path: info.outputPath("grid-opt-out-390.png"), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await details.getByRole("button", { name: "Opt out of this event" }).click();
    await expect(page.getByTestId("opt-out-done")).toHaveText(
      "This location is opted out of the event: its thermostats stay out.",
    );
    await expect(page).toHaveURL(/opted=\d+/);
    await expect(row.getByText("Opted out")).toBeVisible();
    await expect(details.getByRole("button", { name: "Opt out of this event" })).toHaveCount(0);
    const texts = await details.getByTestId("thermostat-part").allTextContents();
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((t) => t === "Opted out")).toBe(true);
    await page.screenshot({ path: info.outputPath("grid-opted-out-390.png"), fullPage: true });
  });

  test("the notice the day before, as received: its link opens the event, the button opts out", async ({
    page,
  }, info) => {
    const since = await mailMark(info);
    expect(await runJob(info, "grid_event")).toBeGreaterThan(0);
    const mail = await waitForMail(info, USERS.dana, since, /^Grid event tomorrow at /);
    expect(mail.text).toMatch(/pre-cool to \d+°F from \d{1,2}:\d{2} (AM|PM) P[SD]T, then hold at \d+°F/);
    expect(mail.text).toContain("opt out before the event starts");
    await shootMail(page, info, mail, "grid-notice");
    // At 390 px the email does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 900 });
    await page.setContent(mail.html);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: info.outputPath("grid-notice-email-390.png"), fullPage: true });

    await loginAs(page, USERS.dana);
    await followMailLink(page, mail, "Opt out of this event");
    await ready(page, info);
    // The link only asks: the event is open, still pending, with the button.
    const details = page.getByTestId("dispatch-details");
    await expect(details).toHaveCount(1);
    await expect(page.getByTestId("dispatch-row").filter({ has: page.getByText("Pending") })).toHaveCount(1);
    await details.getByRole("button", { name: "Opt out of this event" }).click();
    await expect(page.getByTestId("opt-out-done")).toBeVisible();
    await expect(details.getByTestId("thermostat-part").first()).toHaveText("Opted out");
  });

  test("the Grid Event Notices switch on My Preferences turns the notice off", async ({ page }, info) => {
    await loginAs(page, USERS.dana);
    await page.goto("/settings");
    await ready(page, info);
    const notices = page.getByRole("switch", { name: "Grid Event Notices" });
    await expect(notices).toHaveAttribute("aria-checked", "true");
    await notices.click();
    await expect(page.getByTestId("toast")).toContainText("Preferences saved");
    await page.reload();
    await expect(page.getByRole("switch", { name: "Grid Event Notices" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    const since = await mailMark(info);
    await runJob(info, "grid_event");
    expect(await mailsTo(info, USERS.dana, since, /^Grid event tomorrow/)).toHaveLength(0);
  });
});
