import express, { type RequestHandler } from "express";
import { z } from "zod";
import * as clock from "../lib/clock";
import { getAuth, sessionRouter } from "../lib/auth";
import { requireBuilding } from "../lib/buildings";
import { type ApiDeps, badRequest, notFound, parse, route } from "../lib/http";
import {
  arcadiaEventEffect,
  clientIdOfUser,
  clientUserId,
  createConnectToken,
  createConnectUrl,
  isNewerEvent,
  nowIso,
  verifyWebhook,
  webhookEvent,
  type ConnectSubject,
} from "../lib/arcadia";
import { utilityByProvider } from "../lib/accounts";

/**
 * The utility-data provider's protocol on our side (docs/api/arcadia.md): Connect tokens and URLs for
 * the web tier (signed-in users only; the keys stay here), the credential a Connect session created, and the
 * provider's signed webhooks (POST /api/webhooks/arcadia, arcadiaWebhook below).
 */

const subjectBody = {
  arcadia_provider_id: z.string().trim().min(1).max(100),
  /** Update mode: our id of a stored credential (Reconnect, MFA refresh). */
  credential_id: z.number().int().positive().nullish(),
};
const tokenBody = z.object(subjectBody);
const urlBody = z.object({ ...subjectBody, redirect_url: z.string().url().max(2000) });
const credentialBody = z.object({
  arcadia_provider_id: z.string().trim().min(1).max(100),
  utility_credential_id: z.string().trim().min(1).max(200),
  building_id: z.number().int().positive().nullish(),
});

type CredentialRow = {
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

/** The Connect subject for a session: a stored credential (update mode) or the client's provider user. */
function subjectFor(
  deps: ApiDeps,
  clientId: number,
  utilityId: number,
  credentialId: number | null | undefined,
): ConnectSubject {
  if (!credentialId) return { clientUserId: clientUserId(clientId) };
  const cred = deps.db
    .prepare("SELECT * FROM utility_credentials WHERE id = ? AND client_id = ? AND utility_id = ?")
    .get(credentialId, clientId, utilityId) as CredentialRow | undefined;
  if (!cred) throw notFound();
  // A credential stored before the provider's protocol (the demo's seed) gets its provider id on first update.
  let arcadiaId = cred.arcadia_credential_id;
  if (!arcadiaId) {
    arcadiaId = `uc_local_${cred.id}`;
    deps.db
      .prepare("UPDATE utility_credentials SET arcadia_credential_id = ? WHERE id = ?")
      .run(arcadiaId, cred.id);
  }
  return { utilityCredentialId: arcadiaId };
}

export function arcadiaRoutes(deps: ApiDeps) {
  const { r, db, auth } = sessionRouter(deps);

  const clientOf = (res: Parameters<typeof getAuth>[0]) => {
    const a = getAuth(res);
    if (a.clientId === null) throw notFound();
    return a.clientId;
  };
  const utilityOf = (providerId: string) => {
    const u = utilityByProvider(deps, providerId);
    if (!u) throw badRequest("Unknown utility provider");
    return u;
  };

  // A Connect token for the JavaScript path: the page that opens Connect gets it, nothing else.
  r.post(
    "/arcadia/connect-token",
    auth,
    route(async (req, res) => {
      const body = parse(tokenBody, req.body);
      const clientId = clientOf(res);
      const utility = utilityOf(body.arcadia_provider_id);
      const answer = await createConnectToken(
        deps,
        subjectFor(deps, clientId, utility.id, body.credential_id),
      );
      res.json({
        connect_token: answer.connect_token,
        expires_at: answer.expires_at,
        env: deps.config.arcadia.env,
      });
    }),
  );

  // A Connect URL for the no-JavaScript path (the provider's hosted page, back to `redirect_url`).
  r.post(
    "/arcadia/connect-url",
    auth,
    route(async (req, res) => {
      const body = parse(urlBody, req.body);
      if (!body.redirect_url.startsWith(`${deps.config.webBaseUrl}/`))
        throw badRequest("Unknown redirect_url");
      const clientId = clientOf(res);
      const utility = utilityOf(body.arcadia_provider_id);
      const subject = subjectFor(deps, clientId, utility.id, body.credential_id);
      const answer = await createConnectUrl(deps, subject, body.redirect_url);
      res.json({ connect_url: answer.connect_url, expires_at: answer.expires_at });
    }),
  );

  // Connect's onCredentialsSubmitted: the credential exists at the provider; its accounts show Processing.
  r.post(
    "/arcadia/credentials",
    auth,
    route((req, res) => {
      const body = parse(credentialBody, req.body);
      const a = getAuth(res);
      const clientId = clientOf(res);
      const utility = utilityOf(body.arcadia_provider_id);
      const building = body.building_id ? requireBuilding(db, a, body.building_id) : null;
      const cred = db.transaction(() => {
        const found = db
          .prepare("SELECT * FROM utility_credentials WHERE arcadia_credential_id = ?")
          .get(body.utility_credential_id) as CredentialRow | undefined;
        if (found) {
          if (found.client_id !== clientId) throw notFound();
          return found;
        }
        return upsertArcadiaCredential(deps, {
          clientId,
          utilityId: utility.id,
          arcadiaCredentialId: body.utility_credential_id,
          username: "",
          buildingId: building?.id ?? null,
        });
      })();
      res.status(201).json({ arcadia_credential_id: cred.id });
    }),
  );

  return r;
}

/** Applies one stored event to its credential (rule arcadia-event-status, rule arcadia-event-order). */
function applyEvent(deps: ApiDeps, raw: string): string {
  const { db } = deps;
  const event = webhookEvent.parse(JSON.parse(raw));
  const effect = arcadiaEventEffect(event.type);
  const providerCredential = event.data.utility_credential_id;
  if (!effect || !providerCredential) return "ignored";
  let cred = db
    .prepare("SELECT * FROM utility_credentials WHERE arcadia_credential_id = ?")
    .get(providerCredential) as CredentialRow | undefined;
  if (!cred) {
    // A credential made on the hosted page (no callback reached us): the event names its user and utility.
    const clientId = clientIdOfUser(event.data.client_user_id ?? "");
    const utility = utilityByProvider(deps, event.data.utility_id ?? "");
    if (clientId === null || !utility) return "unknown credential";
    if (!db.prepare("SELECT 1 FROM clients WHERE id = ?").get(clientId)) return "unknown client";
    cred = upsertArcadiaCredential(deps, {
      clientId,
      utilityId: utility.id,
      arcadiaCredentialId: providerCredential,
      username: event.data.username ?? "",
      buildingId: null,
    });
  }
  if (!isNewerEvent(event.created_at, cred.arcadia_event_at)) return "older than applied";
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
  return "applied";
}

/** Applies every received event not yet applied, oldest first (after each delivery, and at start). */
export function applyPendingArcadiaEvents(deps: ApiDeps) {
  const { db } = deps;
  const pending = db
    .prepare(
      "SELECT id, body FROM arcadia_webhook_events WHERE applied_at IS NULL ORDER BY occurred_at, received_at",
    )
    .all() as { id: string; body: string }[];
  for (const row of pending) {
    let outcome: string;
    try {
      outcome = db.transaction(() => applyEvent(deps, row.body))();
    } catch (error) {
      outcome = `failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 200);
    }
    db.prepare("UPDATE arcadia_webhook_events SET applied_at = ?, outcome = ? WHERE id = ?").run(
      nowIso(),
      outcome,
      row.id,
    );
    deps.log("arcadia webhook applied", { event: row.id, outcome });
  }
  return pending.length;
}

/**
 * POST /api/webhooks/arcadia (mounted before the JSON parser: the signature covers the exact bytes). A missing,
 * forged or stale signature is a 401 and changes nothing; a valid event is stored once by its id (a redelivery
 * answers 200 and is not applied again), answered 202 at once, and applied just after.
 */
export function arcadiaWebhook(deps: ApiDeps): RequestHandler[] {
  return [
    express.raw({ type: () => true, limit: "256kb" }),
    (req, res) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const check = verifyWebhook(
        deps.config.arcadia.webhookSecret,
        { timestamp: req.get("arc-webhook-timestamp"), signature: req.get("arc-webhook-signature") },
        raw,
        clock.nowMs(),
      );
      if (!check.ok) {
        deps.log("arcadia webhook refused", { reason: check.reason });
        res.status(401).json({ message: "Invalid signature" });
        return;
      }
      let event;
      try {
        event = webhookEvent.parse(JSON.parse(raw.toString("utf8")));
      } catch {
        res.status(400).json({ message: "Malformed event" });
        return;
      }
      const inserted = deps.db
        .prepare(
          "INSERT OR IGNORE INTO arcadia_webhook_events (id, type, occurred_at, body, received_at) VALUES (?, ?, ?, ?, ?)",
        )
        .run(event.id, event.type, event.created_at, raw.toString("utf8"), nowIso());
      if (inserted.changes === 0) {
        res.status(200).json({ received: true, duplicate: true });
        return;
      }
      res.status(202).json({ received: true });
      setImmediate(() => {
        try {
          applyPendingArcadiaEvents(deps);
        } catch (error) {
          deps.log("arcadia webhook apply failed", {
            err: error instanceof Error ? error.message : String(error),
          });
        }
      });
    },
  ];
}
