import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, call, loginCookie } from "./api-harness";
import type { RunningApi } from "../../api/server";
import { signWebhook } from "../../api/lib/arcadia";
import { nowMs } from "../../api/lib/clock";
import { ARCADIA_DEMO_WEBHOOK_SECRET } from "../../api/config";

/**
 * The provider's webhooks (POST /api/webhooks/arcadia), attacked: unsigned, forged, stale, replayed
 * and out of order; and the simulator's token, URL and Connect endpoints end to end to the stored status.
 */
let api: RunningApi;
let dana: string;
const CLOCK = "2026-11-18T19:30:00.000Z";

beforeAll(async () => {
  api = await startTestApi({ clockStart: CLOCK, utilityProviderDelayMs: 50 });
  dana = await loginCookie(api, "dana@harborcoffee.test");
});
afterAll(() => api.close());

const origin = () => api.url.replace(/\/api$/, "");
let seq = 0;
const event = (type: string, createdAt: string, data: Record<string, string>) => ({
  id: `evt_test_${++seq}`,
  type,
  created_at: createdAt,
  data,
});

async function deliver(body: string, headers: Record<string, string>) {
  const res = await fetch(`${origin()}/api/webhooks/arcadia`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return res.status;
}
function signed(body: string, opts: { secret?: string; at?: number } = {}) {
  const timestamp = String(Math.floor((opts.at ?? nowMs()) / 1000));
  return {
    "Arc-Webhook-Timestamp": timestamp,
    "Arc-Webhook-Signature": signWebhook(opts.secret ?? ARCADIA_DEMO_WEBHOOK_SECRET, timestamp, body),
  };
}
const credential = (id: string) =>
  api.db.prepare("SELECT * FROM utility_credentials WHERE arcadia_credential_id = ?").get(id) as
    { id: number; state: string; arcadia_event_at: string } | undefined;
const accounts = (credentialId: number) =>
  api.db
    .prepare(
      "SELECT arcadia_account_status AS s, arcadia_account_status_detail AS d FROM utility_accounts WHERE credential_id = ?",
    )
    .all(credentialId) as { s: string; d: string | null }[];
const until = async <T>(read: () => T | undefined, ok: (v: T) => boolean = () => true) => {
  for (let i = 0; i < 100; i++) {
    const v = read();
    if (v !== undefined && ok(v)) return v;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error("timed out");
};
const eventCount = () =>
  (api.db.prepare("SELECT count(*) AS n FROM arcadia_webhook_events").get() as { n: number }).n;
const harbor = { client_user_id: "client-1", utility_id: "" };

describe("POST /api/webhooks/arcadia", () => {
  beforeAll(() => {
    const u = api.db.prepare("SELECT arcadia_provider_id AS p FROM utilities ORDER BY id LIMIT 1").get() as {
      p: string;
    };
    harbor.utility_id = u.p;
    const c = api.db
      .prepare("SELECT client_id AS c FROM users WHERE email = 'dana@harborcoffee.test'")
      .get() as { c: number };
    harbor.client_user_id = `client-${c.c}`;
  });

  it("refuses an unsigned, forged or stale delivery with 401 and changes nothing", async () => {
    const body = JSON.stringify(
      event("utility_credential_verified", new Date(nowMs()).toISOString(), {
        ...harbor,
        utility_credential_id: "uc_attack",
      }),
    );
    const before = eventCount();
    expect(await deliver(body, {})).toBe(401);
    expect(await deliver(body, { "Arc-Webhook-Timestamp": String(Math.floor(nowMs() / 1000)) })).toBe(401);
    expect(await deliver(body, signed(body, { secret: "not-the-signing-key-at-all" }))).toBe(401);
    // Signed over other bytes: the body was changed in transit.
    expect(await deliver(body.replace("verified", "rejected"), signed(body))).toBe(401);
    expect(await deliver(body, signed(body, { at: nowMs() - 6 * 60_000 }))).toBe(401);
    expect(await deliver(body, signed(body, { at: nowMs() + 6 * 60_000 }))).toBe(401);
    expect(eventCount()).toBe(before);
    expect(credential("uc_attack")).toBeUndefined();
  });

  it("applies a signed event once, however often it is delivered", async () => {
    const body = JSON.stringify(
      event("utility_credential_verified", new Date(nowMs()).toISOString(), {
        ...harbor,
        utility_credential_id: "uc_once",
        username: "ops",
      }),
    );
    expect(await deliver(body, signed(body))).toBe(202);
    const cred = await until(
      () => credential("uc_once"),
      (c) => c.state === "ok" && c.arcadia_event_at !== null,
    );
    expect(accounts(cred.id)).toEqual([{ s: "CONNECTION_SUCCESS", d: "DATA_ACCESSIBLE" }]);
    // A replay (same id), even re-signed later: answered, not applied again (still one account, one row).
    api.db
      .prepare("UPDATE utility_accounts SET arcadia_account_status = 'INACTIVE' WHERE credential_id = ?")
      .run(cred.id);
    expect(await deliver(body, signed(body))).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(accounts(cred.id)).toEqual([{ s: "INACTIVE", d: "DATA_ACCESSIBLE" }]);
    expect(
      (
        api.db.prepare("SELECT count(*) AS n FROM arcadia_webhook_events WHERE body = ?").get(body) as {
          n: number;
        }
      ).n,
    ).toBe(1);
  });

  it("never lets an older event, delivered late, regress a newer status", async () => {
    const t0 = nowMs();
    const newer = JSON.stringify(
      event("utility_credential_rejected", new Date(t0).toISOString(), {
        ...harbor,
        utility_credential_id: "uc_order",
      }),
    );
    const older = JSON.stringify(
      event("utility_credential_verified", new Date(t0 - 60_000).toISOString(), {
        ...harbor,
        utility_credential_id: "uc_order",
      }),
    );
    expect(await deliver(newer, signed(newer))).toBe(202);
    const cred = await until(
      () => credential("uc_order"),
      (c) => c.state === "reconnect",
    );
    expect(await deliver(older, signed(older))).toBe(202);
    await until(
      () =>
        api.db.prepare("SELECT applied_at FROM arcadia_webhook_events WHERE body = ?").get(older) as {
          applied_at: string | null;
        },
      (r) => r.applied_at !== null,
    );
    expect(credential("uc_order")!.state).toBe("reconnect");
    expect(accounts(cred.id)).toEqual([{ s: "DATA_ACCESS_FAILURE", d: "CREDENTIAL_ISSUE" }]);
  });

  it("maps MFA and timeout to the statuses the accounts page shows", async () => {
    const at = new Date(nowMs()).toISOString();
    const mfa = JSON.stringify(
      event("utility_credential_mfa_required", at, { ...harbor, utility_credential_id: "uc_mfa" }),
    );
    const late = JSON.stringify(
      event("utility_credential_timed_out", at, { ...harbor, utility_credential_id: "uc_late" }),
    );
    expect(await deliver(mfa, signed(mfa))).toBe(202);
    expect(await deliver(late, signed(late))).toBe(202);
    const m = await until(
      () => credential("uc_mfa"),
      (c) => c.state === "mfa_refresh",
    );
    const l = await until(
      () => credential("uc_late"),
      (c) => c.state === "reconnect",
    );
    expect(accounts(m.id)).toEqual([{ s: "CONNECTION_IN_PROGRESS", d: null }]);
    expect(accounts(l.id)).toEqual([{ s: "DATA_ACCESS_FAILURE", d: null }]);
  });
});

describe("the provider simulator, through the api's endpoints", () => {
  it("mints a Connect token and URL with the keys, never handing the keys out", async () => {
    const u = harbor.utility_id;
    const t = await call(api, "POST", "/arcadia/connect-token", {
      cookie: dana,
      body: { arcadia_provider_id: u },
    });
    expect(t.status).toBe(200);
    expect(t.json.connect_token).toMatch(/^ct_/);
    expect(t.json.env).toBe("sandbox");
    expect(JSON.stringify(t.json)).not.toContain("demo-client-secret");
    const expires = Date.parse(t.json.expires_at as string) - nowMs();
    expect(expires).toBeGreaterThan(119 * 60_000);
    expect(expires).toBeLessThanOrEqual(120 * 60_000 + 1000);
    const url = await call(api, "POST", "/arcadia/connect-url", {
      cookie: dana,
      body: { arcadia_provider_id: u, redirect_url: "http://web.test/authorize-arcadia?step=success" },
    });
    expect(url.status).toBe(200);
    expect(url.json.connect_url).toMatch(/\/arcadia-sim\/connect\/cu_/);
    // The shortest life the provider allows (30 minutes), not its 5-day default: the link is a bearer link.
    const urlLife = Date.parse(url.json.expires_at as string) - nowMs();
    expect(urlLife).toBeGreaterThan(29 * 60_000);
    expect(urlLife).toBeLessThanOrEqual(30 * 60_000 + 1000);
    // Only back to our own web: no open redirect through the provider.
    const evil = await call(api, "POST", "/arcadia/connect-url", {
      cookie: dana,
      body: { arcadia_provider_id: u, redirect_url: "https://evil.test/x" },
    });
    expect(evil.status).toBe(400);
    expect(
      (await call(api, "POST", "/arcadia/connect-token", { body: { arcadia_provider_id: u } })).status,
    ).toBe(401);
  });

  it("refuses wrong client keys at the simulator", async () => {
    const res = await fetch(`${origin()}/arcadia-sim/auth/access_token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_id: "demo-client-id", client_secret: "guess-guess" }),
    });
    expect(res.status).toBe(401);
  });

  it("a submission on the hosted page comes back to us and its signed webhook settles the credential", async () => {
    const u = harbor.utility_id;
    const url = await call(api, "POST", "/arcadia/connect-url", {
      cookie: dana,
      body: { arcadia_provider_id: u, redirect_url: "http://web.test/authorize-arcadia?step=success" },
    });
    const res = await fetch(url.json.connect_url as string, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ utility: u, username: "bad-login", password: "x" }),
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("http://web.test/authorize-arcadia?step=success");
    const cred = await until(
      () =>
        api.db.prepare("SELECT * FROM utility_credentials WHERE username = 'bad-login'").get() as
          { id: number; state: string } | undefined,
      (c) => c.state === "reconnect",
    );
    expect(accounts(cred.id)).toEqual([{ s: "DATA_ACCESS_FAILURE", d: "CREDENTIAL_ISSUE" }]);
  });

  it("update mode: a token for a stored credential, and its verdict lands on that credential", async () => {
    const stored = api.db
      .prepare("SELECT id, utility_id FROM utility_credentials WHERE state = 'reconnect' ORDER BY id LIMIT 1")
      .get() as { id: number; utility_id: number };
    const p = (
      api.db
        .prepare("SELECT arcadia_provider_id AS p FROM utilities WHERE id = ?")
        .get(stored.utility_id) as { p: string }
    ).p;
    const t = await call(api, "POST", "/arcadia/connect-token", {
      cookie: dana,
      body: { arcadia_provider_id: p, credential_id: stored.id },
    });
    expect(t.status).toBe(200);
    const res = await fetch(`${origin()}/arcadia-sim/connect/submit`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token: t.json.connect_token as string,
        origin: "http://web.test",
        utility: p,
        username: "fixed-login",
        password: "x",
      }),
    });
    expect(await res.text()).toContain('"status":"verified"');
    await until(
      () =>
        api.db.prepare("SELECT state FROM utility_credentials WHERE id = ?").get(stored.id) as {
          state: string;
        },
      (c) => c.state === "ok",
    );
    expect(new Set(accounts(stored.id).map((a) => a.s))).toEqual(new Set(["CONNECTION_SUCCESS"]));
  });
});

describe("rule connect-verdict-email", () => {
  const utilityAt = (offset: number) =>
    api.db
      .prepare("SELECT id, name, arcadia_provider_id AS p FROM utilities ORDER BY id LIMIT 1 OFFSET ?")
      .get(offset) as { id: number; name: string; p: string };
  const verdictMails = (utility: string) =>
    api.db
      .prepare(
        "SELECT subject, text FROM outbox WHERE to_email = 'dana@harborcoffee.test' AND kind = 'connect_verdict' AND subject LIKE ?",
      )
      .all(`%${utility}%`) as { subject: string; text: string }[];

  it("a verdict the hosted page could not show is emailed to the person who connected, once", async () => {
    const u = utilityAt(3);
    const url = await call(api, "POST", "/arcadia/connect-url", {
      cookie: dana,
      body: { arcadia_provider_id: u.p, redirect_url: "http://web.test/authorize-arcadia?step=success" },
    });
    expect(url.status).toBe(200);
    const res = await fetch(url.json.connect_url as string, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ utility: u.p, username: "bad-hosted", password: "x" }),
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    await until(
      () =>
        api.db.prepare("SELECT state FROM utility_credentials WHERE username = 'bad-hosted'").get() as
          { state: string } | undefined,
      (c) => c.state === "reconnect",
    );
    const mails = verdictMails(u.name);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Reconnect your ${u.name} login`);
    expect(mails[0].text).toContain("The credentials used were invalid. Please reconnect.");
    expect(mails[0].text).toContain("http://web.test/accounts");
  });

  it("a verdict Connect showed on the page is not emailed; the page's status is kept with the session", async () => {
    const u = utilityAt(4);
    const t = await call(api, "POST", "/arcadia/connect-token", {
      cookie: dana,
      body: { arcadia_provider_id: u.p },
    });
    expect(t.status).toBe(200);
    const res = await fetch(`${origin()}/arcadia-sim/connect/submit`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token: t.json.connect_token as string,
        origin: "http://web.test",
        utility: u.p,
        username: "bad-shown",
        password: "x",
      }),
    });
    const html = await res.text();
    expect(html).toContain('"status":"rejected"');
    const ucId = /"utilityCredentialId":"(uc_[0-9a-f]+)"/.exec(html)![1];
    // The page reports how Connect ended as it registers the credential (the webhook may come before or after).
    const reg = await call(api, "POST", "/arcadia/credentials", {
      cookie: dana,
      body: { arcadia_provider_id: u.p, utility_credential_id: ucId, status: "rejected" },
    });
    expect(reg.status).toBe(201);
    const session = api.db
      .prepare(
        "SELECT connect_status FROM arcadia_connect_sessions WHERE utility_id = ? ORDER BY created_at DESC LIMIT 1",
      )
      .get(u.id) as { connect_status: string };
    expect(session.connect_status).toBe("rejected");
    await until(
      () =>
        api.db.prepare("SELECT state FROM utility_credentials WHERE arcadia_credential_id = ?").get(ucId) as
          { state: string } | undefined,
      (c) => c.state === "reconnect",
    );
    const before = verdictMails(u.name).length;
    // A verdict for a login of that session, arriving now: Connect showed it, so no email.
    const body = JSON.stringify(
      event("utility_credential_rejected", new Date(nowMs()).toISOString(), {
        ...harbor,
        utility_id: u.p,
        utility_credential_id: "uc_shown_on_page",
        username: "bad-shown-2",
      }),
    );
    expect(await deliver(body, signed(body))).toBe(202);
    await until(
      () =>
        api.db
          .prepare("SELECT state FROM utility_credentials WHERE arcadia_credential_id = 'uc_shown_on_page'")
          .get() as { state: string } | undefined,
      (c) => c.state === "reconnect",
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(verdictMails(u.name)).toHaveLength(before);
  });
});
