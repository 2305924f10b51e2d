import { Router } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, call, loginCookie } from "../integration/api-harness";
import type { RunningApi } from "../../api/server";
import type { ApiDeps } from "../../api/lib/http";
import { routers } from "../../api/routes";
import { ACCESS_ROUTES, NOT_SESSION_IDS, isIdParam, type Kind } from "../../api/lib/access";
import { CLIENT, MAPLE_BUILDING, USER } from "../../api/db/seed/ids";
import { SAM_BUILDINGS } from "../../api/db/seed/core";
import { TEAM_USERS } from "../../api/db/seed/accounts";
import { TEST_CLOCK_START } from "../support/clock";

/**
 * The authorization matrix (rule object-access): generated from the api's own route table, every route
 * that takes an id × every role × the owners of each id, answered as the rule says: 404 for what the person may not
 * see, 403 for what they may see but not change, anything else when allowed; nothing in the database changes
 * when refused. A route whose path takes an id and has no rule fails here, and so does a rule for no route.
 */

type Route = { method: string; path: string };

/** Every route of the api's routers, as declared (`METHOD /path`, under /api). */
function declaredRoutes(deps: ApiDeps, extra: Router[] = []): Route[] {
  const out: Route[] = [];
  for (const router of [...routers.map((make) => make(deps)), ...extra]) {
    for (const layer of router.stack as {
      route?: { path: string | string[]; methods: Record<string, boolean> };
    }[]) {
      if (!layer.route) continue;
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths)
        for (const [m, on] of Object.entries(layer.route.methods))
          if (on && m !== "_all") out.push({ method: m.toUpperCase(), path });
    }
  }
  return out;
}

/** The declared routes with an id in their path that neither table names. */
function routesWithoutRule(routes: Route[]) {
  return routes
    .filter((r) => r.path.split("/").some((s) => s.startsWith(":") && isIdParam(s.slice(1))))
    .map((r) => `${r.method} ${r.path}`)
    .filter((key) => !(key in ACCESS_ROUTES) && !(key in NOT_SESSION_IDS));
}

// ---- the people -------------------------------------------------------------------------------------------

type Role = "admin" | "limited" | "staff" | "otherClient" | "revoked";
const ROLES: Role[] = ["admin", "limited", "staff", "otherClient", "revoked"];
/** Who owns an object: Harbor at one of Sam's locations, Harbor elsewhere, Maple Dental; `self`/`other` people. */
type Owner = "sam" | "harbor" | "maple" | "self" | "other";

const LOCATION_KINDS = new Set<Kind>([
  "location",
  "account",
  "credential",
  "bill",
  "flag",
  "investigation",
  "thermostat",
]);

/** Whether a role sees an object of a kind that an owner holds. */
function sees(role: Role, kind: Kind, owner: Owner): boolean {
  if (kind === "self") return owner === "self";
  if (owner === "maple") return role === "otherClient";
  if (role === "otherClient") return false;
  if (role === "admin" || role === "staff") return true;
  // A limited user, and one whose access to every location was revoked: the client's own, by location.
  if (!LOCATION_KINDS.has(kind)) return true;
  return role === "limited" && owner === "sam";
}
/** Whether a role may do the intent on an object it sees. */
function may(role: Role, kind: Kind, intent: "read" | "change"): boolean {
  const manager = role === "admin" || role === "staff";
  if (kind === "team") return manager;
  if (kind === "person") return intent === "read" || manager;
  if (kind === "investigation") return intent === "read" || role === "staff";
  return true;
}

let api: RunningApi;
const cookies = {} as Record<Role, string>;
const userOf: Record<Role, number> = {
  admin: USER.dana,
  limited: USER.sam,
  staff: USER.morgan,
  otherClient: USER.alex,
  revoked: TEAM_USERS.tomas.id,
};
/** The objects each id points at, per owner. */
let targets: Record<string, Partial<Record<Owner, number>>>;
const counts = { requests: 0, refused: 0, allowed: 0 };

beforeAll(async () => {
  // Slow simulators: nothing an allowed request starts completes while the matrix runs, so the only writes are
  // the requests' own.
  api = await startTestApi({ thermostatActionDelayMs: 3_600_000, utilityProviderDelayMs: 3_600_000 });
  const db = api.db;
  // The test's people: Sam and Tomás get Dana's password; Tomás's access to every location is revoked.
  const hash = (
    db.prepare("SELECT password_hash AS h FROM users WHERE id = ?").get(USER.dana) as { h: string }
  ).h;
  db.prepare("UPDATE users SET password_hash = ? WHERE id IN (?, ?)").run(
    hash,
    USER.sam,
    TEAM_USERS.tomas.id,
  );
  db.prepare("UPDATE user_building_access SET has_access = 0 WHERE user_id = ?").run(TEAM_USERS.tomas.id);
  cookies.admin = await loginCookie(api, "dana@harborcoffee.test");
  cookies.limited = await loginCookie(api, "sam@harborcoffee.test");
  cookies.otherClient = await loginCookie(api, "alex@mapledental.test");
  cookies.revoked = await loginCookie(api, TEAM_USERS.tomas.email);
  const morgan = await loginCookie(api, "morgan@energyops.test");
  const imp = await call(api, "POST", "/impersonation", {
    cookie: morgan,
    body: { client_id: CLIENT.harbor, reason: "access matrix" },
  });
  expect(imp.status).toBe(200);
  cookies.staff = imp.res.headers.get("set-cookie")!.split(";")[0];

  const one = <T>(sql: string, ...args: unknown[]) => db.prepare(sql).get(...args) as T;
  const OTHER_HARBOR = 112; // Back Bay: not one of Sam's
  expect(SAM_BUILDINGS).toContain(101);
  expect(SAM_BUILDINGS).not.toContain(OTHER_HARBOR);
  const billAt = (b: number) =>
    one<{ id: number }>("SELECT id FROM bill_statements WHERE building_id = ? ORDER BY id LIMIT 1", b).id;
  const flagAt = (b: number) =>
    one<{ id: number; bill: number }>(
      "SELECT f.id, f.bill_statement_id AS bill FROM bill_flags f JOIN bill_statements s ON s.id = f.bill_statement_id WHERE s.building_id IN (SELECT value FROM json_each(?)) ORDER BY f.id LIMIT 1",
      JSON.stringify(b === 101 ? SAM_BUILDINGS : [b, 108, 111, 113, 114, 103, 105, 107, 110]),
    );
  const thermostatAt = (b: number) =>
    one<{ id: number }>("SELECT id FROM thermostats WHERE building_id = ? ORDER BY id LIMIT 1", b).id;
  const samFlag = flagAt(101);
  const harborFlag = flagAt(OTHER_HARBOR);
  const samThermostat = thermostatAt(101);
  const harborThermostat = thermostatAt(OTHER_HARBOR);
  // The test's own action and issue on each thermostat, so an allowed read finds them.
  const now = new Date().toISOString();
  const action = (t: number) =>
    Number(
      db
        .prepare(
          "INSERT INTO thermostat_actions (thermostat_id, status, device_specific_data_json, created_at, completes_at) VALUES (?, 'success', '{}', ?, ?)",
        )
        .run(t, now, now).lastInsertRowid,
    );
  const issue = (t: number, b: number) =>
    Number(
      db
        .prepare(
          "INSERT INTO thermostat_issues (thermostat_id, building_id, issue_slug, issue_category, current_status, is_dismissed, created_at, updated_at) VALUES (?, ?, 'nodata', 'device', 'active', 0, ?, ?)",
        )
        .run(t, b, now, now).lastInsertRowid,
    );
  // The test's own pending event at each location, starting in a day, so an allowed opt-out is taken.
  const dispatch = (b: number) =>
    Number(
      db
        .prepare(
          "INSERT INTO dispatches (client_id, building_id, status, event_type, start_time, end_time) SELECT client_id, id, 'PENDING', 'demand_response', ?, ? FROM buildings WHERE id = ?",
        )
        .run(
          new Date(Date.parse(TEST_CLOCK_START) + 86_400_000).toISOString(),
          new Date(Date.parse(TEST_CLOCK_START) + 90_000_000).toISOString(),
          b,
        ).lastInsertRowid,
    );
  const step = (c: number) =>
    one<{ id: number }>("SELECT id FROM onboarding_steps WHERE client_id = ? ORDER BY id LIMIT 1", c)?.id;
  targets = {
    client: { sam: CLIENT.harbor, harbor: CLIENT.harbor, maple: CLIENT.maple },
    team: { sam: CLIENT.harbor, maple: CLIENT.maple },
    location: { sam: 101, harbor: OTHER_HARBOR, maple: MAPLE_BUILDING },
    account: {
      sam: one<{ id: number }>("SELECT id FROM utility_accounts WHERE building_id = 101 ORDER BY id LIMIT 1")
        .id,
      harbor: one<{ id: number }>(
        "SELECT id FROM utility_accounts WHERE building_id = ? ORDER BY id LIMIT 1",
        OTHER_HARBOR,
      ).id,
    },
    credential: { sam: 1, harbor: 5 },
    bill: { sam: billAt(101), harbor: billAt(OTHER_HARBOR) },
    flag: { sam: samFlag.id, harbor: harborFlag.id },
    investigation: { sam: samFlag.id, harbor: harborFlag.id },
    flagBill: { sam: samFlag.bill, harbor: harborFlag.bill },
    thermostat: { sam: samThermostat, harbor: harborThermostat },
    action: { sam: action(samThermostat), harbor: action(harborThermostat) },
    issue: { sam: issue(samThermostat, 101), harbor: issue(harborThermostat, OTHER_HARBOR) },
    dispatch: { sam: dispatch(101), harbor: dispatch(OTHER_HARBOR), maple: dispatch(MAPLE_BUILDING) },
    person: { sam: TEAM_USERS.priya.id, maple: USER.alex },
    onboarding_step: { sam: step(CLIENT.harbor), maple: step(CLIENT.maple) },
  };
  for (const [kind, byOwner] of Object.entries(targets))
    for (const [owner, id] of Object.entries(byOwner))
      if (id === undefined) throw new Error(`no ${owner} target for ${kind} in the seed`);
});
afterAll(async () => {
  console.log(
    `access matrix: ${Object.keys(ACCESS_ROUTES).length} routes × ${ROLES.length} roles, ${counts.requests} requests (${counts.refused} refused, ${counts.allowed} allowed)`,
  );
  await api?.close();
});

// ---- the requests -----------------------------------------------------------------------------------------

type Ids = Record<string, number>;
type Built = { path: string; body?: unknown };
const D1 = "2026-10-01";
const D2 = "2026-10-31";
const utilityOfCredential = (id: number) =>
  (
    api.db
      .prepare(
        "SELECT u.arcadia_provider_id AS p FROM utility_credentials c JOIN utilities u ON u.id = c.utility_id WHERE c.id = ?",
      )
      .get(id) as { p: string }
  ).p;

/**
 * How to ask each route, given the ids chosen (by the name of the parameter or body field). Ids that belong
 * together (a flag and its bill, a thermostat and its action) follow the first one.
 */
const REQUESTS: Record<string, (ids: Ids, owner: Record<string, Owner>) => Built> = {
  "GET /bill-monitoring-providers/:clientId": (i) => ({ path: `/bill-monitoring-providers/${i.clientId}` }),
  "GET /:clientId/credentials_requiring_action": (i) => ({
    path: `/${i.clientId}/credentials_requiring_action`,
  }),
  "GET /client/:clientId/findings": (i) => ({ path: `/client/${i.clientId}/findings` }),
  "GET /client/:clientId/energy-advisor-buildings": (i) => ({
    path: `/client/${i.clientId}/energy-advisor-buildings`,
  }),
  "GET /client/:clientId/bill-statements/export-csv": (i) => ({
    path: `/client/${i.clientId}/bill-statements/export-csv`,
  }),
  "GET /insights/:clientId/dispatches": (i) => ({ path: `/insights/${i.clientId}/dispatches` }),
  "GET /insights/:clientId/dispatches-summary": (i) => ({
    path: `/insights/${i.clientId}/dispatches-summary`,
  }),
  "POST /building/:buildingId/dispatches/:dispatchId/opt-out": (i, o) => ({
    path: `/building/${i.buildingId}/dispatches/${targets.dispatch[o.buildingId]}/opt-out`,
  }),
  "GET /override-report/:clientId/:startDate/:endDate": (i) => ({
    path: `/override-report/${i.clientId}/${D1}/${D2}`,
  }),
  "GET /override-report/worst-performing-days/:clientId/:thermostatId/:startDate/:endDate": (i) => ({
    path: `/override-report/worst-performing-days/${i.clientId}/${i.thermostatId}/${D1}/${D2}`,
  }),
  "GET /onboarding-steps/:clientId": (i) => ({ path: `/onboarding-steps/${i.clientId}` }),
  "PATCH /onboarding-steps/:clientId/:stepId": (i) => ({
    path: `/onboarding-steps/${i.clientId}/${i.stepId}`,
    body: { status: "in_progress" },
  }),
  "PUT /update_arcadia_vitally_task": (i) => ({
    path: "/update_arcadia_vitally_task",
    body: { client_id: i.client_id, onboarding_step: 1 },
  }),
  "GET /building/:buildingId/accounts": (i) => ({ path: `/building/${i.buildingId}/accounts` }),
  "GET /building/:buildingId/bill-statements": (i) => ({
    path: `/building/${i.buildingId}/bill-statements?account_id=${i.account_id}`,
  }),
  "GET /building/:buildingId/thermostats": (i) => ({ path: `/building/${i.buildingId}/thermostats` }),
  "GET /insights/:buildingId/available-usage": (i) => ({ path: `/insights/${i.buildingId}/available-usage` }),
  "GET /insights/:buildingId/energy-consumption": (i) => ({
    path: `/insights/${i.buildingId}/energy-consumption?start_date=${D1}&end_date=${D2}&group_by=day`,
  }),
  "GET /insights/:buildingId/energy-demand": (i) => ({
    path: `/insights/${i.buildingId}/energy-demand?start_date=${D1}&end_date=${D2}&group_by=day`,
  }),
  "PATCH /bill-statement/:statementId/bill-flag/:flagId": (i, o) => ({
    path: `/bill-statement/${targets.flagBill[o.flagId]}/bill-flag/${i.flagId}`,
    body: { status: "dismissed" },
  }),
  "POST /bill-statement/:statementId/bill-flag/:flagId/outcome": (i, o) => ({
    path: `/bill-statement/${targets.flagBill[o.flagId]}/bill-flag/${i.flagId}/outcome`,
    body: { outcome: "billing_correct", note: "Checked with the utility." },
  }),
  "GET /bill-statement/:statementId/download": (i) => ({ path: `/bill-statement/${i.statementId}/download` }),
  "GET /investigations": () => ({ path: "/investigations" }),
  "GET /thermostats/:thermostatId": (i) => ({ path: `/thermostats/${i.thermostatId}` }),
  "PATCH /thermostats/dismiss-audit-issue/:thermostatId/:issueSlug": (i) => ({
    path: `/thermostats/dismiss-audit-issue/${i.thermostatId}/nodata`,
  }),
  "POST /thermostats/:thermostatId/settings": (i) => ({
    path: `/thermostats/${i.thermostatId}/settings`,
    body: { mode: "cool", cool_setpoint_f: 74 },
  }),
  "GET /thermostats/:thermostatId/thermostat-actions/:actionId": (i, o) => ({
    path: `/thermostats/${i.thermostatId}/thermostat-actions/${targets.action[o.thermostatId]}`,
  }),
  "POST /thermostats/:thermostatId/audit-issues/:issueId/resolve": (i, o) => ({
    path: `/thermostats/${i.thermostatId}/audit-issues/${targets.issue[o.thermostatId]}/resolve`,
  }),
  "PATCH /thermostats/:thermostatId/audit-issues/:issueId/dismiss": (i, o) => ({
    path: `/thermostats/${i.thermostatId}/audit-issues/${targets.issue[o.thermostatId]}/dismiss`,
    body: { is_dismissed: true },
  }),
  "GET /thermostat/:thermostatId/history/:startDate/:endDate": (i) => ({
    path: `/thermostat/${i.thermostatId}/history/${D1}/${D2}`,
  }),
  "POST /utility-connections": (i) => ({
    path: "/utility-connections",
    body: {
      arcadia_provider_id: utilityOfCredential(i.credential_id),
      username: "matrix-login",
      password: "matrix-pass",
      credential_id: i.credential_id,
      building_id: i.building_id,
    },
  }),
  "POST /arcadia/connect-token": (i) => ({
    path: "/arcadia/connect-token",
    body: {
      arcadia_provider_id: utilityOfCredential(i.credential_id),
      credential_id: i.credential_id,
      building_id: i.building_id,
    },
  }),
  "POST /arcadia/connect-url": (i) => ({
    path: "/arcadia/connect-url",
    body: {
      arcadia_provider_id: utilityOfCredential(i.credential_id),
      credential_id: i.credential_id,
      building_id: i.building_id,
      redirect_url: "http://web.test/authorize-arcadia?step=success",
    },
  }),
  "POST /arcadia/credentials": (i) => ({
    path: "/arcadia/credentials",
    // A utility nobody opens Connect for here: allowed, it is a 409 (no Connect session), never 404.
    body: {
      arcadia_provider_id: "prov_pse",
      utility_credential_id: "uc_matrix_unknown",
      building_id: i.building_id,
    },
  }),
  "GET /users/:clientId": (i) => ({ path: `/users/${i.clientId}` }),
  // The matrix's accounts are at a location: an allowed request is answered 409 and moves nothing.
  "PUT /accounts/:accountId/building": (i) => ({
    path: `/accounts/${i.accountId}/building`,
    body: { building_id: i.building_id },
  }),
  "PUT /user_building_access": (i) => ({
    path: "/user_building_access",
    body: { user_id: i.user_id, building_id: i.building_id, has_access: true },
  }),
  "PUT /communication-preferences": (i) => ({
    path: "/communication-preferences",
    body: {
      user_id: i.user_id,
      delivery_method_preference: "email",
      enabled: true,
      communication_preference_type: "bill_flag",
    },
  }),
};

/** The owners an id of a kind can have in the demo. */
const ownersOf = (kind: Kind): Owner[] =>
  kind === "self" ? ["self", "other"] : (Object.keys(targets[kind] ?? {}) as Owner[]);

/** Ids that belong together: a bill statement's owner follows its flag's (the flag is asked on its own bill). */
const LINKED: Record<string, string> = { statementId: "flagId" };

/** Every combination of owners for a route's ids (linked ids follow the id they belong to). */
function combinations(ids: [string, Kind][]): Record<string, Owner>[] {
  let out: Record<string, Owner>[] = [{}];
  for (const [name, kind] of ids)
    out = out.flatMap((partial) => ownersOf(kind).map((owner) => ({ ...partial, [name]: owner })));
  const names = new Set(ids.map(([n]) => n));
  return out.filter((o) =>
    Object.entries(LINKED).every(([a, b]) => !names.has(a) || !names.has(b) || o[a] === o[b]),
  );
}

/**
 * What the rule table says a role gets: a staff-only route 404 to anyone else; then the first id it may not see
 * (404) or not act on (403), else allowed.
 */
function expected(
  role: Role,
  ids: [string, Kind][],
  owners: Record<string, Owner>,
  rule: { intent: "read" | "change"; staffOnly?: true },
) {
  if (rule.staffOnly && role !== "staff") return 404;
  const intent = rule.intent;
  for (const [name, kind] of ids) {
    if (!sees(role, kind, owners[name])) return 404;
    if (!may(role, kind, intent)) return 403;
  }
  return "allowed" as const;
}

const changes = () => (api.db.prepare("SELECT total_changes() AS n").get() as { n: number }).n;

describe("the access matrix", () => {
  it("every route that takes an id has a rule, and every rule names a route", () => {
    const routes = declaredRoutes(api.deps);
    expect(routesWithoutRule(routes)).toEqual([]);
    const declared = new Set(routes.map((r) => `${r.method} ${r.path}`));
    expect(Object.keys(ACCESS_ROUTES).filter((k) => !declared.has(k))).toEqual([]);
    expect(Object.keys(NOT_SESSION_IDS).filter((k) => !declared.has(k))).toEqual([]);
    // The test can ask every route of the table.
    expect(Object.keys(ACCESS_ROUTES).filter((k) => !(k in REQUESTS))).toEqual([]);
  });

  it("a planted route that takes an id without a rule fails the check", () => {
    const planted = Router();
    planted.get("/planted/:thingId", (_req, res) => res.json({}));
    planted.post("/planted", (_req, res) => res.json({}));
    expect(routesWithoutRule(declaredRoutes(api.deps, [planted]))).toEqual(["GET /planted/:thingId"]);
  });

  // Refused first, then allowed: nothing an allowed request changes can be mistaken for a refused one's write.
  const plan = () =>
    Object.entries(ACCESS_ROUTES).flatMap(([key, rule]) => {
      const ids = Object.entries(rule.ids).map(([source, kind]) => [source.split(".")[1], kind]) as [
        string,
        Kind,
      ][];
      return ROLES.flatMap((role) =>
        combinations(ids).map((owners) => ({
          key,
          rule,
          role,
          ids,
          owners,
          want: expected(role, ids, owners, rule),
        })),
      );
    });

  async function ask(c: ReturnType<typeof plan>[number]) {
    const values: Ids = {};
    for (const [name, kind] of c.ids)
      values[name] =
        kind === "self"
          ? c.owners[name] === "self"
            ? userOf[c.role]
            : USER.dana === userOf[c.role]
              ? USER.sam
              : USER.dana
          : targets[kind][c.owners[name]]!;
    const built = REQUESTS[c.key](values, c.owners);
    const method = c.key.split(" ")[0];
    counts.requests++;
    return call(api, method, built.path, { cookie: cookies[c.role], body: built.body });
  }
  const label = (c: ReturnType<typeof plan>[number]) =>
    `${c.key} as ${c.role} with ${JSON.stringify(c.owners)}: want ${c.want}`;

  it("refuses what each role may not see (404) or not change (403), and changes nothing", async () => {
    const refused = plan().filter((c) => c.want !== "allowed");
    expect(refused.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const c of refused) {
      const before = changes();
      const res = await ask(c);
      const wrote = changes() - before;
      counts.refused++;
      if (res.status !== c.want || wrote !== 0)
        wrong.push(`${label(c)}, got ${res.status}, ${wrote} rows written`);
    }
    expect(wrong).toEqual([]);
  });

  it("lets each role do what the rule allows", async () => {
    const allowed = plan().filter((c) => c.want === "allowed");
    expect(allowed.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const c of allowed) {
      const res = await ask(c);
      counts.allowed++;
      if (res.status === 403 || res.status === 404 || res.status === 401 || res.status >= 500)
        wrong.push(`${label(c)}, got ${res.status} ${JSON.stringify(res.json).slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });
});
