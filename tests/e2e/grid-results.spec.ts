import {
  expect,
  mailLink,
  mailMark,
  mailsTo,
  PASSWORD,
  ready,
  runJob,
  shootMail,
  test,
  USERS,
  waitForMail,
} from "./fixtures";

/**
 * Grid event results, the day after (rule grid-results-day), in both projects: the data seeded at 11:00 AM on
 * Tuesday 17 November 2026 in Denver, the day after the event that took part at Harbor Coffee LoDo. The email as
 * received over SMTP carries the figures in the Grid Services page's words; its link, followed signed out, goes
 * through sign-in to that event, expanded, with the same figures.
 */
test.use({ clockAt: "2026-11-17T18:00:00.000Z" });

test.describe("grid event results", () => {
  test("the results the day after, as received: signed out, its link signs in and opens the event", async ({
    page,
  }, info) => {
    const since = await mailMark(info);
    expect(await runJob(info, "grid_event")).toBeGreaterThan(0);
    const mail = await waitForMail(info, USERS.dana, since, /^Grid event results at Harbor Coffee LoDo$/);
    const figure = (label: string) => new RegExp(`${label}: ([^\\n]+)`).exec(mail.text)?.[1];
    expect(figure("Baseline")).toMatch(/^\d+\.\d{2} kW$/);
    expect(figure("Reduced")).toMatch(/^\d+\.\d{2} kW · \d+\.\d{2} kWh$/);
    expect(figure("Estimated earnings")).toMatch(/^\$\d+\.\d{2}$/);
    expect(mail.text).toContain("These are our estimates, not a statement from the utility.");
    expect(mail.text).toMatch(/: Took part; highest indoor \d+(\.\d)?°F/);
    // Sam may not see LoDo: no results for him.
    expect(await mailsTo(info, USERS.sam, since, /^Grid event results/)).toHaveLength(0);
    // A second run sends nothing more.
    await runJob(info, "grid_event");
    expect(await mailsTo(info, USERS.dana, since, /^Grid event results/)).toHaveLength(1);

    await shootMail(page, info, mail, "grid-results");
    // At 390 px the email does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 900 });
    await page.setContent(mail.html);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: info.outputPath("grid-results-email-390.png"), fullPage: true });

    // Signed out, the link goes through sign-in to the event, expanded.
    const link = page.getByRole("link", { name: "See this event at Harbor Coffee LoDo" });
    const href = await link.getAttribute("href");
    expect(href).toBe(mailLink(mail, "See this event at Harbor Coffee LoDo"));
    const eventId = new URL(href!).searchParams.get("open");
    expect(new URL(href!).hash).toBe(`#event-${eventId}`);
    await page.goto(href!);
    await expect(page).toHaveURL(/\/login\?next=%2Fgrid-services%3F/);
    await ready(page, info);
    await page.getByLabel("Email").fill(USERS.dana);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    // Sign-in keeps the row's anchor the browser never sent (rule sign-in-keeps-flag): the event is in view.
    await expect(page).toHaveURL(new RegExp(`/grid-services\\?.*open=${eventId}#event-${eventId}$`));
    await ready(page, info);
    const row = page.locator(`#event-${eventId}`);
    await expect(row).toHaveAttribute("data-testid", "dispatch-row");
    await expect(row.getByText("Participated")).toBeVisible();
    await expect(row).toBeInViewport();
    const details = page.getByTestId("dispatch-details");
    await expect(details).toHaveCount(1);
    // The page and the email say the same figures.
    await expect(details.getByTestId("figure-baseline")).toHaveText(figure("Baseline")!);
    await expect(details.getByTestId("figure-actual")).toHaveText(figure("Actual average")!);
    await expect(details.getByTestId("figure-reduced")).toHaveText(figure("Reduced")!);
    await expect(details.getByTestId("figure-earnings")).toHaveText(figure("Estimated earnings")!);
    await expect(details.getByTestId("thermostat-part").first()).toHaveText(/Took part|Opted out|Overrode/);
    await page.screenshot({ path: info.outputPath("grid-results-event-390.png"), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
