import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as clock from "../../api/lib/clock";
import { LEASE_MS } from "../../api/mail/policy";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { getPage, startStack, webLogin, type Stack } from "../support/stack";
import { DANA } from "../support/pages";

/**
 * The mail server hanging, then down, under the production web server: sign-in code requests through the
 * login form answer as usual and at once (the api writes the email and answers; nothing waits on SMTP), pages
 * are served, no process ends; once the server is back, every email written meanwhile arrives exactly once.
 */
let smtp: TestSmtp;
let stack: Stack;
const PEOPLE = ["sam@harborcoffee.test", "priya@harborcoffee.test", "tomas@harborcoffee.test"];
/** Well under the web's upstream time-out (1.5 s here): the request did not wait on the mail server. */
const FAST_MS = 1_000;

beforeAll(async () => {
  smtp = await startSmtp("stall");
  // The embedded test api reads its settings from the environment, as a deployed one would.
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "EnergyOps <alerts@energyops.test>";
  stack = await startStack();
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  await stack?.stop();
  await smtp?.stop();
});

async function requestCode(email: string) {
  const started = performance.now();
  const res = await fetch(`${stack.url}/login?email=${encodeURIComponent(email)}`, {
    method: "POST",
    body: new URLSearchParams({ intent: "request-code", email, next: "/" }),
    redirect: "manual",
  });
  await res.text();
  return { status: res.status, ms: performance.now() - started };
}

describe("the mail server hanging or down", () => {
  it("sign-in code requests answer at once, pages are served, and every email arrives once afterwards", async () => {
    expect(stack.api.delivery).toBeDefined();
    const cookie = await webLogin(stack.url, DANA);
    // Warm the login path while the server is healthy, so the timings below are the fault's, not a cold start's.
    await smtp.setMode("accept");
    expect((await requestCode(DANA)).status).toBe(200);
    await smtp.waitFor((received) => received.some((m) => m.envelope.to.includes(DANA)));
    const firstId = (
      stack.api.db.prepare("SELECT COALESCE(MAX(id), 0) AS id FROM outbox").get() as { id: number }
    ).id;
    const answers: { mode: string; email: string; status: number; ms: number }[] = [];
    for (const mode of ["stall", "down"] as const) {
      await smtp.setMode(mode);
      for (const email of PEOPLE) answers.push({ mode, email, ...(await requestCode(email)) });
      const page = await getPage(stack.url, "/locations", cookie);
      expect(page.status, `${mode}: /locations`).toBe(200);
    }
    expect(answers.filter((a) => a.status !== 200 || a.ms > FAST_MS)).toEqual([]);
    expect(stack.alive()).toBe(true);

    const written = stack.api.db
      .prepare("SELECT id, message_id, status FROM outbox WHERE id > ? ORDER BY id")
      .all(firstId) as { id: number; message_id: string; status: string }[];
    expect(written).toHaveLength(PEOPLE.length * 2);
    expect(written.filter((r) => r.status === "sent")).toEqual([]);

    // Back: once their next tries are due (the api's clock moved on), each email is delivered, once.
    await smtp.setMode("accept");
    clock.setClockStart(new Date(clock.nowMs() + LEASE_MS + 60_000).toISOString());
    const status = (id: number) =>
      (stack.api.db.prepare("SELECT status FROM outbox WHERE id = ?").get(id) as { status: string }).status;
    const deadline = Date.now() + 20_000;
    while (written.some((r) => status(r.id) !== "sent") && Date.now() < deadline) {
      stack.api.delivery!.wake();
      await stack.api.delivery!.idle();
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(written.map((r) => [status(r.id), smtp.withMessageId(r.message_id).length])).toEqual(
      written.map(() => ["sent", 1]),
    );
    console.log(
      `smtp outage: ${answers.length} code requests, worst ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms; ` +
        `${written.length} emails delivered once after`,
    );
  });
});
