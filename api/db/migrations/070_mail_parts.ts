/**
 * Each email as it is sent: its HTML part and extra headers (List-Unsubscribe and the like) beside the plain
 * text, and its kind (`sign_in`, `bill_flag`, `weekly_rundown`, …) for limits and the outbox page.
 */
export const m070_mail_parts = {
  id: "070_mail_parts",
  sql: /* sql */ `
ALTER TABLE outbox ADD COLUMN html TEXT;
ALTER TABLE outbox ADD COLUMN headers_json TEXT NOT NULL DEFAULT '{}';
ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'sign_in';
`,
};
