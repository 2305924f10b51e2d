import { z } from "zod";
import type { ApiDeps } from "../lib/http";
import { utilityByProvider } from "../lib/accounts";
import {
  arcadiaEventEffect,
  clientIdOfUser,
  isNewerEvent,
  nowIso,
  prospectOfUser,
  webhookEvent,
  type WebhookEvent,
} from "../lib/arcadia";

/**
 * The provider's events applied to our credentials and accounts (rules arcadia-event-status and
 * arcadia-event-order): the webhook route stores each signed event once and this applies it, after the answer and
 * again at start for any left unapplied. Also the credential a Connect session created (routes/arcadia.ts).
 */

export type CredentialRow = {
  id: number;
  client_id: number;
  utility_id: number;
  arcadia_credential_id: string | null;
  arcadia_event_at: string | null;
};

/** A new account for a credential the provider discovered (the simulator's stand-in for account discovery). */
function insertDiscoveredAccount(
  deps: ApiDeps,
  clientId: number,
  utilityId: number,
  credentialId: number,
  buildingId: number | null,
) {
  const { db } = deps;
  const { n } = db.prepare("SELECT count(*) AS n FROM utility_accounts").get() as { n: number };
  const u = db.prepare("SELECT id, arcadia_provider_id FROM utilities WHERE id = ?").get(utilityId) as {
    id: number;
    arcadia_provider_id: string;
  };
  const seq = n + 1;
  const number = `${u.arcadia_provider_id.replace("prov_", "").toUpperCase()}-${String(100000 + ((seq * 7919 + u.id * 104729) % 900000))}-${String(seq % 10)}`;
  db.prepare(
    "INSERT INTO utility_accounts (client_id, building_id, utility_id, credential_id, number, arcadia_account_status, arcadia_account_status_detail, created_at) VALUES (?, ?, ?, ?, ?, 'CONNECTION_IN_PROGRESS', NULL, ?)",
  ).run(clientId, buildingId, utilityId, credentialId, number, nowIso());
}

/**
 * Finds our credential for the provider's id, or records it (a new connection: its one account shows
 * Processing until the provider's verdict arrives). Idempotent: the Connect callback and the first webhook may
 * arrive in either order.
 */
export function upsertArcadiaCredential(
  deps: ApiDeps,
  input: {
    clientId: number;
    utilityId: number;
    arcadiaCredentialId: string;
    username: string;
    buildingId: number | null;
  },
): CredentialRow {
  const { db } = deps;
  const find = () =>
    db
      .prepare("SELECT * FROM utility_credentials WHERE arcadia_credential_id = ?")
      .get(input.arcadiaCredentialId) as CredentialRow | undefined;
  const existing = find();
  if (existing) return existing;
  const id = Number(
    db
      .prepare(
        "INSERT INTO utility_credentials (client_id, utility_id, username, state, correlation_id, created_at, arcadia_credential_id) VALUES (?, ?, ?, 'ok', NULL, ?, ?)",
      )
      .run(input.clientId, input.utilityId, input.username, nowIso(), input.arcadiaCredentialId)
      .lastInsertRowid,
  );
  insertDiscoveredAccount(deps, input.clientId, input.utilityId, id, input.buildingId);
  return find()!;
}

/** The verdict a provider event gives a prospect's Connect session; other types say none. */
export const PROSPECT_VERDICTS: Record<string, string> = {
  utility_credential_verified: "verified",
  utility_credential_rejected: "rejected",
  utility_credential_mfa_required: "pending",
  utility_credential_timed_out: "timed_out",
};

/**
 * An event for a prospect's credential (the health check: no client, no credential of ours): its verdict is kept
 * with the prospect's Connect session that made it: the session the page reported it with, else (the hosted page
 * reports nothing) the prospect's newest Connect URL session before the event with no credential yet, which the
 * login uses up. A token session's page report picks up a verdict that came first (routes/prospect.ts).
 */
function applyProspectEvent(deps: ApiDeps, correlationId: string, event: WebhookEvent) {
  const { db } = deps;
  const prospect = db.prepare("SELECT id FROM prospects WHERE correlation_id = ?").get(correlationId) as
    { id: number } | undefined;
  if (!prospect) return { outcome: "unknown prospect", first: false };
  const prospectId = prospect.id;
  const credential = event.data.utility_credential_id!;
  const verdict = PROSPECT_VERDICTS[event.type];
  let session = db
    .prepare("SELECT id FROM prospect_connect_sessions WHERE prospect_id = ? AND provider_credential_id = ?")
    .get(prospectId, credential) as { id: string } | undefined;
  if (!session) {
    session = db
      .prepare(
        `SELECT id FROM prospect_connect_sessions WHERE prospect_id = ? AND kind = 'url'
           AND provider_credential_id IS NULL AND created_at <= ? ORDER BY created_at DESC LIMIT 1`,
      )
      .get(prospectId, event.created_at) as { id: string } | undefined;
    if (!session) return { outcome: "unknown prospect session", first: false };
    db.prepare(
      "UPDATE prospect_connect_sessions SET provider_credential_id = ?, used_at = ? WHERE id = ?",
    ).run(credential, nowIso(), session.id);
  }
  if (verdict)
    db.prepare("UPDATE prospect_connect_sessions SET verdict = ? WHERE id = ?").run(verdict, session.id);
  return { outcome: "prospect", first: false };
}

const statementData = z.object({
  statement_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  service_start_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  service_end_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  consumption_kwh: z.coerce.number().nonnegative(),
  demand_kw: z.coerce.number().nonnegative().nullish(),
  rate_cents: z.coerce.number().nonnegative(),
  total_charges_cents: z.coerce.number().int(),
  total_electric_charges_cents: z.coerce.number().int(),
  supplier: z.string().max(200).nullish(),
});

/**
 * A credential the provider says is Connected (rule connect-what-next): its accounts keep when that first
 * happened ("Connected on …" until the first bill); the client's Bill Monitoring step is complete (rule
 * onboarding-matches-data); a statement the event carries becomes a bill of each account at a location, once.
 */
function connected(deps: ApiDeps, cred: CredentialRow, event: WebhookEvent) {
  const { db } = deps;
  db.prepare(
    "UPDATE utility_accounts SET connected_at = COALESCE(connected_at, ?) WHERE credential_id = ?",
  ).run(event.created_at, cred.id);
  db.prepare(
    "UPDATE onboarding_steps SET status = 'complete', updated_at = ? WHERE client_id = ? AND name = 'bill_monitoring' AND status != 'complete'",
  ).run(nowIso(), cred.client_id);
  if (event.type !== "utility_statement_discovered") return;
  const st = statementData.safeParse(event.data);
  if (!st.success) return;
  const s = st.data;
  const accounts = db
    .prepare(
      "SELECT id, building_id FROM utility_accounts WHERE credential_id = ? AND building_id IS NOT NULL",
    )
    .all(cred.id) as { id: number; building_id: number }[];
  for (const a of accounts) {
    const known = db
      .prepare(
        "SELECT 1 FROM bill_statements WHERE account_id = ? AND service_start_date = ? AND service_end_date = ?",
      )
      .get(a.id, s.service_start_date, s.service_end_date);
    if (known) continue;
    db.prepare(
      `INSERT INTO bill_statements (building_id, account_id, statement_date, service_start_date, service_end_date,
         consumption_kwh, demand_kw, rate_cents, total_charges_cents, total_electric_charges_cents, supplier)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      a.building_id,
      a.id,
      s.statement_date,
      s.service_start_date,
      s.service_end_date,
      s.consumption_kwh,
      s.demand_kw ?? null,
      s.rate_cents,
      s.total_charges_cents,
      s.total_electric_charges_cents,
      s.supplier ?? null,
    );
  }
}

/**
 * Applies one stored event to its credential (rule arcadia-event-status, rule arcadia-event-order); `first`: it
 * is the credential's first applied event (its first verdict).
 */
function applyEventTo(deps: ApiDeps, raw: string): { outcome: string; first: boolean } {
  const outcome = (o: string) => ({ outcome: o, first: false });
  const { db } = deps;
  const event = webhookEvent.parse(JSON.parse(raw));
  const effect = arcadiaEventEffect(event.type);
  const providerCredential = event.data.utility_credential_id;
  if (!effect || !providerCredential) return outcome("ignored");
  const prospect = event.data.client_user_id ? prospectOfUser(event.data.client_user_id) : null;
  if (prospect !== null) return applyProspectEvent(deps, prospect, event);
  let cred = db
    .prepare("SELECT * FROM utility_credentials WHERE arcadia_credential_id = ?")
    .get(providerCredential) as CredentialRow | undefined;
  const namedClient = event.data.client_user_id ? clientIdOfUser(event.data.client_user_id) : null;
  if (cred) {
    // An event that names another client than the credential's is not this credential's (rule
    // arcadia-credential-claim): nothing is applied.
    if (event.data.client_user_id && namedClient !== cred.client_id) return outcome("client mismatch");
  } else {
    // A credential the callback has not reported (the hosted page, or the event came first): the event names its
    // user and utility, and the newest Connect session of that client for that utility keeps the location chosen.
    const utility = utilityByProvider(deps, event.data.utility_id ?? "");
    if (namedClient === null || !utility) return outcome("unknown credential");
    if (!db.prepare("SELECT 1 FROM clients WHERE id = ?").get(namedClient)) return outcome("unknown client");
    type SessionRow = {
      id: string;
      kind: string;
      building_id: number | null;
      provider_credential_id: string | null;
      expires_at: string;
    };
    const sessions = db
      .prepare(
        `SELECT id, kind, building_id, provider_credential_id, expires_at FROM arcadia_connect_sessions
           WHERE client_id = ? AND utility_id = ? AND credential_id IS NULL AND created_at <= ?
           ORDER BY created_at DESC, rowid DESC`,
      )
      .all(namedClient, utility.id, event.created_at) as SessionRow[];
    // The session this login came from (rule connect-url-session): the one that already reported it, else an
    // open hosted Connect URL not yet used (a URL binds one login, kept with it), else the newest. When the newest
    // is a hosted URL already used for another login, this is a second login typed into that link: not bound.
    const unusedUrl = sessions.find(
      (x) => x.kind === "url" && x.provider_credential_id === null && x.expires_at >= event.created_at,
    );
    const chosen =
      sessions.find((x) => x.provider_credential_id === providerCredential) ?? unusedUrl ?? sessions[0];
    if (chosen && chosen.kind === "url") {
      if (chosen.provider_credential_id && chosen.provider_credential_id !== providerCredential)
        return outcome("connect link already used");
      db.prepare("UPDATE arcadia_connect_sessions SET provider_credential_id = ? WHERE id = ?").run(
        providerCredential,
        chosen.id,
      );
    }
    cred = upsertArcadiaCredential(deps, {
      clientId: namedClient,
      utilityId: utility.id,
      arcadiaCredentialId: providerCredential,
      username: event.data.username ?? "",
      buildingId: chosen?.building_id ?? null,
    });
  }
  if (!isNewerEvent(event.created_at, cred.arcadia_event_at)) return outcome("older than applied");
  // The credential's first verdict: the one a person who did not see it in Connect is told about.
  const first = cred.arcadia_event_at === null;
  db.prepare(
    "UPDATE utility_credentials SET state = ?, arcadia_event_at = ?, username = CASE WHEN ? != '' THEN ? ELSE username END WHERE id = ?",
  ).run(
    effect.credentialState,
    event.created_at,
    event.data.username ?? "",
    event.data.username ?? "",
    cred.id,
  );
  db.prepare(
    "UPDATE utility_accounts SET arcadia_account_status = ?, arcadia_account_status_detail = ? WHERE credential_id = ?",
  ).run(effect.accountStatus, effect.accountDetail, cred.id);
  if (effect.accountStatus === "CONNECTION_SUCCESS") connected(deps, cred, event);
  return { outcome: "applied", first };
}

/**
 * Applies every received event not yet applied, oldest first (after each delivery, and at start). `hook` (the
 * verdict email, api/mail/connect-verdict.ts) is prepared before each event and written in its transaction.
 */
/** What happens around an event's application: prepared before (asynchronous), written in its transaction. */
export type ArcadiaEventHook<P> = {
  prepare: (rawEvent: string) => Promise<P | null>;
  write: (prepared: P, result: { outcome: string; first: boolean }) => void;
};

export async function applyPendingArcadiaEvents<P>(deps: ApiDeps, hook?: ArcadiaEventHook<P>) {
  const { db } = deps;
  const pending = db
    .prepare(
      "SELECT id, body FROM arcadia_webhook_events WHERE applied_at IS NULL ORDER BY occurred_at, received_at",
    )
    .all() as { id: string; body: string }[];
  let applied = 0;
  for (const row of pending) {
    let outcome: string;
    const prepared = hook ? await hook.prepare(row.body).catch(() => null) : null;
    try {
      const result = db.transaction(() => {
        // Another run may have applied it while this one rendered.
        const still = db
          .prepare("SELECT 1 FROM arcadia_webhook_events WHERE id = ? AND applied_at IS NULL")
          .get(row.id);
        if (!still) return null;
        const r = applyEventTo(deps, row.body);
        if (hook && prepared !== null) hook.write(prepared, r);
        db.prepare("UPDATE arcadia_webhook_events SET applied_at = ?, outcome = ? WHERE id = ?").run(
          nowIso(),
          r.outcome,
          row.id,
        );
        return r.outcome;
      })();
      if (result === null) continue;
      outcome = result;
    } catch (error) {
      outcome = `failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 200);
      db.prepare("UPDATE arcadia_webhook_events SET applied_at = ?, outcome = ? WHERE id = ?").run(
        nowIso(),
        outcome,
        row.id,
      );
    }
    applied++;
    deps.log("arcadia webhook applied", { event: row.id, outcome });
  }
  return applied;
}
