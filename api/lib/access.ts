import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { DB } from "../db";
import { type Auth, loadAuth, readSessionCookie } from "./auth";
import { requireBuilding, VISIBLE_BUILDINGS_SQL, visibleBuildingParams } from "./buildings";
import { type ApiDeps, forbidden, notFound } from "./http";
import { pathId } from "./ids";

/**
 * Who may read and who may change each kind of object (rule object-access, docs/rules.md). Every api route that
 * takes an id names it in ACCESS_ROUTES below, and `accessGuard` resolves each such id through its kind's rule
 * before the route runs: 404 for what the person may not see, 403 for what they may see but not change. The
 * routes then load their rows through the same functions. Nothing else decides.
 *
 * The roles: a client admin sees and changes everything of their client; staff impersonating a client act as
 * its admin (and alone may close an investigation); a user limited to some locations sees and changes what is
 * at those locations; another client's user, and anyone without a session on that client, sees nothing (404).
 */

export type Intent = "read" | "change";
export const KINDS = [
  "client",
  "location",
  "account",
  "credential",
  "bill",
  "flag",
  "investigation",
  "thermostat",
  "team",
  "person",
  "self",
  "onboarding_step",
] as const;
export type Kind = (typeof KINDS)[number];

/** Sees every location of the client: its admins, and staff impersonating it. */
export const seesAllLocations = (auth: Auth) => auth.isAdmin || auth.isStaff;

/** The session's client, or 404 (staff not impersonating see no client's objects). */
function ownClientId(auth: Auth): number {
  if (auth.clientId === null) throw notFound();
  return auth.clientId;
}

/** A client: only the session's own (effective) client, read and change alike. */
export function requireClient(auth: Auth, id: number | string): number {
  const clientId = ownClientId(auth);
  if (pathId(id) !== clientId) throw notFound();
  return clientId;
}

export type AccountAccessRow = { id: number; client_id: number; building_id: number | null };

/**
 * A utility account: at a location the session may see; one not yet assigned to a location belongs to the
 * client's admins (and staff) alone. Read and change alike.
 */
export function requireAccount(db: DB, auth: Auth, id: number | string): AccountAccessRow {
  const row = db
    .prepare("SELECT id, client_id, building_id FROM utility_accounts WHERE id = ? AND client_id = ?")
    .get(pathId(id), ownClientId(auth)) as AccountAccessRow | undefined;
  if (!row) throw notFound();
  if (row.building_id === null) {
    if (!seesAllLocations(auth)) throw notFound();
  } else requireBuilding(db, auth, row.building_id);
  return row;
}

export type CredentialAccessRow = {
  id: number;
  client_id: number;
  utility_id: number;
  arcadia_credential_id: string | null;
};

/**
 * A utility login (credential) belongs to the locations of its accounts: an admin or staff, or a user who sees
 * the location of one of its accounts, reads it and changes it (reconnect, MFA refresh, replace the login); an
 * account not yet assigned to a location counts for admins and staff alone. Read and change alike.
 */
export function requireCredential(db: DB, auth: Auth, id: number | string): CredentialAccessRow {
  const row = db
    .prepare(
      `SELECT c.id, c.client_id, c.utility_id, c.arcadia_credential_id FROM utility_credentials c
       WHERE c.id = ? AND c.client_id = ? AND ${VISIBLE_CREDENTIALS_SQL}`,
    )
    .get(pathId(id), ownClientId(auth), ...visibleCredentialParams(auth)) as CredentialAccessRow | undefined;
  if (!row) throw notFound();
  return row;
}

/** SQL condition (credential alias `c`, parameters `visibleCredentialParams`) for the credentials a session sees. */
export const VISIBLE_CREDENTIALS_SQL = `(? = 1 OR EXISTS (SELECT 1 FROM utility_accounts ua JOIN buildings b ON b.id = ua.building_id
  WHERE ua.credential_id = c.id AND ${VISIBLE_BUILDINGS_SQL}))`;
export const visibleCredentialParams = (auth: Auth) => [
  seesAllLocations(auth) ? 1 : 0,
  ...visibleBuildingParams(auth),
];

export type BillAccessRow = { id: number; building_id: number };

/** A bill statement: at a location the session may see. Read and change (answer its flags) alike. */
export function requireBillAccess(db: DB, auth: Auth, id: number | string): BillAccessRow {
  const row = db.prepare("SELECT id, building_id FROM bill_statements WHERE id = ?").get(pathId(id)) as
    BillAccessRow | undefined;
  if (!row) throw notFound();
  requireBuilding(db, auth, row.building_id);
  return row;
}

/**
 * A bill flag: its bill's location decides (anyone who sees the bill may answer it). An investigation (a flag's
 * outcome) is read by the same people and changed (closed) by staff alone: 403 for a client's own users.
 */
export function requireFlag(
  db: DB,
  auth: Auth,
  id: number | string,
  kind: "flag" | "investigation",
  intent: Intent,
) {
  const row = db.prepare("SELECT id, bill_statement_id FROM bill_flags WHERE id = ?").get(pathId(id)) as
    { id: number; bill_statement_id: number } | undefined;
  if (!row) throw notFound();
  requireBillAccess(db, auth, row.bill_statement_id);
  if (kind === "investigation" && intent === "change" && !auth.isStaff) throw forbidden();
  return row;
}

/** A thermostat: at a location the session may see. Read and change alike. */
export function requireThermostatAccess(db: DB, auth: Auth, id: number | string) {
  const row = db
    .prepare(
      `SELECT t.id, t.building_id FROM thermostats t JOIN buildings b ON b.id = t.building_id WHERE t.id = ? AND ${VISIBLE_BUILDINGS_SQL}`,
    )
    .get(pathId(id), ...visibleBuildingParams(auth)) as { id: number; building_id: number } | undefined;
  if (!row) throw notFound();
  return row;
}

/** Manages the client's team (its people and their locations): its admins, and staff impersonating it. */
const managesTeam = (auth: Auth) => auth.isAdmin || (auth.isStaff && auth.clientId !== null);

/** The client's team (GET /users/:clientId): the own client (else 404), then its managers alone (else 403). */
export function requireTeam(auth: Auth, clientId: number | string) {
  const id = requireClient(auth, clientId);
  if (!managesTeam(auth)) throw forbidden();
  return id;
}

/** A person of the session's client (not staff): 404 otherwise. Changing their access: managers alone (403). */
export function requirePerson(db: DB, auth: Auth, id: number | string, intent: Intent) {
  const row = db
    .prepare("SELECT id FROM users WHERE id = ? AND client_id = ? AND is_staff = 0")
    .get(pathId(id), ownClientId(auth)) as { id: number } | undefined;
  if (!row) throw notFound();
  if (intent === "change" && !managesTeam(auth)) throw forbidden();
  return row;
}

/** The person signed in, and nobody else (their own preferences): any other id is 404. */
export function requireSelf(auth: Auth, id: number | string) {
  if (pathId(id) !== auth.user.id) throw notFound();
  return auth.user.id;
}

/** An onboarding step: one of the session's own client's. */
export function requireOnboardingStep(db: DB, auth: Auth, id: number | string) {
  const row = db
    .prepare("SELECT id FROM onboarding_steps WHERE id = ? AND client_id = ?")
    .get(pathId(id), ownClientId(auth)) as { id: number } | undefined;
  if (!row) throw notFound();
  return row;
}

/** Resolves one id of a kind for an intent: returns when allowed, throws the 404 or 403 otherwise. */
export function resolveId(db: DB, auth: Auth, kind: Kind, id: number | string, intent: Intent): void {
  switch (kind) {
    case "client":
      requireClient(auth, id);
      return;
    case "location":
      requireBuilding(db, auth, id);
      return;
    case "account":
      requireAccount(db, auth, id);
      return;
    case "credential":
      requireCredential(db, auth, id);
      return;
    case "bill":
      requireBillAccess(db, auth, id);
      return;
    case "flag":
    case "investigation":
      requireFlag(db, auth, id, kind, intent);
      return;
    case "thermostat":
      requireThermostatAccess(db, auth, id);
      return;
    case "team":
      requireTeam(auth, id);
      return;
    case "person":
      requirePerson(db, auth, id, intent);
      return;
    case "self":
      requireSelf(auth, id);
      return;
    case "onboarding_step":
      requireOnboardingStep(db, auth, id);
      return;
  }
}

/** Where an id comes from: a path parameter, or a field of the JSON body or the query. */
export type IdSource = `path.${string}` | `body.${string}` | `query.${string}`;
export type RouteAccess = {
  /** Each id the route takes and its kind. */
  ids: Partial<Record<IdSource, Kind>>;
  /** What the route does with them: a GET reads, anything else changes. */
  intent: Intent;
  /** A route for staff alone (impersonating a client or not): anyone else gets 404, as for what they may not see. */
  staffOnly?: true;
};

/**
 * Every api route that takes an id, and every route for staff alone (`staffOnly`), as `METHOD path` (the path
 * as the route declares it, under /api). A route
 * with an id-like path parameter that is missing here fails the access matrix (tests/security/access-matrix).
 * Routes that take an id but are not a session's (a token's or a prospect's, or test hooks) are in
 * NOT_SESSION_IDS, with the reason.
 */
export const ACCESS_ROUTES: Record<string, RouteAccess> = {
  // Clients
  "GET /bill-monitoring-providers/:clientId": { ids: { "path.clientId": "client" }, intent: "read" },
  "GET /:clientId/credentials_requiring_action": { ids: { "path.clientId": "client" }, intent: "read" },
  "GET /client/:clientId/findings": { ids: { "path.clientId": "client" }, intent: "read" },
  "GET /client/:clientId/energy-advisor-buildings": { ids: { "path.clientId": "client" }, intent: "read" },
  "GET /client/:clientId/bill-statements/export-csv": { ids: { "path.clientId": "client" }, intent: "read" },
  "GET /insights/:clientId/dispatches": { ids: { "path.clientId": "client" }, intent: "read" },
  "GET /insights/:clientId/dispatches-summary": { ids: { "path.clientId": "client" }, intent: "read" },
  "GET /override-report/:clientId/:startDate/:endDate": {
    ids: { "path.clientId": "client" },
    intent: "read",
  },
  "GET /override-report/worst-performing-days/:clientId/:thermostatId/:startDate/:endDate": {
    ids: { "path.clientId": "client", "path.thermostatId": "thermostat" },
    intent: "read",
  },
  "GET /onboarding-steps/:clientId": { ids: { "path.clientId": "client" }, intent: "read" },
  "PATCH /onboarding-steps/:clientId/:stepId": {
    ids: { "path.clientId": "client", "path.stepId": "onboarding_step" },
    intent: "change",
  },
  "PUT /update_arcadia_vitally_task": { ids: { "body.client_id": "client" }, intent: "change" },
  // Locations and what hangs on them
  "GET /building/:buildingId/accounts": { ids: { "path.buildingId": "location" }, intent: "read" },
  "GET /building/:buildingId/bill-statements": {
    ids: { "path.buildingId": "location", "query.account_id": "account" },
    intent: "read",
  },
  "GET /building/:buildingId/thermostats": { ids: { "path.buildingId": "location" }, intent: "read" },
  "GET /insights/:buildingId/available-usage": { ids: { "path.buildingId": "location" }, intent: "read" },
  // The event's own id follows its location: the route answers 404 for an event not at that location.
  "POST /building/:buildingId/dispatches/:dispatchId/opt-out": {
    ids: { "path.buildingId": "location" },
    intent: "change",
  },
  "GET /insights/:buildingId/energy-consumption": { ids: { "path.buildingId": "location" }, intent: "read" },
  "GET /insights/:buildingId/energy-demand": { ids: { "path.buildingId": "location" }, intent: "read" },
  // Bills, flags and investigations
  "PATCH /bill-statement/:statementId/bill-flag/:flagId": {
    ids: { "path.statementId": "bill", "path.flagId": "flag" },
    intent: "change",
  },
  "POST /bill-statement/:statementId/bill-flag/:flagId/outcome": {
    ids: { "path.statementId": "bill", "path.flagId": "investigation" },
    intent: "change",
  },
  "GET /bill-statement/:statementId/download": { ids: { "path.statementId": "bill" }, intent: "read" },
  // The staff's queue of open investigations across clients (rule investigation-queue): no id, staff alone.
  "GET /investigations": { ids: {}, intent: "read", staffOnly: true },
  // Thermostats
  "GET /thermostats/:thermostatId": { ids: { "path.thermostatId": "thermostat" }, intent: "read" },
  "PATCH /thermostats/dismiss-audit-issue/:thermostatId/:issueSlug": {
    ids: { "path.thermostatId": "thermostat" },
    intent: "change",
  },
  "POST /thermostats/:thermostatId/settings": {
    ids: { "path.thermostatId": "thermostat" },
    intent: "change",
  },
  "GET /thermostats/:thermostatId/thermostat-actions/:actionId": {
    ids: { "path.thermostatId": "thermostat" },
    intent: "read",
  },
  "POST /thermostats/:thermostatId/audit-issues/:issueId/resolve": {
    ids: { "path.thermostatId": "thermostat" },
    intent: "change",
  },
  "PATCH /thermostats/:thermostatId/audit-issues/:issueId/dismiss": {
    ids: { "path.thermostatId": "thermostat" },
    intent: "change",
  },
  "GET /thermostat/:thermostatId/history/:startDate/:endDate": {
    ids: { "path.thermostatId": "thermostat" },
    intent: "read",
  },
  // Utility accounts and logins
  "POST /utility-connections": {
    ids: { "body.credential_id": "credential", "body.building_id": "location" },
    intent: "change",
  },
  "POST /arcadia/connect-token": {
    ids: { "body.credential_id": "credential", "body.building_id": "location" },
    intent: "change",
  },
  "POST /arcadia/connect-url": {
    ids: { "body.credential_id": "credential", "body.building_id": "location" },
    intent: "change",
  },
  "POST /arcadia/credentials": { ids: { "body.building_id": "location" }, intent: "change" },
  "PUT /accounts/:accountId/building": {
    ids: { "path.accountId": "account", "body.building_id": "location" },
    intent: "change",
  },
  // The team and the person's own settings
  "GET /users/:clientId": { ids: { "path.clientId": "team" }, intent: "read" },
  "PUT /user_building_access": {
    ids: { "body.user_id": "person", "body.building_id": "location" },
    intent: "change",
  },
  "PUT /communication-preferences": { ids: { "body.user_id": "self" }, intent: "change" },
};

/** Routes with an id-like path parameter that no session's rule governs, and why. */
export const NOT_SESSION_IDS: Record<string, string> = {
  "PUT /prospect-analysis/:id":
    "a prospect's own analysis, before any account exists: found by id and the email it was made with",
  "POST /prospect-analysis/:id/connect-token":
    "a prospect's Connect session: found by id, the email and the correlation id only its flow holds",
  "POST /prospect-analysis/:id/connect-url":
    "a prospect's Connect session: found by id, the email and the correlation id only its flow holds",
  "POST /prospect-analysis/:id/credentials":
    "a prospect's Connect session: found by id, the email and the correlation id only its flow holds",
  "GET /dev/outbox/:id": "test hooks only (ENABLE_TEST_HOOKS or API_DEV_OUTBOX): the demo's outbox",
};

/** Whether a path parameter names an object (`id`, `…Id`): those need a rule. */
export const isIdParam = (name: string) => name === "id" || /Id$/.test(name);

type Compiled = {
  key: string;
  method: string;
  pattern: RegExp;
  names: string[];
  literal: number;
  rule: RouteAccess;
};

function compile(table: Record<string, RouteAccess>): Compiled[] {
  return Object.entries(table).map(([key, rule]) => {
    const [method, path] = key.split(" ");
    const names: string[] = [];
    const segments = path.split("/").filter(Boolean);
    const source = segments
      .map((s) => {
        if (s.startsWith(":")) {
          names.push(s.slice(1));
          return "/([^/]+)";
        }
        return `/${s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
      })
      .join("");
    return {
      key,
      method,
      pattern: new RegExp(`^${source}/?$`),
      names,
      literal: segments.filter((s) => !s.startsWith(":")).length,
      rule,
    };
  });
}

/** The table entry a request falls under (the most specific one), or null. */
export function matchAccessRoute(
  compiled: Compiled[],
  method: string,
  path: string,
): { entry: Compiled; params: Record<string, string> } | null {
  let best: { entry: Compiled; params: Record<string, string> } | null = null;
  for (const entry of compiled) {
    if (entry.method !== method) continue;
    const m = entry.pattern.exec(path);
    if (!m) continue;
    if (best && best.entry.literal >= entry.literal) continue;
    let params: Record<string, string>;
    try {
      params = Object.fromEntries(entry.names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
    } catch {
      throw notFound();
    }
    best = { entry, params };
  }
  return best;
}

/** The value of one id of a request, or undefined when it is absent (an optional id the route may go without). */
function idValue(req: Request, params: Record<string, string>, source: IdSource): unknown {
  const [from, name] = source.split(/\.(.*)/s, 2) as ["path" | "body" | "query", string];
  if (from === "path") return params[name];
  const bag = (from === "body" ? req.body : req.query) as Record<string, unknown> | undefined;
  return bag && typeof bag === "object" ? bag[name] : undefined;
}

/**
 * Middleware in front of every api route: a request under ACCESS_ROUTES has each of its ids resolved by its
 * kind's rule before the route runs (404 / 403, nothing changed); a staff-only route answers 404 to anyone else. Without a session it passes: the route's own
 * session check answers 401. An id of the wrong shape (a string where the body wants a number) is the route's
 * validation to answer; a number, or a path segment, is always resolved.
 */
export function accessGuard(
  deps: ApiDeps,
  table: Record<string, RouteAccess> = ACCESS_ROUTES,
): RequestHandler {
  const compiled = compile(table);
  return (req: Request, res: Response, next: NextFunction) => {
    try {
      const found = matchAccessRoute(compiled, req.method, req.path);
      if (!found) return next();
      const auth = (res.locals.auth as Auth | undefined) ?? loadAuth(deps.db, readSessionCookie(req));
      if (!auth) return next();
      res.locals.auth = auth;
      if (found.entry.rule.staffOnly && !auth.isStaff) throw notFound();
      for (const [source, kind] of Object.entries(found.entry.rule.ids) as [IdSource, Kind][]) {
        const value = idValue(req, found.params, source);
        if (value === undefined || value === null) continue;
        if (
          !source.startsWith("path.") &&
          typeof value !== "number" &&
          !(typeof value === "string" && /^\d+$/.test(value))
        )
          continue;
        resolveId(deps.db, auth, kind, value as number | string, found.entry.rule.intent);
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}
