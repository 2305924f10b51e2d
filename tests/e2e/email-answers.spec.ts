import { expect, loginAs, mailMark, mailsTo, runJob, test, USERS, waitForMail, type Mail } from "./fixtures";
import { openEmailPage } from "./email-pages";

/**
 * Notifications followed as a user would, in both projects (JavaScript on and off): a Bill Audit Alert's
 * "No, please investigate" link → one button → the spec's confirmation → the flag's new state on the spending
 * page; the unsubscribe link → My Preferences shows the toggle off and no more mail of that kind; a user
 * with the preference off gets none. The jobs run through the api's test hook.
 */

const BILL_ALERT =
  /^(Please verify energy supplier change|Your utility delivery rate increased|Your utility changed this account's rate class): /;

test.describe("answers from email", () => {
  test("alert → No, please investigate → Help is on the way! → the link cannot withdraw it → the spending page switches it", async ({
    page,
  }, info) => {
    // The email page, then sign-in and the spending page's switch: more steps than the default budget.
    test.slow();
    const since = await mailMark(info);
    expect(await runJob(info, "bill_flag")).toBeGreaterThan(0);
    const mail = await waitForMail(info, USERS.dana, since, BILL_ALERT);
    const investigate = mail.links.find((l) => l.includes("/fix-my-bill/action_requested?token="))!;
    const spending = new URL(mail.links.find((l) => /\/locations\/\d+\/spending\?/.test(l))!);
    const url = new URL(investigate);

    // Opening the link (as a mail scanner would) changes nothing: it asks the email's own question.
    await openEmailPage(page, url.pathname + url.search);
    await expect(page.getByRole("heading", { name: "Did you expect this change?" })).toBeVisible();
    await expect(page.getByText(/^Acct # /)).toBeVisible();
    // The price is shown where the answer is given: the email's own first line.
    const priceLine = mail.text.split("\n").find((l) => l.startsWith("At stake on this bill"))!;
    await expect(page.getByTestId("answer-price")).toHaveText(priceLine.trim());
    // The link's answer first, the other one beside it (a wrong tap in the email is switched here).
    await expect(page.getByRole("button")).toHaveText(["No, please investigate", "Yes, this is expected"]);
    await openEmailPage(page, url.pathname + url.search);
    await page.getByRole("button", { name: "No, please investigate" }).click();
    await expect(page.getByRole("heading", { name: "Help is on the way!" })).toBeVisible();
    await expect(page.getByTestId("answer-on-record")).toHaveText(
      /^You answered “No, please investigate” on .+, from an email alert\.$/,
    );

    // Opened again, the link shows the answer on record; it never withdraws an investigation:
    // the page sends her to the signed-in spending page instead of offering "Yes".
    await openEmailPage(page, url.pathname + url.search);
    await expect(page.getByRole("heading", { name: "Help is on the way!" })).toBeVisible();
    await expect(page.getByRole("button")).toHaveCount(0);
    await expect(page.getByTestId("answer-note")).toContainText(
      "If this change is expected after all, sign in and change your answer on the location's spending page",
    );
    await expect(page.getByRole("link", { name: "Open the spending page" })).toBeVisible();

    // Signed in, the alert's bills link opens that account and that bill, its flag with the answer on record,
    // and there her wrong tap is switched.
    await loginAs(page, USERS.dana);
    await page.goto(spending.pathname + spending.search + spending.hash);
    const accountId = spending.searchParams.get("accountId")!;
    const billId = spending.searchParams.get("billId")!;
    const select = page.getByLabel("Account Number");
    if (await select.count()) await expect(select).toHaveValue(accountId);
    await expect(page.getByTestId(`bill-${billId}`)).toHaveAttribute("aria-current", "true");
    const flag = page.locator(spending.hash);
    await expect(flag.locator(".flag-record")).toHaveText(
      /^You answered “No, please investigate” on .+, from an email alert\.$/,
    );
    await flag.getByRole("button", { name: "Yes, this is expected" }).click();
    await expect(flag).toHaveAttribute("data-status", "dismissed");
    await expect(flag.locator(".flag-record")).toHaveText(
      /^You answered “Yes, this is expected” on .+, on the spending page\.$/,
    );
    await flag.getByText("Earlier answers (1)").click();
    await expect(flag.locator(".flag-history li")).toHaveText([/^You answered “No, please investigate”/]);
  });

  test("opposite answers: Sam sees Dana's answer, who and when, and asks for an investigation anyway", async ({
    page,
    a11y,
  }, info) => {
    const since = await mailMark(info);
    expect(await runJob(info, "bill_flag")).toBeGreaterThan(0);
    // One flag both were alerted about (its anchor in the bills link names it).
    const flagOf = (m: Mail) => m.links.find((l) => l.includes("#flag-"))!.split("#")[1];
    const sams = await mailsTo(info, USERS.sam, since, BILL_ALERT);
    const danas = await mailsTo(info, USERS.dana, since, BILL_ALERT);
    const dana = danas.find((d) => sams.some((m) => flagOf(m) === flagOf(d)))!;
    const sam = sams.find((m) => flagOf(m) === flagOf(dana))!;
    const link = (m: Mail, answer: string) => {
      const u = new URL(m.links.find((l) => l.includes(`/fix-my-bill/${answer}?token=`))!);
      return u.pathname + u.search;
    };

    await openEmailPage(page, link(dana, "dismissed"));
    await page.getByRole("button", { name: "Yes, this is expected" }).click();
    await expect(page.getByRole("heading", { name: "Bill feedback received" })).toBeVisible();

    // Sam's "Yes" link: Dana's answer is on record, not his: no "feedback received" for him.
    await openEmailPage(page, link(sam, "dismissed"));
    await expect(
      page.getByRole("heading", { name: "This bill issue has already been answered" }),
    ).toBeVisible();
    await expect(page.getByTestId("answer-on-record")).toHaveText(
      /^Dana Reyes answered “Yes, this is expected” on \w{3} \d{1,2}, \d{4} at .+, from an email alert\.$/,
    );
    await expect(page.getByText("Bill feedback received")).toHaveCount(0);
    await a11y();
    // He disagrees: he may still ask for an investigation.
    await expect(
      page.getByText("If you do not expect this change, you can still ask our team to investigate."),
    ).toBeVisible();
    await page.getByRole("button", { name: "No, please investigate" }).click();
    await expect(page.getByRole("heading", { name: "Help is on the way!" })).toBeVisible();
    await expect(page.getByTestId("answer-on-record")).toHaveText(/^You answered “No, please investigate”/);

    // Dana's link, opened again, says who asked and when; her yes can no longer withdraw it.
    await openEmailPage(page, link(dana, "dismissed"));
    await expect(
      page.getByRole("heading", { name: "This bill issue has already been answered" }),
    ).toBeVisible();
    await expect(page.getByTestId("answer-on-record")).toHaveText(
      /^Sam Okafor answered “No, please investigate”/,
    );
    await expect(page.getByRole("button")).toHaveCount(0);
  });

  test("a stale spending page, another person answered first: refused, with who answered", async ({
    page,
    context,
  }, info) => {
    const since = await mailMark(info);
    await runJob(info, "bill_flag");
    const sam = await waitForMail(info, USERS.sam, since, BILL_ALERT);
    const bills = new URL(sam.links.find((l) => l.includes("#flag-"))!);
    await loginAs(page, USERS.dana);
    await page.goto(bills.pathname + bills.search);
    const flag = page.locator(bills.hash);
    await expect(flag).toHaveAttribute("data-status", "unacknowledged");
    // Sam answers from his email meanwhile, in another tab.
    const other = await context.newPage();
    const investigate = new URL(sam.links.find((l) => l.includes("/fix-my-bill/action_requested?token="))!);
    await openEmailPage(other, investigate.pathname + investigate.search);
    await other.getByRole("button", { name: "No, please investigate" }).click();
    await expect(other.getByRole("heading", { name: "Help is on the way!" })).toBeVisible();
    // Dana's stale "Yes" does not withdraw Sam's request: the seed's 'Unable to process update' (seed 2 §8),
    // then who answered and when.
    await flag.getByRole("button", { name: "Yes, this is expected" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "Unable to process update" });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText(
      /Sam Okafor answered “No, please investigate” on \w{3} \d{1,2}, \d{4} at /,
    );
    await expect(flag).toHaveAttribute("data-status", "action_requested");
    await expect(flag.locator(".flag-record")).toHaveText(
      /^Sam Okafor answered “No, please investigate” on .+, from an email alert\.$/,
    );
    await expect(flag.getByRole("button")).toHaveCount(0);
  });

  test("a former member's link: Dana removes Sam's access on the team page, his link no longer shows or answers", async ({
    page,
  }, info) => {
    const since = await mailMark(info);
    await runJob(info, "bill_flag");
    const sam = await waitForMail(info, USERS.sam, since, BILL_ALERT);
    const investigate = new URL(sam.links.find((l) => l.includes("/fix-my-bill/action_requested?token="))!);
    const location = new URL(sam.links.find((l) => l.includes("#flag-"))!).pathname.split("/")[2];
    const link = investigate.pathname + investigate.search;
    await openEmailPage(page, link);
    const name = await page.locator("dd").first().innerText();
    await expect(page.getByRole("button", { name: "No, please investigate" })).toBeVisible();

    await loginAs(page, USERS.dana);
    await page.goto("/settings?tab=team");
    await page.getByRole("link", { name: "Edit access for Sam Okafor" }).click();
    const editor = page.getByTestId("access-editor");
    await expect(editor).toBeVisible();
    await editor.locator(`input[name="building"][value="${location}"]`).uncheck();
    await editor.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("toast")).toContainText("Location access saved for Sam Okafor");

    await page.context().clearCookies();
    const res = await openEmailPage(page, link);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
    await expect(page.getByText(name)).toHaveCount(0);
    await expect(page.getByRole("button")).toHaveCount(0);
    // A forged post of the old form records nothing.
    const forged = await page.request.post(link, {
      form: { token: investigate.searchParams.get("token")!, answer: "action_requested" },
    });
    expect(forged.status()).toBe(404);
  });

  test("comfort alert → the dismissal link asks → Dismiss issue → the issue reads dismissed", async ({
    page,
  }, info) => {
    const since = await mailMark(info);
    expect(await runJob(info, "customer_comfort")).toBeGreaterThan(0);
    const mail = await waitForMail(info, USERS.dana, since, /^Comfort alert: /);
    const dismiss = new URL(mail.links.find((l) => l.includes("/dismiss-thermostat-issue?"))!);
    const control = new URL(mail.links.find((l) => /\/locations\/\d+\/control$/.test(l))!);

    await loginAs(page, USERS.dana);
    // The control-room link of the alert opens that location's control room.
    await page.goto(control.pathname);
    await expect(page).toHaveURL(new RegExp(`${control.pathname}$`));
    // The dismissal link only asks; its one button dismisses.
    await openEmailPage(page, dismiss.pathname + dismiss.search);
    await expect(page.getByRole("heading", { name: "Dismiss this thermostat issue?" })).toBeVisible();
    await expect(page.getByText("We will stop flagging this issue for this thermostat.")).toBeVisible();
    await page.getByRole("button", { name: "Dismiss issue" }).click();
    await expect(page.getByRole("heading", { name: "Thermostat feedback received" })).toBeVisible();
    // Opened again, the link says the issue is dismissed: the api recorded it.
    await openEmailPage(page, dismiss.pathname + dismiss.search);
    await expect(page.getByText("This issue is already dismissed.")).toBeVisible();
  });

  test("unsubscribe: the page asks, the POST turns Bill Audit Alerts off, and none come after", async ({
    page,
  }, info) => {
    const since = await mailMark(info);
    await runJob(info, "bill_flag");
    const mail = await waitForMail(info, USERS.dana, since, BILL_ALERT);
    const unsubscribe = new URL(mail.links.find((l) => l.includes("/unsubscribe?token="))!);
    await openEmailPage(page, unsubscribe.pathname + unsubscribe.search);
    await expect(page.getByText("Stop receiving Bill Audit Alerts by email?")).toBeVisible();
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();

    await loginAs(page, USERS.dana);
    await page.goto("/settings");
    await expect(page.getByRole("switch", { name: "Bill Audit Alerts" })).toHaveAttribute(
      "aria-checked",
      "false",
    );

    const after = await mailMark(info);
    await runJob(info, "bill_flag");
    expect(await mailsTo(info, USERS.dana, after, BILL_ALERT)).toEqual([]);
  });

  test("the RFC 8058 one-click POST, with no cookie and from another site, unsubscribes by its token", async ({
    page,
  }, info) => {
    const since = await mailMark(info);
    await runJob(info, "weekly_rundown");
    const mail = await waitForMail(info, USERS.dana, since, /^Your Weekly Rundown: /);
    const unsubscribe = mail.links.find((l) => l.includes("/unsubscribe?token="))!;
    const res = await page.request.post(unsubscribe, {
      headers: { "Sec-Fetch-Site": "cross-site", Origin: "https://mail.example" },
      form: { "List-Unsubscribe": "One-Click" },
    });
    expect(res.status()).toBe(200);
    await loginAs(page, USERS.dana);
    await page.goto("/settings");
    await expect(page.getByRole("switch", { name: "Weekly Rundown" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
  });

  test("a user with the preference off gets none: dana's Monthly Recap is off", async ({
    page: _page,
  }, info) => {
    const since = await mailMark(info);
    await runJob(info, "monthly_recap");
    expect(await mailsTo(info, USERS.dana, since, /Monthly Recap/)).toEqual([]);
  });
});
