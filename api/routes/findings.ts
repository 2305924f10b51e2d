import { getAuth, ownClientRoute, sessionRouter } from "../lib/auth";
import { listVisibleBuildings } from "../lib/buildings";
import { type ApiDeps, notFound, route } from "../lib/http";
import { clientFindings } from "../domain/findings";
import { openInvestigations } from "../domain/investigations";

/**
 * The findings ledger's data (docs/api-contract.md, docs/api/findings.md): flags and missing bills of a client;
 * and the staff's queue of open investigations across clients.
 */
export function findingsRoutes(deps: ApiDeps) {
  const { r, db } = sessionRouter(deps, ["/client/:clientId/findings", "/investigations"]);

  // Limited to the locations this session may see (a user with some locations hears only of those).
  r.get(
    "/client/:clientId/findings",
    ownClientRoute((_clientId, _req, res) => {
      const auth = getAuth(res);
      res.json(clientFindings(db, auth, listVisibleBuildings(db, auth)));
    }),
  );

  // Staff alone, impersonating a client or not (rule investigation-queue); anyone else: 404, as the access
  // guard answers first (ACCESS_ROUTES, staffOnly).
  r.get(
    "/investigations",
    route((_req, res) => {
      const auth = getAuth(res);
      if (!auth.isStaff) throw notFound();
      res.json(openInvestigations(db, auth));
    }),
  );

  return r;
}
