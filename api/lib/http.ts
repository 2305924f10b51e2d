import * as clock from "./clock";
import { parse as parseCookie } from "cookie";
import type { NextFunction, Request, Response, RequestHandler } from "express";
import { z } from "zod";
import type { DB } from "../db";
import { sha256 } from "./crypto";

export type ApiConfig = {
  /** Fixed delay added to every answer (benchmarks). */
  latencyMs: number;
  /** Running with the seeded demo data: enables GET /dev/outbox. */
  demoData: boolean;
  /** Origin of the web app, for links in emails. */
  webBaseUrl: string;
  staffEmailDomain: string;
  thermostatActionDelayMs: number;
  /** How long the simulated utility-data provider takes to settle a connection. */
  utilityProviderDelayMs: number;
  quiet: boolean;
  /** Where the api's clock starts (an ISO instant; it then advances in real time). Unset: the machine's clock. */
  clockStart?: string;
};

export type ApiDeps = { db: DB; config: ApiConfig; log: (msg: string, data?: Record<string, unknown>) => void };

type Param = { location: string; message: string };

/** An answer other than 2xx; the body is exactly what the contract says (`{message}` or a validation body). */
export class HttpError extends Error {
  constructor(
    public status: number,
    public body: unknown,
  ) {
    super(typeof body === "object" && body && "message" in body ? String(body.message) : `HTTP ${status}`);
  }
}

export const notFound = () => new HttpError(404, { message: "Object Not Found Matching Id" });
export const forbidden = () => new HttpError(403, { message: "Forbidden" });
export const badRequest = (message: string) => new HttpError(400, { message });

export function validationError(params: { body?: Param[]; path?: Param[]; query?: Param[] }) {
  return new HttpError(422, {
    message: "Validation error",
    body_params: params.body ?? [],
    path_params: params.path ?? [],
    query_params: params.query ?? [],
  });
}

/** Parses part of a request with Zod; a failure answers the contract's validation body naming each field. */
export function parse<S extends z.ZodTypeAny>(schema: S, data: unknown, where: "body" | "path" | "query" = "body"): z.infer<S> {
  const result = schema.safeParse(data ?? {});
  if (result.success) return result.data;
  const params = result.error.issues.map((i) => ({
    location: i.path.length ? i.path.join(".") : where,
    message: i.message,
  }));
  throw validationError({ [where]: params });
}

/** Wraps an async handler so a thrown error reaches the error middleware. */
export const route =
  (fn: (req: Request, res: Response) => unknown | Promise<unknown>): RequestHandler =>
  (req, res, next) => {
    Promise.resolve()
      .then(() => fn(req, res))
      .catch(next);
  };

export type UserRow = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  client_id: number | null;
  password_hash: string | null;
  is_client_admin: number;
  is_staff: number;
};
export type SessionRow = {
  id: string;
  user_id: number;
  impersonated_client_id: number | null;
  is_demo_mode: number;
};
export type Auth = {
  user: UserRow;
  session: SessionRow;
  /** The client whose data this session sees: the impersonated one for staff, otherwise the user's own. */
  clientId: number | null;
  isStaff: boolean;
  isAdmin: boolean;
};

export const SESSION_COOKIE = "api_session";
export const SESSION_DAYS = 7;

/**
 * The `api_session` value, parsed by the `cookie` package: a malformed value (bad percent-encoding, quotes)
 * is kept as it is, so it is just an unknown session (401), never an exception (it used to answer 500).
 */
export function readSessionCookie(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const value = parseCookie(header)[SESSION_COOKIE];
  return value ? value : undefined;
}

export function loadAuth(db: DB, token: string | undefined): Auth | null {
  if (!token) return null;
  const session = db
    .prepare("SELECT * FROM sessions WHERE id = ? AND revoked_at IS NULL AND expires_at > ?")
    .get(sha256(token), clock.now().toISOString()) as SessionRow | undefined;
  if (!session) return null;
  const user = db.prepare("SELECT * FROM users WHERE id = ?").get(session.user_id) as UserRow | undefined;
  if (!user) return null;
  const isStaff = user.is_staff === 1;
  return {
    user,
    session,
    clientId: isStaff ? session.impersonated_client_id : user.client_id,
    isStaff,
    isAdmin: user.is_client_admin === 1,
  };
}

/** Middleware: 401 unless the request carries a live upstream session. */
export const requireAuth =
  (deps: ApiDeps): RequestHandler =>
  (req, res, next) => {
    const auth = loadAuth(deps.db, readSessionCookie(req));
    if (!auth) {
      res.status(401).json({ message: "Not authenticated" });
      return;
    }
    res.locals.auth = auth;
    next();
  };

export const getAuth = (res: Response) => res.locals.auth as Auth;

export function requireStaffAuth(auth: Auth) {
  if (!auth.isStaff) throw forbidden();
}

/** The client id in a path must be the session's (effective) client; anything else is 404, never data. */
export function requireOwnClient(auth: Auth, clientId: number | string) {
  if (auth.clientId === null || Number(clientId) !== auth.clientId) throw notFound();
  return auth.clientId;
}

export type BuildingRow = {
  id: number;
  client_id: number;
  name: string;
  nickname: string | null;
  code: string;
  address_line1: string;
  address_line2: string | null;
  city: string;
  state: string;
  zipcode: string;
  timezone: string;
};

/** SQL condition (with two `?` for user id and client id) for the buildings a session may see. */
export const VISIBLE_BUILDINGS_SQL =
  "b.client_id = ? AND (? = 1 OR EXISTS (SELECT 1 FROM user_building_access a WHERE a.building_id = b.id AND a.user_id = ? AND a.has_access = 1))";

export function visibleBuildingParams(auth: Auth) {
  return [auth.clientId ?? -1, auth.isStaff || auth.isAdmin ? 1 : 0, auth.user.id];
}

/** A building the session may see, or 404. */
export function requireBuilding(db: DB, auth: Auth, buildingId: number | string): BuildingRow {
  const id = Number(buildingId);
  if (!Number.isSafeInteger(id)) throw notFound();
  const row = db
    .prepare(`SELECT b.* FROM buildings b WHERE b.id = ? AND ${VISIBLE_BUILDINGS_SQL}`)
    .get(id, ...visibleBuildingParams(auth)) as BuildingRow | undefined;
  if (!row) throw notFound();
  return row;
}

export function listVisibleBuildings(db: DB, auth: Auth): BuildingRow[] {
  return db
    .prepare(`SELECT b.* FROM buildings b WHERE ${VISIBLE_BUILDINGS_SQL} ORDER BY b.id`)
    .all(...visibleBuildingParams(auth)) as BuildingRow[];
}

export function buildingJson(b: BuildingRow) {
  return {
    id: b.id,
    name: b.name,
    nickname: b.nickname,
    code: b.code,
    address: {
      address_line1: b.address_line1,
      address_line2: b.address_line2,
      city: b.city,
      state: b.state,
      zipcode: b.zipcode,
    },
    timezone: b.timezone,
  };
}

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  size: z.coerce.number().int().min(1).max(200).default(75),
});

export function paged<T>(items: T[], page: number, size: number) {
  return { items: items.slice((page - 1) * size, page * size), total: items.length, page, size };
}

export function errorMiddleware(deps: ApiDeps) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof HttpError) {
      res.status(err.status).json(err.body);
      return;
    }
    if (err && typeof err === "object" && "type" in err && err.type === "entity.parse.failed") {
      res.status(400).json({ message: "Malformed JSON body" });
      return;
    }
    deps.log("api error", { err: err instanceof Error ? err.message : String(err) });
    res.status(500).json({ message: "Internal Server Error" });
  };
}
