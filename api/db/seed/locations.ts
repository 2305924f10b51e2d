import { addDays, type SeedContext } from "./context";

export const VENDOR_ALERT_MESSAGE =
  "Our thermostat vendor Enode is performing scheduled maintenance this week. Some thermostats may briefly show as offline; no action is needed.";

/** The locations area: one live device-vendor service alert (the dashboard banner; docs/demo-data.md). */
export function seedLocations(ctx: SeedContext) {
  ctx.db
    .prepare("INSERT INTO vendor_service_alerts (message, show_alert, created_at) VALUES (?, 1, ?)")
    .run(VENDOR_ALERT_MESSAGE, addDays(ctx.today, -1).toISOString());
}
