/**
 * Issue types of the catalogue (docs/api/thermostats.md): the only slugs the api's dismissal accepts, and the
 * only ones the email dismissal link's page names. Any other slug (a link cut short in a mail client,
 * `permanent_ho`) is a wrong parameter: the page says 'Submission Failed' (spec part 2, Thermostat issue
 * dismissal page), never that the issue is resolved.
 */
export const ISSUE_SLUGS = [
  "new_thermostat",
  "uninitialized",
  "nodata",
  "unextractable",
  "unchanging_schedule",
  "no_schedule",
  "permanent_hold",
  "could_not_determine_setpoint_changes",
  "occupied_cool_setpoint_too_low",
  "occupied_heat_setpoint_too_high",
  "setback_cool_setpoint_too_low",
  "setback_heat_setpoint_too_high",
  "setback_too_close_to_occupied",
  "setback_cool_less_than_occupied",
  "setback_heat_higher_than_occupied",
  "heat_setpoint_higher_than_cool_setpoint",
  "heat_setpoint_too_close_to_cool_setpoint",
  "heat_setpoint_above_indoor_temp",
  "heat_setpoint_below_indoor_temp",
  "cool_setpoint_above_indoor_temp",
  "cool_setpoint_below_indoor_temp",
  "auto_setpoint_indoor_temp_delta",
  "device_communication_issues",
  "vendor_communication_issues",
  "unexpected_unreachable",
  "many_small_gaps",
  "one_big_gap",
  "unexpected_temperature",
  "extreme_indoor_temperature",
  "off",
  "occupied_setpoints_too_close",
] as const;

export type IssueSlug = (typeof ISSUE_SLUGS)[number];

/** Whether a string is one of the catalogue's issue slugs. */
export const isIssueSlug = (slug: string): slug is IssueSlug =>
  (ISSUE_SLUGS as readonly string[]).includes(slug);
