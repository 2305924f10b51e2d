import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, call } from "./api-harness";
import type { RunningApi } from "../../api/server";

/**
 * The free bill health check connects through the provider's Connect (rule prospect-connect-session): nobody is
 * signed in, so the api mints the Connect session for the prospect's record (found by id, email and correlation
 * id), for 30 minutes, used by one credential, and keeps how it ended (the page's status, the webhook's verdict).
 */
let api: RunningApi;
const CLOCK = "2026-11-18T19:30:00.000Z";
const UTILITY = "prov_xcel";

beforeAll(async () => {
  api = await startTestApi({ clockStart: CLOCK, utilityProviderDelayMs: 20 });
});
afterAll(() => api.close());

const origin = () => api.url.replace(/\/api$/, "");
const until = async <T>(read: () => T | undefined, ok: (v: T) => boolean = () => true) => {
  for (let i = 0; i < 200; i++) {
    const v = read();
    if (v !== undefined && ok(v)) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("timed out waiting");
};
type SessionRow = {
  kind: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  provider_credential_id: string | null;
  connect_status: string | null;
  verdict: string | null;
};
const sessionsOf = (prospectId: number) =>
  api.db
    .prepare("SELECT * FROM prospect_connect_sessions WHERE prospect_id = ? ORDER BY created_at, rowid")
    .all(prospectId) as SessionRow[];

let seq = 0;
async function newProspect() {
  const email = `p${++seq}.${Date.now()}@example.test`;
  const r = await call(api, "POST", "/prospect-analysis", {
    body: {
      arcadia_provider_id: UTILITY,
      first_name: "Ada",
      email,
      prospect_name: "Ada's Bakery",
      rate_quote: false,
      communications_consent: false,
      utility_data: null,
    },
  });
  expect(r.status).toBe(201);
  return { id: r.json.id as number, email, correlation_id: r.json.correlation_id as string };
}

/** Submits a login in the embedded Connect of a token; the provider's credential id and the status shown. */
async function submitInConnect(token: string, username: string) {
  const res = await fetch(`${origin()}/arcadia-sim/connect/submit`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      token,
      origin: "http://web.test",
      utility: UTILITY,
      username,
      password: "x",
    }),
  });
  const text = await res.text();
  const m = /"utilityCredentialId":"([^"]+)","status":"([^"]+)"/.exec(text);
  if (!m) throw new Error("no credential from Connect");
  return { credential: m[1], status: m[2] };
}

describe("a prospect's Connect session", () => {
  it("is minted only for the record's own email and correlation id, for 30 minutes", async () => {
    const p = await newProspect();
    const other = await newProspect();
    for (const body of [
      { email: p.email, correlation_id: other.correlation_id },
      { email: other.email, correlation_id: p.correlation_id },
    ]) {
      const refused = await call(api, "POST", `/prospect-analysis/${p.id}/connect-token`, { body });
      expect(refused.status).toBe(404);
    }
    expect(sessionsOf(p.id)).toEqual([]);
    const t = await call(api, "POST", `/prospect-analysis/${p.id}/connect-token`, {
      body: { email: p.email, correlation_id: p.correlation_id },
    });
    expect(t.status).toBe(200);
    expect(t.json.connect_token).toMatch(/^ct_/);
    const [row] = sessionsOf(p.id);
    expect(row).toMatchObject({ kind: "token", expires_at: t.json.expires_at });
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(30 * 60_000);
  });

  it("accepts the credential its Connect made once, with the status Connect showed; the verdict follows", async () => {
    const p = await newProspect();
    const proof = { email: p.email, correlation_id: p.correlation_id };
    const t = await call(api, "POST", `/prospect-analysis/${p.id}/connect-token`, { body: proof });
    const made = await submitInConnect(t.json.connect_token as string, "ada-bakery-bad");
    expect(made.status).toBe("rejected");
    const claim = { ...proof, utility_credential_id: made.credential, status: made.status };
    const first = await call(api, "POST", `/prospect-analysis/${p.id}/credentials`, { body: claim });
    expect(first.status).toBe(201);
    expect(first.json.status).toBe("rejected");
    // One use: the same session takes no second report.
    const again = await call(api, "POST", `/prospect-analysis/${p.id}/credentials`, { body: claim });
    expect(again.status).toBe(409);
    const row = await until(
      () => sessionsOf(p.id)[0],
      (s) => s.verdict !== null,
    );
    expect(row).toMatchObject({
      provider_credential_id: made.credential,
      connect_status: "rejected",
      verdict: "rejected",
    });
    expect(row.used_at).not.toBeNull();
    // No client's login or account was made for it.
    expect(
      api.db
        .prepare("SELECT 1 FROM utility_credentials WHERE arcadia_credential_id = ?")
        .get(made.credential),
    ).toBeUndefined();
  });

  it("keeps a verdict the provider sent before the page reported the credential", async () => {
    const p = await newProspect();
    const proof = { email: p.email, correlation_id: p.correlation_id };
    const t = await call(api, "POST", `/prospect-analysis/${p.id}/connect-token`, { body: proof });
    const made = await submitInConnect(t.json.connect_token as string, "ada-timeout");
    await until(
      () =>
        api.db
          .prepare(
            "SELECT outcome FROM arcadia_webhook_events WHERE json_extract(body, '$.data.utility_credential_id') = ?",
          )
          .get(made.credential) as { outcome: string | null } | undefined,
      (e) => e.outcome !== null,
    );
    // A token session is not taken by an event alone: only the page's report (or the hosted page) uses it.
    expect(sessionsOf(p.id)[0]).toMatchObject({ used_at: null, provider_credential_id: null, verdict: null });
    const claim = { ...proof, utility_credential_id: made.credential, status: made.status };
    const r = await call(api, "POST", `/prospect-analysis/${p.id}/credentials`, { body: claim });
    expect(r.status).toBe(201);
    expect(sessionsOf(p.id)[0]).toMatchObject({ connect_status: "timed_out", verdict: "timed_out" });
  });

  it("refuses a credential another prospect's Connect made, and a report without a session", async () => {
    const p = await newProspect();
    const q = await newProspect();
    const pProof = { email: p.email, correlation_id: p.correlation_id };
    const qProof = { email: q.email, correlation_id: q.correlation_id };
    const none = await call(api, "POST", `/prospect-analysis/${p.id}/credentials`, {
      body: { ...pProof, utility_credential_id: "uc_guess" },
    });
    expect(none.status).toBe(409);
    const tq = await call(api, "POST", `/prospect-analysis/${q.id}/connect-token`, { body: qProof });
    const made = await submitInConnect(tq.json.connect_token as string, "q-login");
    await call(api, "POST", `/prospect-analysis/${p.id}/connect-token`, { body: pProof });
    const stolen = await call(api, "POST", `/prospect-analysis/${p.id}/credentials`, {
      body: { ...pProof, utility_credential_id: made.credential, status: "verified" },
    });
    expect(stolen.status).toBe(404);
    expect(sessionsOf(p.id)[0]).toMatchObject({ used_at: null, provider_credential_id: null });
  });

  it("closes an earlier unused session when a new one is minted, and expires after 30 minutes", async () => {
    const p = await newProspect();
    const proof = { email: p.email, correlation_id: p.correlation_id };
    const first = await call(api, "POST", `/prospect-analysis/${p.id}/connect-token`, { body: proof });
    await call(api, "POST", `/prospect-analysis/${p.id}/connect-token`, { body: proof });
    const [older, newer] = sessionsOf(p.id);
    expect(Date.parse(older.expires_at)).toBeLessThanOrEqual(Date.parse(newer.created_at));
    expect(Date.parse(newer.expires_at) - Date.parse(newer.created_at)).toBe(30 * 60_000);
    // The older token's login is accepted only within the open (newer) session: once.
    const made = await submitInConnect(first.json.connect_token as string, "ada-login");
    const claim = { ...proof, utility_credential_id: made.credential, status: "verified" };
    expect((await call(api, "POST", `/prospect-analysis/${p.id}/credentials`, { body: claim })).status).toBe(
      201,
    );
    expect((await call(api, "POST", `/prospect-analysis/${p.id}/credentials`, { body: claim })).status).toBe(
      409,
    );
  });

  it("gives a Connect URL back to the web app only; its hosted login's verdict lands on that session", async () => {
    const p = await newProspect();
    const proof = { email: p.email, correlation_id: p.correlation_id };
    const elsewhere = await call(api, "POST", `/prospect-analysis/${p.id}/connect-url`, {
      body: { ...proof, redirect_url: "https://evil.test/free-bill-health-check" },
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.json.error).toBe("unknown_redirect_url");
    const u = await call(api, "POST", `/prospect-analysis/${p.id}/connect-url`, {
      body: { ...proof, redirect_url: "http://web.test/free-bill-health-check" },
    });
    expect(u.status).toBe(200);
    const hosted = await fetch(u.json.connect_url as string, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ utility: UTILITY, username: "ada-timeout", password: "x" }),
      redirect: "manual",
    });
    expect(hosted.status).toBe(303);
    expect(hosted.headers.get("location")).toBe("http://web.test/free-bill-health-check");
    const row = await until(
      () => sessionsOf(p.id)[0],
      (s) => s.verdict !== null,
    );
    expect(row).toMatchObject({ kind: "url", verdict: "timed_out", connect_status: null });
    expect(row.provider_credential_id).toMatch(/^uc_/);
    expect(row.used_at).not.toBeNull();
  });
});
