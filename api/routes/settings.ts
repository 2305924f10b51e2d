import { z } from "zod";
import { type Auth, getAuth, sessionRouter, requireOwnClient } from "../lib/auth";
import { type ApiDeps, forbidden, notFound, parse, route } from "../lib/http";
import { userMaySeeBuilding } from "../lib/buildings";
import { revokeAnswerTokens } from "../mail/tokens";

export const EDITABLE_PREFERENCES = [
  "bill_flag",
  "weekly_rundown",
  "monthly_recap",
  "customer_comfort",
  // The thermostat issue alerts: their emails offer to unsubscribe, so My Preferences offers the switch back.
  "device_issue",
  // The notice the day before a grid event, with its opt-out links (rule grid-notice-day).
  "grid_event",
] as const;

const accessBody = z.object({
  user_id: z.number().int().positive(),
  building_id: z.number().int().positive(),
  has_access: z.boolean(),
});
const prefBody = z.object({
  user_id: z.number().int().positive(),
  delivery_method_preference: z.enum(["email", "sms"]),
  enabled: z.boolean(),
  communication_preference_type: z.enum(EDITABLE_PREFERENCES),
});

/** Client admins, and staff while impersonating, manage the team. */
function requireTeamManager(a: Auth) {
  if (!(a.isAdmin || (a.isStaff && a.clientId !== null))) throw forbidden();
}

/** Team members, their location access, and the user's own communication preferences. */
export function settingsRoutes(deps: ApiDeps) {
  const { r, db, auth } = sessionRouter(deps);

  r.get(
    "/users/:clientId",
    auth,
    route((req, res) => {
      const a = getAuth(res);
      const clientId = requireOwnClient(a, req.params.clientId);
      requireTeamManager(a);
      const users = db
        .prepare(
          "SELECT id, email, first_name, last_name, is_client_admin FROM users WHERE client_id = ? AND is_staff = 0 ORDER BY last_name, first_name, id",
        )
        .all(clientId) as {
        id: number;
        email: string;
        first_name: string;
        last_name: string;
        is_client_admin: number;
      }[];
      const access = db.prepare(
        `SELECT b.id AS building_id, b.name AS building_name, COALESCE(x.has_access, 0) AS has_access
           FROM buildings b LEFT JOIN user_building_access x ON x.building_id = b.id AND x.user_id = ?
           WHERE b.client_id = ? ORDER BY b.name`,
      );
      res.json({
        items: users.map((u) => ({
          id: u.id,
          email: u.email,
          first_name: u.first_name,
          last_name: u.last_name,
          is_client_admin: u.is_client_admin === 1,
          user_buildings_with_name: (
            access.all(u.id, clientId) as { building_id: number; building_name: string; has_access: number }[]
          ).map((b) => ({
            user_id: u.id,
            building_id: b.building_id,
            has_access: b.has_access === 1,
            building_name: b.building_name,
          })),
        })),
      });
    }),
  );

  r.put(
    "/user_building_access",
    auth,
    route((req, res) => {
      const a = getAuth(res);
      if (a.clientId === null) throw notFound();
      requireTeamManager(a);
      const body = parse(accessBody, req.body);
      const user = db
        .prepare("SELECT id FROM users WHERE id = ? AND client_id = ? AND is_staff = 0")
        .get(body.user_id, a.clientId);
      const building = db
        .prepare("SELECT id FROM buildings WHERE id = ? AND client_id = ?")
        .get(body.building_id, a.clientId);
      if (!user || !building) throw notFound();
      db.transaction(() => {
        db.prepare(
          "INSERT INTO user_building_access (user_id, building_id, has_access) VALUES (?, ?, ?) ON CONFLICT (user_id, building_id) DO UPDATE SET has_access = excluded.has_access",
        ).run(body.user_id, body.building_id, body.has_access ? 1 : 0);
        // Removing access ends that person's email answer links for the location (rule email-token-access).
        if (!userMaySeeBuilding(db, body.user_id, body.building_id))
          revokeAnswerTokens(db, body.user_id, body.building_id);
      })();
      res.status(204).end();
    }),
  );

  r.get(
    "/communication-preferences",
    auth,
    route((_req, res) => {
      const a = getAuth(res);
      const rows = db
        .prepare(
          "SELECT user_id, communication_preference_type, delivery_method_preference, enabled FROM communication_preferences WHERE user_id = ? ORDER BY communication_preference_type, delivery_method_preference",
        )
        .all(a.user.id) as {
        user_id: number;
        communication_preference_type: string;
        delivery_method_preference: string;
        enabled: number;
      }[];
      res.json({ items: rows.map((p) => ({ ...p, enabled: p.enabled === 1 })) });
    }),
  );

  r.put(
    "/communication-preferences",
    auth,
    route((req, res) => {
      const a = getAuth(res);
      const body = parse(prefBody, req.body);
      if (body.user_id !== a.user.id) throw notFound();
      db.prepare(
        `INSERT INTO communication_preferences (user_id, communication_preference_type, delivery_method_preference, enabled) VALUES (?, ?, ?, ?)
         ON CONFLICT (user_id, communication_preference_type, delivery_method_preference) DO UPDATE SET enabled = excluded.enabled`,
      ).run(
        a.user.id,
        body.communication_preference_type,
        body.delivery_method_preference,
        body.enabled ? 1 : 0,
      );
      res.json(body);
    }),
  );

  return r;
}
