import { getAuth, ownClientRoute, sessionRouter } from "../lib/auth";
import { listVisibleBuildings } from "../lib/buildings";
import type { ApiDeps } from "../lib/http";
import { clientFindings } from "../domain/findings";

/** The findings ledger's data (docs/api-contract.md, docs/api/findings.md): flags and missing bills of a client. */
export function findingsRoutes(deps: ApiDeps) {
  const { r, db } = sessionRouter(deps, ["/client/:clientId/findings"]);

  // Limited to the locations this session may see (a user with some locations hears only of those).
  r.get(
    "/client/:clientId/findings",
    ownClientRoute((_clientId, _req, res) => {
      const auth = getAuth(res);
      res.json(clientFindings(db, auth, listVisibleBuildings(db, auth)));
    }),
  );

  return r;
}
