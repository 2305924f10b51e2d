import * as clock from "../lib/clock";
import { randomUUID } from "node:crypto";
import { Router } from "express";
import { z } from "zod";
import { type ApiDeps, badRequest, notFound, parse, route } from "../lib/http";

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

  return r;
}
