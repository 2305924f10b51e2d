/** The locations area: the device vendors' service alert shown on the locations dashboard. */
export const m010_locations = {
  id: "010_locations",
  sql: /* sql */ `
CREATE TABLE vendor_service_alerts (
  id INTEGER PRIMARY KEY,
  message TEXT NOT NULL,
  show_alert INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL
);
`,
};
