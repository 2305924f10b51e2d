import * as clock from "../lib/clock";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { type Auth, getAuth, loadAuth, readSessionCookie, sessionRouter, ownClientRoute } from "../lib/auth";
import { buildingJson, listVisibleBuildings, requireBuilding } from "../lib/buildings";
import {
  requireAccount,
  requireCredential,
  seesAllLocations,
  VISIBLE_CREDENTIALS_SQL,
  visibleCredentialParams,
} from "../lib/access";
import { type ApiDeps, badRequest, HttpError, notFound, parse, route } from "../lib/http";
import { ACCOUNT_SELECT, accountJson, type UtilityRow, utilityByProvider } from "../lib/accounts";

type AccountRow = Parameters<typeof accountJson>[0];

const nowIso = () => clock.now().toISOString();

export function prospectByCorrelation(deps: ApiDeps, correlationId: string) {
  return deps.db.prepare("SELECT id, email FROM prospects WHERE correlation_id = ?").get(correlationId) as
    { id: number; email: string } | undefined;
}

const bool = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1")
  .optional();

const accountsQuery = z.object({
  utility: z.string().trim().min(1).max(100).optional(),
  arcadia_credentials_exist: bool,
});

const connectionBody = z.object({
  arcadia_provider_id: z.string().trim().min(1, "Required").max(100),
  username: z.string().trim().min(1, "Required").max(200),
  password: z.string().min(1, "Required").max(200),
  building_id: z.number().int().positive().nullish(),
  credential_id: z.number().int().positive().nullish(),
  correlation_id: z.string().trim().min(1).max(100).nullish(),
});

const conedBody = z.object({
  correlation_id: z.string().trim().min(1, "Required").max(100),
  account_numbers: z
    .array(
      z.object({
        account_number: z
          .string()
          .trim()
          .min(4, "Account number is too short")
          .max(40, "Account number is too long"),
      }),
    )
    .min(1, "Add at least one account number")
    .max(50),
});

/** Generates a plausible new account number for a connection (the provider "discovers" it). */
function newAccountNumber(utility: UtilityRow, seq: number) {
  const n = String(100000 + ((seq * 7919 + utility.id * 104729) % 900000));
  return `${utility.arcadia_provider_id.replace("prov_", "").toUpperCase()}-${n}-${String(seq % 10)}`;
}

/**
 * Utility accounts, utilities, credentials requiring action, ConEd submissions and the utility-data provider's
 * connect step. (Onboarding, settings and prospects have routers of their own, mounted in routes/index.ts.)
 */
export function accountsRoutes(deps: ApiDeps) {
  const { r, db, auth } = sessionRouter(deps);

  // Public: the prospect flow lists utilities before anyone signs in.
  r.get(
    "/arcadia-utilities",
    route((_req, res) => {
      const rows = db.prepare("SELECT * FROM utilities ORDER BY name").all() as UtilityRow[];
      res.json({
        items: rows.map((u) => ({
          id: u.id,
          name: u.name,
          arcadia_provider_id: u.arcadia_provider_id,
          requires_ebill: u.requires_ebill === 1,
          is_coned: u.is_coned === 1,
          is_jcpl: u.is_jcpl === 1,
          mfa_exempt: u.mfa_exempt === 1,
        })),
      });
    }),
  );

  r.get(
    "/accounts",
    auth,
    route((req, res) => {
      const a = getAuth(res);
      const q = parse(accountsQuery, req.query, "query");
      const conds: string[] = ["a.client_id = ?"];
      const args: unknown[] = [a.clientId ?? -1];
      if (q.utility) {
        conds.push("(u.arcadia_provider_id = ? OR CAST(u.id AS TEXT) = ?)");
        args.push(q.utility, q.utility);
      }
      if (q.arcadia_credentials_exist !== undefined)
        conds.push(q.arcadia_credentials_exist ? "a.credential_id IS NOT NULL" : "a.credential_id IS NULL");
      const rows = db
        .prepare(`${ACCOUNT_SELECT} WHERE ${conds.join(" AND ")} ORDER BY a.id`)
        .all(...args) as AccountRow[];
      const buildings = listVisibleBuildings(db, a);
      const items = buildings
        .map((b) => ({
          ...buildingJson(b),
          accounts: rows.filter((row) => row.building_id === b.id).map(accountJson),
        }))
        .filter((b) => b.accounts.length > 0);
      res.json({
        items,
        // Accounts not yet assigned to a location are the admins' (and staff's) alone (rule object-access).
        unassigned_accounts: seesAllLocations(a)
          ? rows.filter((row) => row.building_id === null).map(accountJson)
          : [],
      });
    }),
  );

  // "Choose location" for an account not yet assigned to one (rule account-choose-location): the account is the
  // admins' and staff's alone while unassigned, the location one the person may see (access guard); an account
  // already at a location stays there (409).
  r.put(
    "/accounts/:accountId/building",
    auth,
    route((req, res) => {
      const a = getAuth(res);
      const body = parse(z.object({ building_id: z.number().int().positive() }), req.body);
      const account = requireAccount(db, a, String(req.params.accountId));
      const building = requireBuilding(db, a, body.building_id);
      const moved = db
        .prepare("UPDATE utility_accounts SET building_id = ? WHERE id = ? AND building_id IS NULL")
        .run(building.id, account.id);
      if (moved.changes === 0)
        throw new HttpError(409, { message: "This account is already assigned to a location" });
      const row = db.prepare(`${ACCOUNT_SELECT} WHERE a.id = ?`).get(account.id) as AccountRow;
      res.json(accountJson(row));
    }),
  );

  r.get(
    "/bill-monitoring-providers/:clientId",
    auth,
    ownClientRoute((clientId, req, res) => {
      const rows = db
        .prepare(
          "SELECT DISTINCT u.name, u.arcadia_provider_id FROM utility_accounts a JOIN utilities u ON u.id = a.utility_id WHERE a.client_id = ? ORDER BY u.name",
        )
        .all(clientId) as { name: string; arcadia_provider_id: string }[];
      res.json({ items: rows.map((u) => ({ label: u.name, arcadia_provider_id: u.arcadia_provider_id })) });
    }),
  );

  r.get(
    "/:clientId/credentials_requiring_action",
    auth,
    ownClientRoute((clientId, req, res) => {
      const a = getAuth(res);
      // Only the credentials this person may act on (rule object-access, api/lib/access.ts): one with an account
      // at a location they may see; admins and staff see every one.
      const rows = db
        .prepare(
          `SELECT c.id, c.username, c.state, u.name AS utility_name, u.arcadia_provider_id FROM utility_credentials c
           JOIN utilities u ON u.id = c.utility_id WHERE c.client_id = ? AND c.state != 'ok'
             AND ${VISIBLE_CREDENTIALS_SQL}
           ORDER BY c.id`,
        )
        .all(clientId, ...visibleCredentialParams(a)) as {
        id: number;
        username: string;
        state: string;
        utility_name: string;
        arcadia_provider_id: string;
      }[];
      const json = (c: (typeof rows)[number]) => ({
        arcadia_credential_id: c.id,
        username: c.username,
        utility_name: c.utility_name,
        // The provider's hosted reconnect page; the reference provider sends people back to the web's own flow.
        url: `${deps.config.webBaseUrl}/authorize-arcadia?utility=${encodeURIComponent(c.arcadia_provider_id)}&credential=${c.id}`,
      });
      res.json({
        reconnect_urls: rows.filter((c) => c.state === "reconnect").map(json),
        mfa_refresh_urls: rows.filter((c) => c.state === "mfa_refresh").map(json),
      });
    }),
  );

  r.post(
    "/create_arcadia_coned_credentials",
    route((req, res) => {
      const body = parse(conedBody, req.body);
      const a = loadAuth(db, readSessionCookie(req));
      const prospect = a ? undefined : prospectByCorrelation(deps, body.correlation_id);
      if (!a && !prospect) {
        res.status(401).json({ message: "Not authenticated" });
        return;
      }
      if (a && a.clientId === null) throw notFound();
      const numbers = [...new Set(body.account_numbers.map((n) => n.account_number.replace(/\s+/g, " ")))];
      const submitted: string[] = [];
      const already: string[] = [];
      const coned = db
        .prepare("SELECT * FROM utilities WHERE is_coned = 1 ORDER BY id LIMIT 1")
        .get() as UtilityRow;
      db.transaction(() => {
        for (const number of numbers) {
          const previous = (
            a
              ? db
                  .prepare(
                    "SELECT correlation_id FROM coned_submissions WHERE client_id = ? AND account_number = ?",
                  )
                  .all(a.clientId, number)
              : db
                  .prepare(
                    "SELECT correlation_id FROM coned_submissions WHERE prospect_id = ? AND account_number = ?",
                  )
                  .all(prospect!.id, number)
          ) as { correlation_id: string }[];
          const existing = a
            ? db
                .prepare("SELECT 1 FROM utility_accounts WHERE client_id = ? AND number = ?")
                .get(a.clientId, number)
            : undefined;
          // A retry of the same submission (same correlation id) counts as submitted, not as a duplicate.
          if (previous.some((p) => p.correlation_id === body.correlation_id)) {
            submitted.push(number);
            continue;
          }
          if (previous.length > 0 || existing) {
            already.push(number);
            continue;
          }
          db.prepare(
            "INSERT INTO coned_submissions (client_id, prospect_id, correlation_id, account_number, created_at) VALUES (?, ?, ?, ?, ?)",
          ).run(a?.clientId ?? null, prospect?.id ?? null, body.correlation_id, number, nowIso());
          if (a) {
            db.prepare(
              "INSERT INTO utility_accounts (client_id, building_id, utility_id, credential_id, number, arcadia_account_status, arcadia_account_status_detail, created_at) VALUES (?, NULL, ?, NULL, ?, 'NEW_ACCOUNT', 'EMAIL_APPROVAL', ?)",
            ).run(a.clientId, coned.id, number, nowIso());
          }
          submitted.push(number);
        }
      })();
      res.json({ submitted, already_submitted: already });
    }),
  );

  r.post(
    "/utility-connections",
    route((req, res) => {
      const body = parse(connectionBody, req.body);
      const a: Auth | null = loadAuth(db, readSessionCookie(req));
      const prospect =
        !a && body.correlation_id ? prospectByCorrelation(deps, body.correlation_id) : undefined;
      if (!a && !prospect) {
        res.status(401).json({ message: "Not authenticated" });
        return;
      }
      const utility = utilityByProvider(deps, body.arcadia_provider_id);
      if (!utility) throw badRequest("Unknown utility provider");
      const outcome =
        body.password === "wrong"
          ? "invalid_credentials"
          : utility.is_coned || body.password === "email"
            ? "email_approval"
            : "success";
      const correlationId = body.correlation_id ?? randomUUID();
      const created = nowIso();
      const due = new Date(clock.nowMs() + deps.config.utilityProviderDelayMs).toISOString();
      const accounts: ReturnType<typeof accountJson>[] = [];
      db.transaction(() => {
        if (!a) {
          db.prepare(
            "INSERT INTO utility_connections (correlation_id, prospect_id, outcome, due_at, created_at) VALUES (?, ?, ?, ?, ?)",
          ).run(correlationId, prospect!.id, outcome, due, created);
          return;
        }
        if (a.clientId === null) throw notFound();
        const building = body.building_id ? requireBuilding(db, a, body.building_id) : null;
        let credentialId: number;
        if (body.credential_id) {
          // Rule object-access: a login of a location this person may see, of the utility named (else 404).
          const cred = requireCredential(db, a, body.credential_id);
          if (cred.utility_id !== utility.id) throw notFound();
          credentialId = cred.id;
          db.prepare(
            "UPDATE utility_credentials SET username = ?, state = 'ok', correlation_id = ? WHERE id = ?",
          ).run(body.username, correlationId, credentialId);
          db.prepare(
            "UPDATE utility_accounts SET arcadia_account_status = 'CONNECTION_IN_PROGRESS', arcadia_account_status_detail = NULL WHERE credential_id = ?",
          ).run(credentialId);
        } else {
          credentialId = Number(
            db
              .prepare(
                "INSERT INTO utility_credentials (client_id, utility_id, username, state, correlation_id, created_at) VALUES (?, ?, ?, 'ok', ?, ?)",
              )
              .run(a.clientId, utility.id, body.username, correlationId, created).lastInsertRowid,
          );
          const { n } = db.prepare("SELECT count(*) AS n FROM utility_accounts").get() as { n: number };
          db.prepare(
            "INSERT INTO utility_accounts (client_id, building_id, utility_id, credential_id, number, arcadia_account_status, arcadia_account_status_detail, created_at) VALUES (?, ?, ?, ?, ?, 'CONNECTION_IN_PROGRESS', NULL, ?)",
          ).run(
            a.clientId,
            building?.id ?? null,
            utility.id,
            credentialId,
            newAccountNumber(utility, n + 1),
            created,
          );
        }
        db.prepare(
          "INSERT INTO utility_connections (correlation_id, client_id, credential_id, outcome, due_at, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        ).run(correlationId, a.clientId, credentialId, outcome, due, created);
        accounts.push(
          ...(
            db
              .prepare(`${ACCOUNT_SELECT} WHERE a.credential_id = ? ORDER BY a.id`)
              .all(credentialId) as AccountRow[]
          ).map(accountJson),
        );
      })();
      res.status(201).json({ correlation_id: correlationId, accounts });
    }),
  );

  return r;
}
