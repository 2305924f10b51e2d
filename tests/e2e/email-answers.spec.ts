import { apiUrl, expect, loginAs, outboxMark, test, USERS, waitForMail } from "./fixtures";
import { openEmailPage } from "./email-pages";

/**
 * Notifications followed as a user would, in both projects (JavaScript on and off): a Bill Audit Alert's
 * "No, please investigate" link → one button → the spec's confirmation → the flag's new state on the spending
 * page; the unsubscribe link → My Preferences shows the toggle off and no more mail of that kind; a user
 * with the preference off gets none. The jobs run through the api's test hook.
 */

async function runJob(info: Parameters<typeof apiUrl>[0], kind: string) {
  const res = await fetch(`${apiUrl(info)}/dev/notifications/run`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ kind }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { sent: number }).sent;
}

const BILL_ALERT = /^(Please verify energy supplier change|Your utility delivery rate increased): /;

test.describe("answers from email", () => {
  test("alert → No, please investigate → Help is on the way! → the spending page shows it", async ({
    page,
  }, info) => {
    const since = await outboxMark(info);
    expect(await runJob(info, "bill_flag")).toBeGreaterThan(0);
    const mail = await waitForMail(info, USERS.dana, since, BILL_ALERT);
    const investigate = mail.links.find((l) => l.includes("/fix-my-bill/action_requested?token="))!;
    const spending = mail.links.find((l) => /\/locations\/\d+\/spending$/.test(l))!;
    const url = new URL(investigate);

    // Opening the link (as a mail scanner would) changes nothing: it asks, with one button.
    await openEmailPage(page, url.pathname + url.search);
    await expect(
      page.getByRole("heading", { name: "Ask our team to investigate this change on your bill?" }),
    ).toBeVisible();
    await openEmailPage(page, url.pathname + url.search);
    await page.getByRole("button", { name: "No, please investigate" }).click();
    await expect(page.getByRole("heading", { name: "Help is on the way!" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Visit Dashboard" })).toBeVisible();

    // The link is spent: opened again, it says so plainly.
    await openEmailPage(page, url.pathname + url.search);
    await expect(page.getByText("This bill issue has already been answered.")).toBeVisible();

    await loginAs(page, USERS.dana);
    await page.goto(new URL(spending).pathname);
    const heading = mail.subject.startsWith("Please verify")
      ? "Help Request Received — We're on it!"
      : "Utility delivery rate class updated";
    await expect(page.getByRole("heading", { name: heading }).first()).toBeVisible();
  });

  test("comfort alert → the dismissal link asks → Dismiss issue → the issue reads dismissed", async ({
    page,
  }, info) => {
    const since = await outboxMark(info);
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
    const since = await outboxMark(info);
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

    const after = await outboxMark(info);
    await runJob(info, "bill_flag");
    const res = await fetch(`${apiUrl(info)}/dev/outbox?email=${encodeURIComponent(USERS.dana)}`);
    const { items } = (await res.json()) as { items: { id: number; subject: string }[] };
    expect(items.filter((m) => m.id > after && BILL_ALERT.test(m.subject))).toEqual([]);
  });

  test("the RFC 8058 one-click POST, with no cookie and from another site, unsubscribes by its token", async ({
    page,
  }, info) => {
    const since = await outboxMark(info);
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
    const since = await outboxMark(info);
    await runJob(info, "monthly_recap");
    const res = await fetch(`${apiUrl(info)}/dev/outbox?email=${encodeURIComponent(USERS.dana)}`);
    const { items } = (await res.json()) as { items: { id: number; subject: string }[] };
    expect(items.filter((m) => m.id > since && /Monthly Recap/.test(m.subject))).toEqual([]);
  });
});
