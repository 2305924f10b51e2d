/**
 * Which setpoint issues a thermostat's readings bear out (rule setpoint-issues-match-readings,
 * docs/rules.md). The vendor's audit raises these from the device's own readings, so a card must never show
 * one its readings contradict: "Heat setpoint above indoor temp" on a card reading heat 66 °F and indoor
 * 68 °F tells the reader the product cannot read its own numbers. The demo seed is checked against this.
 */

export type Readings = {
  tempIndoorF: number | null;
  coolSetpointF: number | null;
  heatSetpointF: number | null;
};

/** The issue types whose names state a comparison of the readings, and that comparison. */
const COMPARISONS: Record<string, (r: Required<{ [K in keyof Readings]: number }>) => boolean> = {
  heat_setpoint_above_indoor_temp: (r) => r.heatSetpointF > r.tempIndoorF,
  heat_setpoint_below_indoor_temp: (r) => r.heatSetpointF < r.tempIndoorF,
  cool_setpoint_above_indoor_temp: (r) => r.coolSetpointF > r.tempIndoorF,
  cool_setpoint_below_indoor_temp: (r) => r.coolSetpointF < r.tempIndoorF,
  heat_setpoint_higher_than_cool_setpoint: (r) => r.heatSetpointF > r.coolSetpointF,
};

/** Whether the issue type is one the readings alone decide. */
export const isReadingIssue = (slug: string) => Object.hasOwn(COMPARISONS, slug);

/**
 * Whether the readings bear out an issue of this type: true for an issue the readings do not decide
 * (schedules, communication); false for a reading comparison that does not hold or cannot be made (a
 * reading missing).
 */
export function readingsBearOut(slug: string, r: Readings): boolean {
  const compare = COMPARISONS[slug];
  if (!compare) return true;
  if (r.tempIndoorF === null || r.coolSetpointF === null || r.heatSetpointF === null) return false;
  return compare({
    tempIndoorF: r.tempIndoorF,
    coolSetpointF: r.coolSetpointF,
    heatSetpointF: r.heatSetpointF,
  });
}
