import { CLIENT, USER } from "../../api/db/seed/ids";
import type { SessionUser } from "../../app/server/upstream/session.server";

/** Dana of the demo data as the web session holds her (client admin of Harbor Coffee Co.). */
export const DANA_SESSION_USER: SessionUser = {
  id: USER.dana,
  email: "dana@harborcoffee.test",
  firstName: "Dana",
  lastName: "Reyes",
  clientId: CLIENT.harbor,
  client: { id: CLIENT.harbor, name: "Harbor Coffee Co.", clientType: "SMB" },
  isStaff: false,
  isClientAdmin: true,
  isImpersonating: false,
  canImpersonate: false,
  isDemoMode: false,
};
