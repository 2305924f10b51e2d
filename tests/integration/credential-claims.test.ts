import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, call, loginCookie } from "./api-harness";
import type { RunningApi } from "../../api/server";
import { signWebhook } from "../../api/lib/arcadia";
import { nowMs } from "../../api/lib/clock";
import { ARCADIA_DEMO_WEBHOOK_SECRET } from "../../api/config";
import { USER } from "../../api/db/seed/ids";

/**
 * The two medium findings of the last security review, as an attacker tried them (rules object-access and arcadia-credential-claim):
 * a user limited to some locations may not reach another location's utility login by its id, and a provider
 * credential id from the browser is a claim, accepted only within a Connect session of ours and on the provider's
 * word that it is this client's.
 */
let api: RunningApi;
let dana: string;
let sam: string;
let alex: string;
const CLOCK = "2026-11-18T19:30:00.000Z";
// Credential 5 (Eversource, harbor.boston): its one account is at Back Bay (112), which Sam may not see.
const BOSTON = { id: 5, utility: "prov_eversource" };
// Credential 1 (Seattle City Light): accounts at 101 and 102, both Sam's.
const SEATTLE = { id: 1, utility: "prov_scl" };

beforeAll(async () => {
  api = await startTestApi({ clockStart: CLOCK, utilityProviderDelayMs: 20 });
  // Sam has no password in the demo; this test gives him Dana's so it can sign him in.
  api.db
    .prepare("UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE id = ?) WHERE id = ?")
    .run(USER.dana, USER.sam);
  [dana, sam, alex] = await Promise.all([
    loginCookie(api, "dana@harborcoffee.test"),
    loginCookie(api, "sam@harborcoffee.test"),
    loginCookie(api, "alex@mapledental.test"),
  ]);
});
afterAll(() => api.close());

const origin = () => api.url.replace(/\/api$/, "");
const credentialRow = (id: number) =>
  api.db.prepare("SELECT * FROM utility_credentials WHERE id = ?").get(id) as Record<string, unknown>;
const accountsOf = (credentialId: number) =>
  api.db.prepare("SELECT * FROM utility_accounts WHERE credential_id = ? ORDER BY id").all(credentialId);
const until = async <T>(read: () => T | undefined, ok: (v: T) => boolean = () => true) => {
  for (let i = 0; i < 200; i++) {
    const v = read();
    if (v !== undefined && ok(v)) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("timed out waiting");
};

/** Submits a login in the embedded Connect of a token; the provider's credential id. */
async function submitInConnect(token: string, utility: string, username: string) {
  const res = await fetch(`${origin()}/arcadia-sim/connect/submit`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, origin: "http://web.test", utility, username, password: "x" }),
  });
  const m = /"utilityCredentialId":"([^"]+)"/.exec(await res.text());
  if (!m) throw new Error("no credential from Connect");
  return m[1];
}

describe("a user limited to some locations and another location's utility login", () => {
  it("gets no Connect token, no Connect URL and no built-in update for it (404), and nothing changes", async () => {
    const before = { cred: credentialRow(BOSTON.id), accounts: accountsOf(BOSTON.id) };
    const token = await call(api, "POST", "/arcadia/connect-token", {
      cookie: sam,
      body: { arcadia_provider_id: BOSTON.utility, credential_id: BOSTON.id },
    });
    expect(token.status).toBe(404);
    const url = await call(api, "POST", "/arcadia/connect-url", {
      cookie: sam,
      body: {
        arcadia_provider_id: BOSTON.utility,
        credential_id: BOSTON.id,
        redirect_url: "http://web.test/authorize-arcadia?step=success",
      },
    });
    expect(url.status).toBe(404);
    const builtin = await call(api, "POST", "/utility-connections", {
      cookie: sam,
      body: {
        arcadia_provider_id: BOSTON.utility,
        username: "wrong",
        password: "wrong",
        credential_id: BOSTON.id,
      },
    });
    expect(builtin.status).toBe(404);
    // The answer names none of Back Bay's accounts, and the login and its accounts are as they were.
    expect(JSON.stringify([token.json, url.json, builtin.json])).not.toMatch(/5118-902/);
    expect(credentialRow(BOSTON.id)).toEqual(before.cred);
    expect(accountsOf(BOSTON.id)).toEqual(before.accounts);
    // No provider id was given to it on the way.
    expect(credentialRow(BOSTON.id).arcadia_credential_id).toBeNull();
  });

  it("still updates a login of his own locations", async () => {
    const token = await call(api, "POST", "/arcadia/connect-token", {
      cookie: sam,
      body: { arcadia_provider_id: SEATTLE.utility, credential_id: SEATTLE.id },
    });
    expect(token.status).toBe(200);
  });

  it("is not offered it in the credentials banner, which offers only what he may act on", async () => {
    const banner = await call(api, "GET", "/1/credentials_requiring_action", { cookie: sam });
    const ids = [...(banner.json.reconnect_urls as []), ...(banner.json.mfa_refresh_urls as [])].map(
      (c: { arcadia_credential_id: number }) => c.arcadia_credential_id,
    );
    expect(ids).not.toContain(BOSTON.id);
    for (const id of ids) {
      const utility = (
        api.db
          .prepare(
            "SELECT u.arcadia_provider_id AS p FROM utility_credentials c JOIN utilities u ON u.id = c.utility_id WHERE c.id = ?",
          )
          .get(id) as { p: string }
      ).p;
      const t = await call(api, "POST", "/arcadia/connect-token", {
        cookie: sam,
        body: { arcadia_provider_id: utility, credential_id: id },
      });
      expect(t.status).toBe(200);
    }
  });
});

describe("provider credential ids are claims", () => {
  it("an older credential gets a random provider id, never one derived from ours", async () => {
    const t = await call(api, "POST", "/arcadia/connect-token", {
      cookie: dana,
      body: { arcadia_provider_id: BOSTON.utility, credential_id: BOSTON.id },
    });
    expect(t.status).toBe(200);
    const given = credentialRow(BOSTON.id).arcadia_credential_id as string;
    expect(given).toMatch(/^uc_local_[0-9a-f]{32}$/);
    // 32 random hex digits: not our sequential id (a check on "_5" failed whenever the first digit was a 5).
    expect(given).not.toBe(`uc_local_${BOSTON.id}`);
  });

  it("another client's user cannot claim an id first, with or without a Connect session of his own", async () => {
    const guess = "uc_local_5";
    const noSession = await call(api, "POST", "/arcadia/credentials", {
      cookie: alex,
      body: { arcadia_provider_id: BOSTON.utility, utility_credential_id: guess },
    });
    expect(noSession.status).toBe(409);
    const own = await call(api, "POST", "/arcadia/connect-token", {
      cookie: alex,
      body: { arcadia_provider_id: BOSTON.utility },
    });
    expect(own.status).toBe(200);
    const withSession = await call(api, "POST", "/arcadia/credentials", {
      cookie: alex,
      body: { arcadia_provider_id: BOSTON.utility, utility_credential_id: guess },
    });
    expect(withSession.status).toBe(404);
    expect(
      api.db.prepare("SELECT 1 FROM utility_credentials WHERE arcadia_credential_id = ?").get(guess),
    ).toBeUndefined();
  });

  it("a credential Dana made through Connect is hers: Alex's claim of its real id is refused, hers accepted", async () => {
    const t = await call(api, "POST", "/arcadia/connect-token", {
      cookie: dana,
      body: { arcadia_provider_id: BOSTON.utility, building_id: 103 },
    });
    const made = await submitInConnect(t.json.connect_token as string, BOSTON.utility, "dana-new-login");
    // The provider's events come first here (the callback may come before or after them: both keep the row hers
    // and the location chosen); waiting for them makes the order this test's, not the scheduler's.
    await until(() =>
      api.db.prepare("SELECT id FROM utility_credentials WHERE arcadia_credential_id = ?").get(made),
    );
    await call(api, "POST", "/arcadia/connect-token", {
      cookie: alex,
      body: { arcadia_provider_id: BOSTON.utility },
    });
    const stolen = await call(api, "POST", "/arcadia/credentials", {
      cookie: alex,
      body: { arcadia_provider_id: BOSTON.utility, utility_credential_id: made },
    });
    expect(stolen.status).toBe(404);
    const mine = await call(api, "POST", "/arcadia/credentials", {
      cookie: dana,
      body: { arcadia_provider_id: BOSTON.utility, utility_credential_id: made },
    });
    expect(mine.status).toBe(201);
    const row = api.db
      .prepare("SELECT client_id FROM utility_credentials WHERE arcadia_credential_id = ?")
      .get(made) as { client_id: number };
    expect(row.client_id).toBe(1);
    // The location chosen when Connect opened is kept with the session: the new account is at 103.
    const stored = api.db
      .prepare(
        "SELECT a.building_id FROM utility_accounts a JOIN utility_credentials c ON c.id = a.credential_id WHERE c.arcadia_credential_id = ?",
      )
      .all(made) as { building_id: number }[];
    expect(stored.map((a) => a.building_id)).toEqual([103]);
  });

  it("a provider event naming another client than the credential's is not applied", async () => {
    const t = await call(api, "POST", "/arcadia/connect-token", {
      cookie: dana,
      body: { arcadia_provider_id: SEATTLE.utility, credential_id: SEATTLE.id },
    });
    expect(t.status).toBe(200);
    const providerId = credentialRow(SEATTLE.id).arcadia_credential_id as string;
    const before = credentialRow(SEATTLE.id).state;
    const body = JSON.stringify({
      id: "evt_claims_mismatch",
      type: "utility_credential_rejected",
      created_at: new Date(nowMs()).toISOString(),
      data: { utility_credential_id: providerId, client_user_id: "client-2", utility_id: SEATTLE.utility },
    });
    const timestamp = String(Math.floor(nowMs() / 1000));
    const res = await fetch(`${origin()}/api/webhooks/arcadia`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "Arc-Webhook-Timestamp": timestamp,
        "Arc-Webhook-Signature": signWebhook(ARCADIA_DEMO_WEBHOOK_SECRET, timestamp, body),
      },
      body,
    });
    expect(res.status).toBe(202);
    const applied = await until(
      () =>
        api.db
          .prepare("SELECT outcome FROM arcadia_webhook_events WHERE id = 'evt_claims_mismatch'")
          .get() as { outcome: string | null } | undefined,
      (e) => e.outcome !== null,
    );
    expect(applied.outcome).toBe("client mismatch");
    expect(credentialRow(SEATTLE.id).state).toBe(before);
  });

  it("a login made on the hosted page lands at the location chosen for its Connect URL", async () => {
    const url = await call(api, "POST", "/arcadia/connect-url", {
      cookie: dana,
      body: {
        arcadia_provider_id: "prov_pse",
        building_id: 105,
        redirect_url: "http://web.test/authorize-arcadia?step=success",
      },
    });
    expect(url.status).toBe(200);
    const res = await fetch(url.json.connect_url as string, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ utility: "prov_pse", username: "hosted-login", password: "x" }),
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    const cred = await until(
      () =>
        api.db.prepare("SELECT id FROM utility_credentials WHERE username = 'hosted-login'").get() as
          { id: number } | undefined,
    );
    expect((accountsOf(cred.id) as { building_id: number }[]).map((a) => a.building_id)).toEqual([105]);
  });
});
