import express, { type Router } from "express";
import { z } from "zod";
import * as clock from "../lib/clock";
import { getAuth, sessionRouter } from "../lib/auth";
import { requireBuilding } from "../lib/buildings";
import { type ApiDeps, badRequest, notFound, parse, asyncRoute, route } from "../lib/http";
import {
  clientUserId,
  createConnectToken,
  createConnectUrl,
  nowIso,
  verifyWebhook,
  webhookEvent,
  type ConnectSubject,
} from "../lib/arcadia";
import { utilityByProvider } from "../lib/accounts";
import {
  applyPendingArcadiaEvents,
  type CredentialRow,
  upsertArcadiaCredential,
} from "../domain/arcadia-events";

/**
 * The utility-data provider's protocol on our side (docs/api/arcadia.md): Connect tokens and URLs for
 * the web tier (signed-in users only; the keys stay here), the credential a Connect session created, and the
 * provider's signed webhooks (POST /api/webhooks/arcadia, arcadiaWebhookRoutes below).
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
    asyncRoute(async (req, res) => {
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
    asyncRoute(async (req, res) => {
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

/**
 * POST /api/webhooks/arcadia (mounted before the JSON parser: the signature covers the exact bytes). A missing,
 * forged or stale signature is a 401 and changes nothing; a valid event is stored once by its id (a redelivery
 * answers 200 and is not applied again), answered 202 at once, and applied just after.
 */
export function arcadiaWebhookRoutes(deps: ApiDeps): Router {
  return express
    .Router()
    .post("/api/webhooks/arcadia", express.raw({ type: () => true, limit: "256kb" }), (req, res) => {
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
    });
}
