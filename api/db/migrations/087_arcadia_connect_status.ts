/**
 * How Connect said a session ended when the page reported it (its onClose status: verified, pending, rejected,
 * timed_out) and the provider's credential id it reported with it; NULL when the page never did (the hosted
 * page without JavaScript). A credential verdict that
 * arrives by webhook is emailed to the session's person unless Connect already showed it (rule
 * connect-verdict-email).
 */
export const m087_arcadia_connect_status = {
  id: "087_arcadia_connect_status",
  sql: /* sql */ `
ALTER TABLE arcadia_connect_sessions ADD COLUMN connect_status TEXT
  CHECK (connect_status IS NULL OR connect_status IN ('verified', 'pending', 'rejected', 'timed_out'));
ALTER TABLE arcadia_connect_sessions ADD COLUMN provider_credential_id TEXT;
`,
};
