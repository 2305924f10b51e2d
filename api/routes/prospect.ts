import * as clock from "../lib/clock";
import { randomBytes, randomUUID } from "node:crypto";
import { Router } from "express";
import { z } from "zod";
import { type ApiDeps, asyncRoute, badRequest, HttpError, notFound, parse, route } from "../lib/http";
import {
  createConnectToken,
  createConnectUrl,
  isWebReturnAddress,
  prospectUserId,
  providerCredentialOwner,
} from "../lib/arcadia";
import { utilityByProvider } from "../lib/accounts";
import { PROSPECT_VERDICTS } from "../domain/arcadia-events";

const createBody = z.object({
  arcadia_provider_id: z.string().trim().min(1, "Required").max(100),
  first_name: z.string().trim().min(1, "Required").max(100),
  email: z.string().trim().email("Enter a valid email address").max(254),
  prospect_name: z.string().trim().min(1, "Required").max(200),
  rate_quote: z.boolean().default(false),
  communications_consent: z.boolean().default(false),
  utility_data: z.unknown().nullable().optional(),
});

const updateBody = z.object({
  arcadia_provider_id: z.string().trim().min(1, "Required").max(100),
  prospect_name: z.string().trim().min(1, "Required").max(200),
  email: z.string().trim().email("Enter a valid email address").max(254),
  utility_data: z.unknown().nullable().optional(),
});

/** What proves a request is the prospect's own: the record's email and the correlation id only its flow holds. */
const proofBody = {
  email: z.string().trim().email("Enter a valid email address").max(254),
  correlation_id: z.string().trim().min(1).max(100),
};
const connectTokenBody = z.object(proofBody);
const connectUrlBody = z.object({ ...proofBody, redirect_url: z.string().url().max(2000) });
const connectCredentialBody = z.object({
  ...proofBody,
  utility_credential_id: z.string().trim().min(1).max(200),
  /** How Connect ended on the page (its onClose status). */
  status: z.enum(["verified", "pending", "rejected", "timed_out"]).nullish(),
});

/** How long a prospect's Connect session stays open: short, whichever way Connect is reached. */
export const PROSPECT_CONNECT_LIFE_MS = 30 * 60_000;

/**
 * The public prospect analysis (free bill health check). Nobody is signed in: an update must name the email
 * the record was created with, otherwise the id is treated as unknown (404).
 */
export function prospectRoutes(deps: ApiDeps) {
  const r = Router();
  const { db } = deps;
  const providerExists = (id: string) =>
    Boolean(db.prepare("SELECT 1 FROM utilities WHERE arcadia_provider_id = ?").get(id));

  r.post(
    "/prospect-analysis",
    route((req, res) => {
      const body = parse(createBody, req.body);
      if (!providerExists(body.arcadia_provider_id)) throw badRequest("Unknown utility provider");
      const now = clock.now().toISOString();
      const correlationId = randomUUID();
      const id = db
        .prepare(
          `INSERT INTO prospects (correlation_id, first_name, email, prospect_name, arcadia_provider_id, rate_quote, communications_consent, utility_data_json, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          correlationId,
          body.first_name,
          body.email,
          body.prospect_name,
          body.arcadia_provider_id,
          body.rate_quote ? 1 : 0,
          body.communications_consent ? 1 : 0,
          body.utility_data == null ? null : JSON.stringify(body.utility_data),
          now,
          now,
        ).lastInsertRowid;
      res.status(201).json({ id: Number(id), correlation_id: correlationId });
    }),
  );

  r.put(
    "/prospect-analysis/:id",
    route((req, res) => {
      const body = parse(updateBody, req.body);
      const row = db
        .prepare("SELECT id, correlation_id FROM prospects WHERE id = ? AND email = ?")
        .get(Number(req.params.id), body.email) as { id: number; correlation_id: string } | undefined;
      if (!row) throw notFound();
      if (!providerExists(body.arcadia_provider_id)) throw badRequest("Unknown utility provider");
      db.prepare(
        "UPDATE prospects SET arcadia_provider_id = ?, prospect_name = ?, utility_data_json = ?, updated_at = ? WHERE id = ?",
      ).run(
        body.arcadia_provider_id,
        body.prospect_name,
        body.utility_data == null ? null : JSON.stringify(body.utility_data),
        clock.now().toISOString(),
        row.id,
      );
      res.json({ id: row.id, correlation_id: row.correlation_id });
    }),
  );

  /** The prospect's record, found by id, email and correlation id together (otherwise 404), with its utility. */
  const ownProspect = (id: string, proof: { email: string; correlation_id: string }) => {
    const row = db
      .prepare(
        "SELECT id, arcadia_provider_id, prospect_name FROM prospects WHERE id = ? AND email = ? AND correlation_id = ?",
      )
      .get(Number(id), proof.email, proof.correlation_id) as
      { id: number; arcadia_provider_id: string; prospect_name: string } | undefined;
    if (!row) throw notFound();
    const utility = utilityByProvider(deps, row.arcadia_provider_id);
    if (!utility) throw badRequest("Unknown utility provider");
    return {
      id: row.id,
      utilityId: utility.id,
      providerId: row.arcadia_provider_id,
      name: row.prospect_name,
      providerUser: prospectUserId(proof.correlation_id),
    };
  };

  /**
   * A Connect session for the prospect's record (rule prospect-connect-session): the only open one (minting it
   * closes any earlier one still unused), for 30 minutes, used by the first credential it reports.
   */
  const openSession = (prospectId: number, utilityId: number, kind: "token" | "url") => {
    const id = randomBytes(16).toString("hex");
    const now = clock.nowMs();
    const expires = new Date(now + PROSPECT_CONNECT_LIFE_MS).toISOString();
    db.transaction(() => {
      db.prepare(
        "UPDATE prospect_connect_sessions SET expires_at = ? WHERE prospect_id = ? AND used_at IS NULL AND expires_at > ?",
      ).run(new Date(now).toISOString(), prospectId, new Date(now).toISOString());
      db.prepare(
        `INSERT INTO prospect_connect_sessions (id, prospect_id, kind, utility_id, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(id, prospectId, kind, utilityId, new Date(now).toISOString(), expires);
    })();
    return expires;
  };

  // The provider's Connect for a prospect (the health check's connect step): a token for the JavaScript path.
  r.post(
    "/prospect-analysis/:id/connect-token",
    asyncRoute(async (req, res) => {
      const body = parse(connectTokenBody, req.body);
      const prospect = ownProspect(req.params.id, body);
      const answer = await createConnectToken(deps, { clientUserId: prospect.providerUser });
      const expires = openSession(prospect.id, prospect.utilityId, "token");
      res.json({ connect_token: answer.connect_token, expires_at: expires, env: deps.config.arcadia.env });
    }),
  );

  // … and a Connect URL for the no-JavaScript path, back to a page of the web app only.
  r.post(
    "/prospect-analysis/:id/connect-url",
    asyncRoute(async (req, res) => {
      const body = parse(connectUrlBody, req.body);
      if (!isWebReturnAddress(deps.config.webBaseUrl, body.redirect_url))
        throw new HttpError(400, { message: "Unknown redirect_url", error: "unknown_redirect_url" });
      const prospect = ownProspect(req.params.id, body);
      const answer = await createConnectUrl(
        deps,
        { clientUserId: prospect.providerUser },
        body.redirect_url,
        PROSPECT_CONNECT_LIFE_MS / 1000,
        // The hosted page names the business the health check is for, and opens on its utility.
        { clientName: prospect.name, utilityId: prospect.providerId },
      );
      const expires = openSession(prospect.id, prospect.utilityId, "url");
      res.json({ connect_url: answer.connect_url, expires_at: expires });
    }),
  );

  // Connect's onCredentialsSubmitted on the health check: a claim, accepted once, within the prospect's open
  // token session, and only when the provider says the credential is this prospect's (rule prospect-connect-session).
  r.post(
    "/prospect-analysis/:id/credentials",
    asyncRoute(async (req, res) => {
      const body = parse(connectCredentialBody, req.body);
      const prospect = ownProspect(req.params.id, body);
      const open = () =>
        db
          .prepare(
            `SELECT id, verdict FROM prospect_connect_sessions
             WHERE prospect_id = ? AND kind = 'token' AND used_at IS NULL AND expires_at > ?
               AND (provider_credential_id IS NULL OR provider_credential_id = ?)
             ORDER BY created_at DESC LIMIT 1`,
          )
          .get(prospect.id, clock.now().toISOString(), body.utility_credential_id) as
          { id: string; verdict: string | null } | undefined;
      if (!open()) throw new HttpError(409, { message: "No Connect session is open for this prospect" });
      const owner = await providerCredentialOwner(deps, body.utility_credential_id);
      if (owner !== prospect.providerUser) throw notFound();
      const used = db.transaction(() => {
        const session = open();
        if (!session) return null;
        // A verdict the provider sent before the page reported the credential is the session's too.
        const early = db
          .prepare(
            `SELECT type FROM arcadia_webhook_events
             WHERE json_extract(body, '$.data.utility_credential_id') = ? AND applied_at IS NOT NULL
             ORDER BY occurred_at DESC`,
          )
          .all(body.utility_credential_id) as { type: string }[];
        const verdict = early.map((e) => PROSPECT_VERDICTS[e.type]).find(Boolean) ?? session.verdict;
        db.prepare(
          "UPDATE prospect_connect_sessions SET used_at = ?, provider_credential_id = ?, connect_status = ?, verdict = ? WHERE id = ?",
        ).run(
          clock.now().toISOString(),
          body.utility_credential_id,
          body.status ?? null,
          verdict,
          session.id,
        );
        return { verdict };
      })();
      if (!used) throw new HttpError(409, { message: "No Connect session is open for this prospect" });
      res.status(201).json({ status: body.status ?? used.verdict ?? "pending" });
    }),
  );

  return r;
}
