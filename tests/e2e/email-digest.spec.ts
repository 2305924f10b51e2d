import { expect, loginAs, mailMark, mailsTo, runJob, shootMail, test, USERS, waitForMail } from "./fixtures";
import { openEmailPage } from "./email-pages";

/**
 * The mail says what the app says, and offers only what the rules allow, in
 * both projects: the jobs run through the api's test hook, the mail is received on a real SMTP server, and its
 * links are followed as a manager would.
 */

test.describe("email and app agree", () => {
  test("an Airzone alert offers no dismissal; the link opened anyway says why, with no button, and is no error", async ({
    page,
  }, info) => {
    const since = await mailMark(info);
    expect(await runJob(info, "device_issue")).toBeGreaterThan(0);
    const mail = await waitForMail(info, USERS.dana, since, /^Thermostat issue: /);
    // One email for the run: Downstairs (Airzone) is in it, without a dismissal link, with what to do instead.
    expect(mail.text).toContain("Downstairs is on a permanent hold since");
    expect(mail.text).toContain("it no longer follows its schedule");
    expect(mail.text).toContain("change it on the thermostat or in the Airzone app");
    expect(mail.links.filter((l) => l.includes("thermostatId=1019"))).toEqual([]);
    expect(mail.links.some((l) => l.includes("thermostatId=1014&issueSlug=unchanging_schedule"))).toBe(true);

    await loginAs(page, USERS.dana);
    const link = "/dismiss-thermostat-issue?thermostatId=1019&issueSlug=permanent_hold";
    const res = await openEmailPage(page, link);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "This issue cannot be dismissed here" })).toBeVisible();
    await expect(
      page.getByText("Issues on Airzone thermostats cannot be resolved or dismissed"),
    ).toBeVisible();
    await expect(page.getByRole("button")).toHaveCount(0);
    await expect(page.getByText("Submission Failed")).toHaveCount(0);
    await page.getByRole("link", { name: "Open the Harbor Coffee Wicker Park control room" }).click();
    await expect(page).toHaveURL(/\/locations\/106\/control$/);

    // A forged POST is refused by the rule, said as such: not "Submission Failed", not a 5xx.
    const post = await page.request.post(link, {
      form: { thermostatId: "1019", issueSlug: "permanent_hold" },
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(post.status()).toBe(409);
    const body = await post.text();
    expect(body).toContain("This issue cannot be dismissed here");
    expect(body).not.toContain("Submission Failed");
  });

  test("an already dismissed or resolved issue's page says so, with no Dismiss issue", async ({ page }) => {
    await loginAs(page, USERS.dana);
    await openEmailPage(page, "/dismiss-thermostat-issue?thermostatId=1022&issueSlug=unchanging_schedule");
    await expect(page.getByRole("heading", { name: "Already dismissed" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Dismiss issue" })).toHaveCount(0);
    await openEmailPage(page, "/dismiss-thermostat-issue?thermostatId=1003&issueSlug=permanent_hold");
    await expect(page.getByRole("heading", { name: "This issue is resolved" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Dismiss issue" })).toHaveCount(0);
  });

  test("the Weekly Rundown says what the dashboard says, those needing attention first; its links open what it reports", async ({
    page,
  }, info) => {
    const since = await mailMark(info);
    await runJob(info, "weekly_rundown");
    const mail = await waitForMail(info, USERS.dana, since, /^Your Weekly Rundown: /);
    const attention = /^(\d+) of 14 locations need attention\.$/m.exec(mail.text);
    expect(attention).not.toBeNull();

    await loginAs(page, USERS.dana);
    await page.goto("/locations");
    const chip = async (name: string) =>
      (
        await page.getByRole("row").filter({ hasText: name }).first().getByRole("cell").nth(2).innerText()
      ).trim();
    // The seed's statuses, read on the dashboard and in the mail in the same words.
    for (const [name, label] of [
      ["Capitol Hill", "Offline"],
      ["Ballard", "1/3 Offline"],
      ["LoDo", "1 device issue"],
    ]) {
      expect(await chip(name)).toBe(label);
      expect(mail.text).toContain(`- Harbor Coffee ${name}: ${label}.`);
    }
    expect(mail.text).toContain("HARBOR COFFEE LOOP\n\n- Thermostats: No Devices.");
    expect(mail.text).not.toContain("No open thermostat issues");
    // Those needing attention come first: Capitol Hill's section before Mission's (Operating).
    expect(mail.text.indexOf("HARBOR COFFEE CAPITOL HILL")).toBeLessThan(
      mail.text.indexOf("HARBOR COFFEE MISSION"),
    );
    // Need attention: a location's thermostats (the dashboard's words) or its bill findings awaiting an answer.
    const list = mail.text.slice(mail.text.indexOf(attention![0]), mail.text.indexOf("Last week ("));
    const lines = [...list.matchAll(/^- (.+?): (.+)\.$/gm)].map((m) => ({ name: m[1], text: m[2] }));
    const awaiting = new Map(
      lines.flatMap((l) => {
        const m = /^(\d+) bill findings? awaiting your answer, (\$[\d,]+\.\d{2}) at stake$/.exec(l.text);
        return m ? [[l.name, `${m[1]}, ${m[2]}`] as const] : [];
      }),
    );
    const thermostats = lines.filter(
      (l) => !awaiting.has(l.name) || !l.text.includes("awaiting your answer"),
    );
    expect(awaiting.size).toBeGreaterThan(0);
    expect(new Set(lines.map((l) => l.name)).size).toBe(Number(attention![1]));
    // The dashboard's "thermostat issues" card counts the locations listed for their thermostats.
    await expect(page.getByTestId("summary-issues").locator(".summary-count")).toHaveText(
      String(thermostats.length),
    );

    // Consumption and demand open the reported week, with the email's figures.
    const section = mail.text.slice(mail.text.indexOf("HARBOR COFFEE CAPITOL HILL"));
    const kwh = /Consumption: ([\d,]+) kWh/.exec(section)![1];
    const kw = /Peak demand: ([\d.]+) kW/.exec(section)![1];
    const consumption = new URL(mail.links.find((l) => l.includes("/locations/102/usage/consumption"))!);
    expect(consumption.search).toBe("?period=week&start=2026-11-09");
    await page.goto(consumption.pathname + consumption.search);
    await expect(
      page.getByRole("heading", { name: /Consumption · Week of Nov 9, 2026 – Nov 15, 2026/ }),
    ).toBeVisible();
    await expect(page.getByTestId("usage-summary")).toContainText(`Total consumption${kwh} kWh`);
    const demand = new URL(mail.links.find((l) => l.includes("/locations/102/usage/demand"))!);
    await page.goto(demand.pathname + demand.search);
    await expect(page.getByTestId("usage-summary")).toContainText(`Peak demand${kw} kW`);
    await page.getByRole("link", { name: "Previous week" }).click();
    await expect(page).toHaveURL(/period=week&start=2026-11-02/);

    // The grid event: its local time in the mail, and the link opens that event at that location.
    const event =
      /Upcoming grid event: ([A-Z][a-z]{2} \d+, 2026), ([\d:]+ [AP]M) – ([\d:]+ [AP]M) (MST|MDT)\./.exec(
        mail.text.slice(mail.text.indexOf("HARBOR COFFEE LODO")),
      );
    expect(event).not.toBeNull();
    const grid = new URL(mail.links.find((l) => l.includes("/grid-services?q=Harbor+Coffee+LoDo"))!);
    await page.goto(grid.pathname + grid.search);
    const rows = page.getByTestId("dispatch-row");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(event![2].replace(/^0/, ""));
    await expect(page.getByTestId("dispatch-details")).toBeVisible();

    // The findings page's "Awaiting your answer" rows: per location, as many, and their at stake summed.
    await page.goto("/findings");
    const waiting = page.getByTestId("finding-row").filter({ hasText: "Awaiting your answer" });
    await expect(waiting.first()).toBeVisible();
    const ledger = new Map<string, { count: number; cents: number }>();
    for (const row of await waiting.all()) {
      const name = (await row.locator("td.col-location").innerText()).trim();
      const stake = (await row.locator("td.col-stake").innerText()).trim();
      const t = ledger.get(name) ?? { count: 0, cents: 0 };
      ledger.set(name, {
        count: t.count + 1,
        cents: t.cents + (/^\$/.test(stake) ? Math.round(Number(stake.replace(/[$,]/g, "")) * 100) : 0),
      });
    }
    const dollars = (cents: number) =>
      `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    expect(Object.fromEntries(awaiting)).toEqual(
      Object.fromEntries([...ledger].map(([name, t]) => [name, `${t.count}, ${dollars(t.cents)}`])),
    );
    // Each location's own section says the same, linked to the findings.
    const [name, figures] = [...awaiting][0];
    const [count, stake] = figures.split(", ");
    expect(mail.text.slice(mail.text.indexOf(name.toUpperCase()))).toContain(
      `- Bill findings: ${count} bill finding${count === "1" ? "" : "s"} awaiting your answer, ${stake} at stake.\n  Findings at your locations: `,
    );

    await shootMail(page, info, mail, "weekly-rundown");
  });

  test("one email per person per alert run, all of it, grouped, each alert with its own answers", async ({
    page,
  }, info) => {
    const since = await mailMark(info);
    expect(await runJob(info, "alerts")).toBeGreaterThan(0);
    const mail = await waitForMail(info, USERS.dana, since);
    expect(await mailsTo(info, USERS.dana, since)).toHaveLength(1);
    // Every alert of the run in this one email: none is left for a "next email".
    const more = Number(/, and (\d+) more alerts$/.exec(mail.subject)![1]);
    expect(mail.text.match(/^(Comfort alert|Thermostat issue|Bill Audit Alert): /gm)).toHaveLength(more + 1);
    expect(more + 1).toBeGreaterThan(10);
    expect(mail.text).not.toMatch(/waiting|next alert email|shows them all/);
    // Bill alerts point to the findings page (the dashboard does not show them).
    expect(mail.links.some((l) => new URL(l).pathname === "/findings")).toBe(true);
    // Two flags of one bill: its amount once, the second counted with the first, in the findings page's words.
    expect(mail.text).toContain(
      "At stake on this bill, from the rate per kWh alone: counted with the supplier change of this bill in this email, not added to it.",
    );
    const amounts = [...mail.text.matchAll(/per kWh × [\d,]+ kWh = (\$[\d,]+\.\d{2})\./g)].map((m) => m[1]);
    expect(amounts.length).toBeGreaterThan(0);
    expect(new Set(amounts).size).toBe(amounts.length);
    // The second flag's own "No, please investigate" answers that flag.
    const investigate = mail.links.filter((l) => l.includes("/fix-my-bill/action_requested?token="));
    expect(investigate.length).toBeGreaterThan(1);
    const second = new URL(investigate[1]);
    await openEmailPage(page, second.pathname + second.search);
    await page.getByRole("button", { name: "No, please investigate" }).click();
    await expect(page.getByRole("heading", { name: "Help is on the way!" })).toBeVisible();
    // The first flag's answer is still open.
    const first = new URL(investigate[0]);
    await openEmailPage(page, first.pathname + first.search);
    await expect(page.getByRole("button", { name: "No, please investigate" })).toBeVisible();

    await shootMail(page, info, mail, "grouped-alerts");
  });
});
