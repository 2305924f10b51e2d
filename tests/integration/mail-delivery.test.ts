import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as clock from "../../api/lib/clock";
import { startDelivery, type Delivery } from "../../api/mail/delivery";
import { LEASE_MS } from "../../api/mail/policy";
import { startApi, type RunningApi } from "../../api/server";
import { TEST_CLOCK_START } from "../support/clock";
import { sendMail } from "../../api/mail/mailer";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { SMTP_PASS } from "../support/smtp-account";
import { apiConfigFromEnv } from "../../api/config";
import { call } from "./api-harness";

/**
 * Email delivery through a real SMTP server (tests/support/smtp.ts, authentication on): the api writes every
 * email to its outbox first and delivers it from there. The server is told to be down, to refuse for now
 * (4xx), to refuse for good (5xx) or to hang; each test writes its own emails (its own recipients) and moves
 * the api's clock itself to reach the next try, and checks on the server that each message arrived exactly
 * once, whole.
 */
const FROM = "EnergyOps <alerts@energyops.test>";
const REPLY_TO = "support@energyops.test";
const DELIVERY = { intervalMs: 60_000, drainMs: 300 };

let smtp: TestSmtp;
let api: RunningApi;
/** What the api logged (its `msg`), newest last. */
const logged: string[] = [];
/** The api's delivery loop; the crash test replaces it with a second one, as a restarted process would. */
let delivery: Delivery;

beforeAll(async () => {
  smtp = await startSmtp();
  api = await startApi({
    port: 0,
    clockStart: TEST_CLOCK_START,
    dbFile: ":memory:",
    quiet: true,
    webBaseUrl: "http://web.test",
    smtp: { url: smtp.url, from: FROM, replyTo: REPLY_TO },
    delivery: DELIVERY,
    // Test hooks on, as on the e2e servers: the outbox is still not served, since this api has a mail server.
    testHooks: true,
    log: (msg) => logged.push(msg),
  });
  delivery = api.delivery!;
});
afterAll(async () => {
  await delivery.stop();
  await api.close();
  await smtp.stop();
});
afterEach(async () => {
  clock.setClockStart(TEST_CLOCK_START);
  await smtp.setMode("accept");
});

type Row = {
  id: number;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  lease_until: string | null;
  last_error: string | null;
  delivered_at: string | null;
  message_id: string;
  code: string | null;
  sent_at: string;
  text: string;
  html: string | null;
  headers_json: string;
  links_json: string;
  subject: string;
};
const row = (id: number) => api.db.prepare("SELECT * FROM outbox WHERE id = ?").get(id) as Row;
const latestRowTo = (to: string) =>
  api.db.prepare("SELECT * FROM outbox WHERE to_email = ? ORDER BY id DESC LIMIT 1").get(to) as Row;

async function until(what: string, ok: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
/** Sets the api's clock to `ms` after the instant `iso`, and looks for due rows. */
async function moveClockPast(iso: string, ms = 1_000) {
  clock.setClockStart(new Date(Date.parse(iso) + ms).toISOString());
  delivery.wake();
  await delivery.idle();
}
/** What arrived with this Message-ID, after a pause long enough for a second copy to show. */
async function arrivedOnce(messageId: string) {
  await smtp.waitFor(() => smtp.withMessageId(messageId).length > 0);
  await new Promise((r) => setTimeout(r, 300));
  delivery.wake();
  await delivery.idle();
  return smtp.withMessageId(messageId);
}

const write = (to: string, extra: Partial<Parameters<typeof sendMail>[1]> = {}) =>
  sendMail(api.deps, {
    to,
    subject: `Test mail to ${to}`,
    text: `Hello ${to}`,
    kind: "weekly_rundown",
    ...extra,
  });

describe("delivery through the mail server", () => {
  it("a sign-in code email arrives with its headers, and the row records the delivery", async () => {
    const SAM = "sam@harborcoffee.test";
    const started = performance.now();
    const r = await call(api, "POST", "/auth/login-code/request", { body: { email: SAM } });
    expect(r.status).toBe(204);
    expect(performance.now() - started).toBeLessThan(2_000);
    const written = latestRowTo(SAM);
    expect(written.message_id).toMatch(/^<[0-9a-f-]{36}@energyops\.test>$/);
    // With a mail server the row never keeps the code apart from the body, nor the links.
    expect(written.code).toBeNull();
    expect(written.links_json).toBe("[]");
    const [mail] = await arrivedOnce(written.message_id);
    const code = /Your login code is (\d{6})\./.exec(mail.parsed.text ?? "")?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.envelope.to).toEqual([SAM]);
    expect(mail.envelope.from).toBe("alerts@energyops.test");
    expect(mail.parsed.from?.value).toEqual([{ name: "EnergyOps", address: "alerts@energyops.test" }]);
    expect(mail.parsed.replyTo?.value).toEqual([{ name: "", address: REPLY_TO }]);
    expect(mail.parsed.subject).toBe("Your login code");
    expect(mail.parsed.html).toContain(code);
    expect(mail.parsed.date?.toISOString()).toBe(
      new Date(written.sent_at).toISOString().replace(/\.\d+Z$/, ".000Z"),
    );
    const done = row(written.id);
    expect(done.status).toBe("sent");
    expect(done.attempts).toBe(1);
    expect(done.delivered_at).not.toBeNull();
    expect(done.lease_until).toBeNull();
    // Delivered: the row forgets what the mail said (the code in its text and HTML); who, what, when stay.
    expect(done).toMatchObject({
      text: "",
      html: null,
      headers_json: "{}",
      code: null,
      subject: "Your login code",
    });
    expect(JSON.stringify(done)).not.toContain(code);
    // A first delivery is not a send "left unfinished": no crash is reported where none happened.
    expect(logged).not.toContain("mail delivery: resuming a send left unfinished");
  });

  it("the outbox is not served while a mail server delivers, even with test hooks on", async () => {
    expect((await call(api, "GET", "/dev/outbox")).status).toBe(404);
    expect((await call(api, "GET", `/dev/outbox/${latestRowTo("sam@harborcoffee.test").id}`)).status).toBe(
      404,
    );
  });

  it("an email with an HTML part arrives with both parts and its extra headers", async () => {
    const to = "both-parts@example.test";
    const id = write(to, {
      html: '<!doctype html><html lang="en"><body><h1>Weekly Rundown</h1><a href="http://web.test/settings">Manage preferences</a></body></html>',
      headers: {
        "List-Unsubscribe": "<http://web.test/unsubscribe?token=abc>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        // A row cannot change who the mail is from.
        From: "someone-else@example.test",
      },
    });
    const [mail] = await arrivedOnce(row(id).message_id);
    expect(mail.parsed.text).toContain(`Hello ${to}`);
    expect(mail.parsed.html).toContain("<h1>Weekly Rundown</h1>");
    expect(mail.parsed.html).toContain('href="http://web.test/settings"');
    const header = (key: string) => mail.parsed.headerLines.filter((h) => h.key === key).map((h) => h.line);
    expect(header("list-unsubscribe-post")).toEqual(["List-Unsubscribe-Post: List-Unsubscribe=One-Click"]);
    expect(header("from")).toEqual([`From: ${FROM}`]);
    expect(mail.raw).toMatch(/^List-Unsubscribe: <http:\/\/web\.test\/unsubscribe\?token=abc>\r$/m);
    expect(mail.parsed.from?.value[0].address).toBe("alerts@energyops.test");
    expect(row(id).status).toBe("sent");
    // The unsubscribe token in the header is not kept once the mail left.
    expect(row(id)).toMatchObject({ html: null, headers_json: "{}" });
  });
});

describe("the mail server away or refusing", () => {
  it("down: the email is queued, retried after its backoff, and arrives exactly once when the server is back", async () => {
    await smtp.setMode("down");
    const id = write("down@example.test");
    await until("the first try to fail", () => row(id).status === "queued" && row(id).attempts === 1);
    const failed = row(id);
    expect(failed.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(failed.last_error).not.toContain(SMTP_PASS);
    expect(failed.last_error).not.toContain(encodeURIComponent(SMTP_PASS));
    const wait = Date.parse(failed.next_attempt_at!) - Date.parse(failed.sent_at);
    expect(wait).toBeGreaterThanOrEqual(5_000);

    // Back, but the next try is not due yet: nothing is sent before it.
    await smtp.setMode("accept");
    delivery.wake();
    await delivery.idle();
    expect(smtp.withMessageId(failed.message_id)).toHaveLength(0);
    expect(row(id).status).toBe("queued");

    await moveClockPast(failed.next_attempt_at!);
    expect(await arrivedOnce(failed.message_id)).toHaveLength(1);
    expect(row(id)).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("4xx: the refusal is recorded and the email retried until it is taken", async () => {
    await smtp.setMode("tempfail");
    const id = write("busy@example.test");
    await until("the 451", () => row(id).attempts === 1 && row(id).status === "queued");
    expect(row(id).last_error).toMatch(/451/);
    await moveClockPast(row(id).next_attempt_at!);
    expect(row(id)).toMatchObject({ status: "queued", attempts: 2 });
    expect(Date.parse(row(id).next_attempt_at!)).toBeGreaterThan(clock.nowMs());

    await smtp.setMode("accept");
    await moveClockPast(row(id).next_attempt_at!);
    expect(await arrivedOnce(row(id).message_id)).toHaveLength(1);
    expect(row(id)).toMatchObject({ status: "sent", attempts: 3 });
  });

  it("5xx: the email is failed after one try, with the server's answer, and never tried again", async () => {
    await smtp.setMode("reject");
    const triesBefore = smtp.tries;
    const id = write("nobody@example.test");
    await until("the 550", () => row(id).status === "failed");
    expect(row(id).attempts).toBe(1);
    expect(row(id).last_error).toMatch(/refused by the mail server.*550/);
    expect(row(id).next_attempt_at).toBeNull();
    // Refused for good: nothing more will be sent, so nothing of what it said is kept.
    expect(row(id)).toMatchObject({ text: "", html: null });
    await smtp.setMode("accept");
    await moveClockPast(new Date(clock.nowMs() + 24 * 3600_000).toISOString());
    expect(smtp.tries - triesBefore).toBe(1);
    expect(row(id).status).toBe("failed");
  });

  it("a sign-in request answers at once while the mail server hangs or is down", async () => {
    for (const mode of ["stall", "down"] as const) {
      await smtp.setMode(mode);
      for (const email of ["priya@harborcoffee.test", "tomas@harborcoffee.test"]) {
        const started = performance.now();
        const r = await call(api, "POST", "/auth/login-link/request", { body: { email } });
        expect(r.status).toBe(204);
        expect(performance.now() - started, `${mode}: ${email}`).toBeLessThan(1_000);
        expect(["queued", "sending"]).toContain(latestRowTo(email).status);
      }
    }
    // Nothing was lost: once the server is back and their next tries are due, every one of them arrives.
    // The tries made while the server was down have ended (each queued again, with a jittered delay), then the
    // server is back; the clock moves past every lease and every retry's time: each row is then due.
    await delivery.idle();
    await smtp.setMode("accept");
    const { latest } = api.db
      .prepare(
        "SELECT MAX(MAX(COALESCE(next_attempt_at, ''), COALESCE(lease_until, ''))) AS latest FROM outbox WHERE kind = 'sign_in' AND status IN ('queued', 'sending')",
      )
      .get() as { latest: string | null };
    const past = Math.max(clock.nowMs() + LEASE_MS + 60_000, latest ? Date.parse(latest) : 0);
    await moveClockPast(new Date(past).toISOString());
    for (const email of ["priya@harborcoffee.test", "tomas@harborcoffee.test"]) {
      const rows = api.db
        .prepare("SELECT * FROM outbox WHERE to_email = ? AND kind = 'sign_in' ORDER BY id DESC LIMIT 2")
        .all(email) as Row[];
      for (const r of rows) expect(await arrivedOnce(r.message_id), email).toHaveLength(1);
    }
  });
});

describe("a crash between claiming and sending", () => {
  it("the row left claimed is sent after its lease by the next loop, exactly once", async () => {
    await smtp.setMode("stall");
    const triesBefore = smtp.tries;
    const id = write("crash@example.test");
    // The loop claimed the row and the server has the message, unanswered: now the process "dies".
    await until("the server to be sent the message", () => smtp.tries > triesBefore);
    await delivery.stop();
    const left = row(id);
    expect(left.status).toBe("sending");
    expect(left.attempts).toBe(1);

    await smtp.setMode("accept");
    delivery = startDelivery(api.deps, DELIVERY);
    // Within the lease the row still belongs to the process that claimed it.
    delivery.wake();
    await delivery.idle();
    expect(smtp.withMessageId(left.message_id)).toHaveLength(0);
    expect(row(id).status).toBe("sending");

    const resumedBefore = logged.filter((m) => m === "mail delivery: resuming a send left unfinished").length;
    await moveClockPast(left.lease_until!);
    expect(await arrivedOnce(left.message_id)).toHaveLength(1);
    expect(row(id)).toMatchObject({ status: "sent", attempts: 2 });
    // This one really was left unfinished, and the log says so, once.
    expect(logged.filter((m) => m === "mail delivery: resuming a send left unfinished")).toHaveLength(
      resumedBefore + 1,
    );
  });
});

describe("without a mail server", () => {
  it("an email stays in the outbox, and no loop sends it", async () => {
    const outboxOnly = { ...api.deps, config: { ...api.deps.config, smtp: undefined } };
    const id = sendMail(outboxOnly, { to: "outbox-only@example.test", subject: "Kept", text: "Kept here" });
    await moveClockPast(clock.nowIso(), 60 * 60_000);
    expect(row(id)).toMatchObject({ status: "outbox", attempts: 0, next_attempt_at: null });
    expect(smtp.withMessageId(row(id).message_id)).toHaveLength(0);
  });
});

describe("the demo's outbox page", () => {
  const html = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
  /** A demo api without a mail server, with its outbox page turned on (API_DEV_OUTBOX). */
  let demo: RunningApi;
  beforeAll(async () => {
    demo = await startApi({
      port: 0,
      clockStart: TEST_CLOCK_START,
      dbFile: ":memory:",
      quiet: true,
      webBaseUrl: "http://web.test",
      devOutbox: true,
    });
  });
  afterAll(() => demo.close());
  const write = (to: string, extra: Partial<Parameters<typeof sendMail>[1]> = {}) =>
    sendMail(demo.deps, {
      to,
      subject: `Test mail to ${to}`,
      text: `Hello ${to}`,
      kind: "weekly_rundown",
      ...extra,
    });
  const row = (id: number) => demo.db.prepare("SELECT * FROM outbox WHERE id = ?").get(id) as Row;

  it("is served only when asked for: test hooks or API_DEV_OUTBOX, off by default", async () => {
    const off = await startApi({
      port: 0,
      clockStart: TEST_CLOCK_START,
      dbFile: ":memory:",
      quiet: true,
      testHooks: false,
      devOutbox: false,
      // Only the route is under test: no demo data to seed.
      seed: false,
    });
    try {
      expect((await call(off, "GET", "/dev/outbox")).status).toBe(404);
      expect((await call(off, "GET", "/dev/outbox/1")).status).toBe(404);
    } finally {
      await off.close();
    }
    expect(apiConfigFromEnv({}).devOutbox).toBe(false);
    expect(apiConfigFromEnv({ API_DEV_OUTBOX: "true" }).devOutbox).toBe(true);
    expect((await call(demo, "GET", "/dev/outbox")).status).toBe(200);
  });

  it("answers JSON to scripts and a readable list to a browser", async () => {
    const to = "page-list@example.test";
    const id = write(to, { subject: "Bill <b>alert</b> & more" });
    const json = await call(demo, "GET", `/dev/outbox?email=${to}`);
    expect(json.res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(json.json.items?.[0]).toMatchObject({
      id,
      to,
      subject: "Bill <b>alert</b> & more",
      kind: "weekly_rundown",
    });

    const res = await fetch(`${demo.url}/dev/outbox?email=${to}`, { headers: html });
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    const page = await res.text();
    expect(page).toContain(`<a href="outbox/${id}">Bill &lt;b&gt;alert&lt;/b&gt; &amp; more</a>`);
    expect(page).not.toContain("<b>alert</b>");
    expect(
      await (await fetch(`${demo.url}/dev/outbox?format=json`, { headers: html })).json(),
    ).toHaveProperty("items");
  });

  it("shows an email's headers, its HTML part in a sandboxed frame, its text part and its links", async () => {
    const id = write("page-message@example.test", {
      text: "Answer here: http://web.test/fix-my-bill/dismissed?token=a&b=1.",
      html: '<html><head></head><body><p>Hi</p><script>alert(1)</script><a href="http://web.test/settings?x=1&amp;y=2">Manage preferences</a></body></html>',
      headers: { "List-Unsubscribe": "<http://web.test/unsubscribe?token=t>" },
    });
    const res = await fetch(`${demo.url}/dev/outbox/${id}`, { headers: html });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("<dt>List-Unsubscribe</dt><dd>&lt;http://web.test/unsubscribe?token=t&gt;</dd>");
    expect(page).toContain(`<dd>${row(id).message_id.replace(/</g, "&lt;").replace(/>/g, "&gt;")}</dd>`);
    // The email's own markup appears only inside the frame's escaped srcdoc, never as the page's markup.
    const frame =
      /<iframe [^>]*sandbox="allow-popups allow-popups-to-escape-sandbox"[^>]*srcdoc="([^"]*)"/.exec(page);
    expect(frame?.[1]).toContain("&lt;head&gt;&lt;base target=&quot;_blank&quot;&gt;&lt;/head&gt;");
    expect(page.replace(frame![1], "")).not.toContain("<script");
    expect(page).toContain(
      'Answer here: <a href="http://web.test/fix-my-bill/dismissed?token=a&amp;b=1" target="_blank" rel="noopener noreferrer">',
    );
    expect(page).toContain('<a href="http://web.test/settings?x=1&amp;y=2" target="_blank"');
    expect((await fetch(`${demo.url}/dev/outbox/999999999`, { headers: html })).status).toBe(404);
    expect((await fetch(`${demo.url}/dev/outbox/x`, { headers: html })).status).toBe(404);
  });
});
