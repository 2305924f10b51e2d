import type { DB } from "../db";
import type { Request, RequestHandler, Response } from "express";
import { type Auth, getAuth } from "./auth";
import { notFound, route, type SyncAnswer } from "./http";
import { pathId } from "./ids";

/** The buildings a session may see: the client's, narrowed by per-user access unless staff or admin. */

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

/** The building's address on one line, as a bill and an email write it. */
export const buildingAddress = (b: BuildingRow) =>
  [b.address_line1, b.address_line2, `${b.city}, ${b.state} ${b.zipcode}`].filter(Boolean).join(", ");

/** SQL condition (with two `?` for user id and client id) for the buildings a session may see. */
export const VISIBLE_BUILDINGS_SQL =
  "b.client_id = ? AND (? = 1 OR EXISTS (SELECT 1 FROM user_building_access a WHERE a.building_id = b.id AND a.user_id = ? AND a.has_access = 1))";

export function visibleBuildingParams(auth: Auth) {
  return [auth.clientId ?? -1, auth.isStaff || auth.isAdmin ? 1 : 0, auth.user.id];
}

/** A building the session may see, or 404. */
export function requireBuilding(db: DB, auth: Auth, buildingId: number | string): BuildingRow {
  const id = pathId(buildingId);
  const row = db
    .prepare(`SELECT b.* FROM buildings b WHERE b.id = ? AND ${VISIBLE_BUILDINGS_SQL}`)
    .get(id, ...visibleBuildingParams(auth)) as BuildingRow | undefined;
  if (!row) throw notFound();
  return row;
}

/** A handler for a path with `:buildingId`: it runs only for a building the session may see (else 404). */
export const buildingRoute = (
  db: DB,
  fn: (building: BuildingRow, req: Request, res: Response) => SyncAnswer,
): RequestHandler =>
  route((req, res) => fn(requireBuilding(db, getAuth(res), String(req.params.buildingId)), req, res));

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

/**
 * Whether a person (not a session) may see a building now: a non-staff member of the building's client, and
 * its admin or given access to it. Tokens in emails act for a person without a session: they re-check this
 * at every use (rule email-token-access, docs/rules.md), so a person removed from a location or a client can
 * no longer see or act on it through an old link.
 */
export function userMaySeeBuilding(db: DB, userId: number, buildingId: number): boolean {
  return Boolean(
    db
      .prepare(
        `SELECT 1 FROM users u JOIN buildings b ON b.client_id = u.client_id
         WHERE u.id = ? AND b.id = ? AND u.is_staff = 0
           AND (u.is_client_admin = 1 OR EXISTS (SELECT 1 FROM user_building_access a
                WHERE a.building_id = b.id AND a.user_id = u.id AND a.has_access = 1))`,
      )
      .get(userId, buildingId),
  );
}
