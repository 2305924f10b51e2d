/**
 * Live links of the emails whose entry pages the Slow 3G run measures, asked for the way a user gets them: the
 * login form's "Email me a login link" and "Forgot password", and the notification jobs (run through the api's
 * test hook, so the bench server starts with `ENABLE_TEST_HOOKS`). Read from the demo outbox.
 * Asked for just before their page is measured: a login link lives 15 minutes, and a long run outlives that.
 * Opening them is a GET, which never spends a token (the pages ask before they act), so one link serves every run.
 */
import type { MailLink } from "./pages";
import { DANA } from "./server";

type Mail = { id: number; to: string; subject: string; links: string[] };
type Bench = { url: string; api: string };

const SAM = "sam@harborcoffee.test";

async function outbox(s: Bench, to?: string): Promise<Mail[]> {
  const res = await fetch(`${s.api}/dev/outbox${to ? `?email=${encodeURIComponent(to)}` : ""}`, {
    headers: { accept: "application/json" },
  });
  if (!res.ok) throw new Error(`outbox: ${res.status}`);
  return ((await res.json()) as { items: Mail[] }).items;
}

async function signInMail(s: Bench, email: string, intent: "link" | "reset") {
  const res = await fetch(`${s.url}/login?email=${encodeURIComponent(email)}`, {
    method: "POST",
    body: new URLSearchParams({ intent, email, next: "/" }),
    redirect: "manual",
  });
  await res.arrayBuffer();
  if (res.status >= 500) throw new Error(`sign-in mail (${intent}): ${res.status}`);
}

async function runJob(s: Bench, kind: "bill_flag" | "customer_comfort") {
  const res = await fetch(`${s.api}/dev/notifications/run`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ kind }),
  });
  if (!res.ok) throw new Error(`notification job ${kind}: ${res.status} (is ENABLE_TEST_HOOKS set?)`);
}

const WHERE: Record<MailLink, { to?: string; link: RegExp }> = {
  "login link": { to: DANA, link: /\/login\/link\?token=/ },
  // Sam's, so Dana's allowance of sign-in mails is not spent twice.
  "password reset": { to: SAM, link: /\/reset-password\?token=/ },
  "bill alert": { link: /\/fix-my-bill\/action_requested\?token=/ },
  "comfort alert": { link: /\/dismiss-thermostat-issue\?/ },
};

/** The path (and query) of a fresh link from this kind of email. */
export async function emailLink(s: Bench, kind: MailLink): Promise<string> {
  const { to, link } = WHERE[kind];
  const since = (await outbox(s))[0]?.id ?? 0;
  if (kind === "login link") await signInMail(s, DANA, "link");
  else if (kind === "password reset") await signInMail(s, SAM, "reset");
  else await runJob(s, kind === "bill alert" ? "bill_flag" : "customer_comfort");
  // The jobs send nothing twice: a link already in the outbox serves when this run wrote no new one.
  for (let i = 0; i < 50; i++) {
    const mails = await outbox(s, to);
    const found = [...mails.filter((m) => m.id > since), ...mails]
      .flatMap((m) => m.links)
      .find((l) => link.test(l));
    if (found) {
      const u = new URL(found);
      return u.pathname + u.search;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no ${kind} email in the outbox`);
}
