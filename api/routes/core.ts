import { getAuth, sessionRouter } from "../lib/auth";
import { buildingJson, listVisibleBuildings, buildingRoute } from "../lib/buildings";
import { type ApiDeps, pageQuery, paged, parse, route } from "../lib/http";
import { accountsOfBuilding } from "../lib/accounts";

/** Buildings and their utility accounts: the core every area builds on. */
export function coreRoutes(deps: ApiDeps) {
  const { r } = sessionRouter(deps, ["/buildings", "/building"]);

  r.get(
    "/buildings",
    route((req, res) => {
      const { page, size } = parse(pageQuery, req.query, "query");
      const all = listVisibleBuildings(deps.db, getAuth(res)).map(buildingJson);
      res.json(paged(all, page, size));
    }),
  );

  r.get(
    "/building/:buildingId/accounts",
    buildingRoute(deps.db, (building, req, res) => {
      res.json({ items: accountsOfBuilding(deps, building.id) });
    }),
  );

  return r;
}
