import * as clock from "../lib/clock";
import type { ApiDeps } from "../lib/http";

type Pending = {
  id: number;
  credential_id: number | null;
  outcome: "success" | "email_approval" | "invalid_credentials";
};

/** Settles every due connection: its accounts leave CONNECTION_IN_PROGRESS for success, email approval or failure. */
export function settleDueConnections(deps: ApiDeps, now = clock.now()) {
  const { db } = deps;
  const due = db
    .prepare(
      "SELECT id, credential_id, outcome FROM utility_connections WHERE settled_at IS NULL AND due_at <= ? ORDER BY id",
    )
    .all(now.toISOString()) as Pending[];
  if (due.length === 0) return 0;
  const setAccounts = db.prepare(
    "UPDATE utility_accounts SET arcadia_account_status = ?, arcadia_account_status_detail = ? WHERE credential_id = ? AND arcadia_account_status = 'CONNECTION_IN_PROGRESS'",
  );
  db.transaction(() => {
    for (const c of due) {
      if (c.credential_id !== null) {
        if (c.outcome === "success") {
          setAccounts.run("CONNECTION_SUCCESS", "DATA_ACCESSIBLE", c.credential_id);
          // Connected: since when (rule connect-what-next), and Bill Monitoring complete (onboarding-matches-data).
          db.prepare(
            "UPDATE utility_accounts SET connected_at = COALESCE(connected_at, ?) WHERE credential_id = ?",
          ).run(now.toISOString(), c.credential_id);
          db.prepare(
            `UPDATE onboarding_steps SET status = 'complete', updated_at = ? WHERE name = 'bill_monitoring'
               AND status != 'complete' AND client_id = (SELECT client_id FROM utility_credentials WHERE id = ?)`,
          ).run(now.toISOString(), c.credential_id);
        }
        if (c.outcome === "email_approval")
          setAccounts.run("CONNECTION_IN_PROGRESS", "EMAIL_APPROVAL", c.credential_id);
        if (c.outcome === "invalid_credentials") {
          setAccounts.run("DATA_ACCESS_FAILURE", "CREDENTIAL_ISSUE", c.credential_id);
          db.prepare("UPDATE utility_credentials SET state = 'reconnect' WHERE id = ?").run(c.credential_id);
        }
      }
      db.prepare("UPDATE utility_connections SET settled_at = ? WHERE id = ?").run(now.toISOString(), c.id);
    }
  })();
  deps.log("utility connections settled", { count: due.length });
  return due.length;
}

/** The utility-data provider simulator: checks for due connections every second. */
export function startUtilityProvider(deps: ApiDeps) {
  const timer = setInterval(() => {
    try {
      settleDueConnections(deps);
    } catch (error) {
      deps.log("utility provider simulator failed", {
        err: error instanceof Error ? error.message : String(error),
      });
    }
  }, 1000);
  timer.unref();
  return () => clearInterval(timer);
}
