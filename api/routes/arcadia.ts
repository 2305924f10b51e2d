import express, { type Router } from "express";
import { z } from "zod";
import * as clock from "../lib/clock";
import { randomBytes } from "node:crypto";
import { type Auth, getAuth, sessionRouter } from "../lib/auth";
import { requireCredential } from "../lib/access";
import { requireBuilding } from "../lib/buildings";
import { type ApiDeps, badRequest, HttpError, notFound, parse, asyncRoute } from "../lib/http";
import {
  clientUserId,
  createConnectToken,
  createConnectUrl,
  isWebReturnAddress,
  localCredentialId,
  nowIso,
  providerCredentialOwner,
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
import { connectVerdictHook } from "../mail/connect-verdict";

/**
 * The utility-data provider's protocol on our side (docs/api/arcadia.md): Connect tokens and URLs for
 * the web tier (signed-in users only; the keys stay here), the credential a Connect session created, and the
 * provider's signed webhooks (POST /api/webhooks/arcadia, arcadiaWebhookRoutes below).
 */

const subjectBody = {
  arcadia_provider_id: z.string().trim().min(1).max(100),
  /** Update mode: our id of a stored credential (Reconnect, MFA refresh). */
  credential_id: z.number().int().positive().nullish(),
  /** The location the new accounts go to, kept with the Connect session. */
  building_id: z.number().int().positive().nullish(),
};
const tokenBody = z.object(subjectBody);
const urlBody = z.object({ ...subjectBody, redirect_url: z.string().url().max(2000) });
const credentialBody = z.object({
  arcadia_provider_id: z.string().trim().min(1).max(100),
  utility_credential_id: z.string().trim().min(1).max(200),
  building_id: z.number().int().positive().nullish(),
  /** How Connect ended on the page (its onClose status), kept with the session (rule connect-verdict-email). */
  status: z.enum(["verified", "pending", "rejected", "timed_out"]).nullish(),
});

/** How long a Connect session of ours stays open: the provider's token life (2 hours), a hosted URL's (30 min). */
export const CONNECT_TOKEN_LIFE_MS = 2 * 3_600_000;
export const CONNECT_URL_LIFE_MS = 30 * 60_000;

type ConnectSessionRow = { id: string; building_id: number | null; credential_id: number | null };

/** The Connect subject for a session: a stored credential the person may change (update mode), or the client. */
function subjectFor(
  deps: ApiDeps,
  auth: Auth,
  utilityId: number,
  credentialId: number | null | undefined,
): ConnectSubject {
  const clientId = auth.clientId!;
  if (!credentialId) return { clientUserId: clientUserId(clientId) };
  // Rule object-access: a login of a location this person may see, and of this utility (else 404).
  const cred = requireCredential(deps.db, auth, credentialId);
  if (cred.utility_id !== utilityId) throw notFound();
  // A credential stored before the provider's protocol (the demo's seed) gets its provider id on first update:
  // a random one, never derived from our id (nobody can claim another client's first).
  let arcadiaId = cred.arcadia_credential_id;
  if (!arcadiaId) {
    arcadiaId = localCredentialId();
    deps.db
      .prepare("UPDATE utility_credentials SET arcadia_credential_id = ? WHERE id = ?")
      .run(arcadiaId, cred.id);
  }
  return { utilityCredentialId: arcadiaId };
}

/** Records a Connect session minted for this client and person (rule arcadia-credential-claim). */
function recordConnectSession(
  deps: ApiDeps,
  auth: Auth,
  input: {
    kind: "token" | "url";
    utilityId: number;
    buildingId: number | null;
    credentialId: number | null;
    lifeMs: number;
  },
) {
  const id = randomBytes(16).toString("hex");
  const now = clock.nowMs();
  deps.db
    .prepare(
      `INSERT INTO arcadia_connect_sessions (id, kind, client_id, user_id, utility_id, building_id, credential_id, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id,
      input.kind,
      auth.clientId,
      auth.user.id,
      input.utilityId,
      input.buildingId,
      input.credentialId,
      new Date(now).toISOString(),
      new Date(now + input.lifeMs).toISOString(),
    );
  return id;
}

/** The newest open Connect session of this person for this utility (the JavaScript path's), or null. */
function openConnectSession(deps: ApiDeps, auth: Auth, utilityId: number) {
  return (
    (deps.db
      .prepare(
        `SELECT id, building_id, credential_id FROM arcadia_connect_sessions
         WHERE client_id = ? AND user_id = ? AND utility_id = ? AND kind = 'token' AND expires_at > ?
         ORDER BY created_at DESC LIMIT 1`,
      )
      .get(auth.clientId, auth.user.id, utilityId, nowIso()) as ConnectSessionRow | undefined) ?? null
  );
}

export function arcadiaRoutes(deps: ApiDeps) {
  const { r, db, auth } = sessionRouter(deps);

  const authOf = (res: Parameters<typeof getAuth>[0]) => {
    const a = getAuth(res);
    if (a.clientId === null) throw notFound();
    return a;
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
      const a = authOf(res);
      const utility = utilityOf(body.arcadia_provider_id);
      const building = body.building_id ? requireBuilding(db, a, body.building_id) : null;
      const subject = subjectFor(deps, a, utility.id, body.credential_id);
      const answer = await createConnectToken(deps, subject);
      recordConnectSession(deps, a, {
        kind: "token",
        utilityId: utility.id,
        buildingId: building?.id ?? null,
        credentialId: body.credential_id ?? null,
        lifeMs: CONNECT_TOKEN_LIFE_MS,
      });
      res.json({
        connect_token: answer.connect_token,
        expires_at: answer.expires_at,
        env: deps.config.arcadia.env,
      });
    }),
  );

  // A Connect URL for the no-JavaScript path (the provider's hosted page, back to `redirect_url`), asked for with
  // the shortest life the provider allows: whoever holds the link may bind a login to this client until then.
  r.post(
    "/arcadia/connect-url",
    auth,
    asyncRoute(async (req, res) => {
      const body = parse(urlBody, req.body);
      // A return address elsewhere than the web app is refused with a code the web tier explains.
      if (!isWebReturnAddress(deps.config.webBaseUrl, body.redirect_url))
        throw new HttpError(400, { message: "Unknown redirect_url", error: "unknown_redirect_url" });
      const a = authOf(res);
      const utility = utilityOf(body.arcadia_provider_id);
      const building = body.building_id ? requireBuilding(db, a, body.building_id) : null;
      const subject = subjectFor(deps, a, utility.id, body.credential_id);
      const client = db.prepare("SELECT name FROM clients WHERE id = ?").get(a.clientId) as { name: string };
      const answer = await createConnectUrl(deps, subject, body.redirect_url, CONNECT_URL_LIFE_MS / 1000, {
        clientName: client.name,
        utilityId: utility.arcadia_provider_id,
      });
      recordConnectSession(deps, a, {
        kind: "url",
        utilityId: utility.id,
        buildingId: building?.id ?? null,
        credentialId: body.credential_id ?? null,
        lifeMs: CONNECT_URL_LIFE_MS,
      });
      res.json({ connect_url: answer.connect_url, expires_at: answer.expires_at });
    }),
  );

  // Connect's onCredentialsSubmitted: the credential exists at the provider; its accounts show Processing. The id
  // comes from the browser, so it is a claim (rule arcadia-credential-claim): accepted only within a Connect
  // session we minted for this person and utility, and, for a credential we do not have yet, only when the
  // provider says it is this client's.
  r.post(
    "/arcadia/credentials",
    auth,
    asyncRoute(async (req, res) => {
      const body = parse(credentialBody, req.body);
      const a = authOf(res);
      const clientId = a.clientId!;
      const utility = utilityOf(body.arcadia_provider_id);
      const building = body.building_id ? requireBuilding(db, a, body.building_id) : null;
      const session = openConnectSession(deps, a, utility.id);
      if (!session) throw new HttpError(409, { message: "No Connect session is open for this utility" });
      // What Connect showed the person: a verdict it showed is not emailed again when its webhook arrives.
      const noteStatus = () => {
        if (body.status)
          db.prepare(
            "UPDATE arcadia_connect_sessions SET connect_status = ?, provider_credential_id = ? WHERE id = ?",
          ).run(body.status, body.utility_credential_id, session.id);
      };
      const known = () =>
        db
          .prepare("SELECT * FROM utility_credentials WHERE arcadia_credential_id = ?")
          .get(body.utility_credential_id) as CredentialRow | undefined;
      const found = known();
      if (found) {
        if (found.client_id !== clientId) throw notFound();
        requireCredential(db, a, found.id);
        noteStatus();
        res.status(201).json({ arcadia_credential_id: found.id });
        return;
      }
      const owner = await providerCredentialOwner(deps, body.utility_credential_id);
      if (owner !== clientUserId(clientId)) throw notFound();
      const cred = db.transaction(() => {
        noteStatus();
        const again = known();
        if (again) {
          if (again.client_id !== clientId) throw notFound();
          return again;
        }
        return upsertArcadiaCredential(deps, {
          clientId,
          utilityId: utility.id,
          arcadiaCredentialId: body.utility_credential_id,
          username: "",
          buildingId: building?.id ?? session.building_id,
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
        applyPendingArcadiaEvents(deps, connectVerdictHook(deps)).catch((error: unknown) =>
          deps.log("arcadia webhook apply failed", {
            err: error instanceof Error ? error.message : String(error),
          }),
        );
      });
    });
}
