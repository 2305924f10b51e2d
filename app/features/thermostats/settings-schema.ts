import { z } from "zod";
import { submissionIdField } from "~/lib/submission-id";
import { changedSettings, type CurrentSettings, type DeviceLimits } from "./thermostats";

// The setting form's schema, apart from the rules the cards import: the browser loads zod (with Conform) only
// when a card's setting form opens (components/live-settings-form.tsx; tests/ops/js-budget.test.ts).

function setpoint(label: string, min: number, max: number) {
  return z
    .number({ required_error: `${label} is required`, invalid_type_error: `${label} must be a number` })
    .int(`${label} must be a whole number of degrees`)
    .min(min, `${label} must be at least ${min}°F`)
    .max(max, `${label} must be at most ${max}°F`);
}

/** The one schema of the setting form, built for a device: its modes, its setpoint bounds, its auto-mode spacing. */
const schemas = new Map<string, ReturnType<typeof buildSettingsSchema>>();

/** The device's settings schema; devices with the same limits share one (a control room renders dozens). */
export function settingsSchema(limits: DeviceLimits) {
  const key = `${limits.allowedModes.join(",")}|${limits.minSetpointF}|${limits.maxSetpointF}|${limits.minAutoSpacingF}`;
  let schema = schemas.get(key);
  if (!schema) {
    schema = buildSettingsSchema({ ...limits, allowedModes: [...limits.allowedModes] });
    if (schemas.size < 500) schemas.set(key, schema);
  }
  return schema;
}

function buildSettingsSchema(limits: DeviceLimits) {
  return z
    .object({
      mode: z.string({ required_error: "Mode is required" }).refine((m) => limits.allowedModes.includes(m), {
        message: "Choose a mode this thermostat supports",
      }),
      coolSetpointF: setpoint("Cool setpoint", limits.minSetpointF, limits.maxSetpointF),
      heatSetpointF: setpoint("Heat setpoint", limits.minSetpointF, limits.maxSetpointF),
      submissionId: submissionIdField,
    })
    .superRefine((v, ctx) => {
      if (v.mode === "auto" && v.coolSetpointF - v.heatSetpointF < limits.minAutoSpacingF) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["coolSetpointF"],
          message: `In auto mode the cool setpoint must be at least ${limits.minAutoSpacingF}°F above the heat setpoint`,
        });
      }
    });
}

/** Save is enabled only when the form is valid and differs from the device's current settings. */
export function canSave(
  limits: DeviceLimits,
  current: CurrentSettings,
  raw: { mode?: string; coolSetpointF?: string; heatSetpointF?: string },
) {
  // Values come back from a submission as typed; a duplicated field arrives as a list and is simply invalid.
  const toNum = (v: unknown) =>
    v === undefined
      ? undefined
      : typeof v !== "string"
        ? Number.NaN
        : v.trim() === ""
          ? undefined
          : Number(v);
  const parsed = settingsSchema(limits).safeParse({
    mode: raw.mode || undefined,
    coolSetpointF: toNum(raw.coolSetpointF),
    heatSetpointF: toNum(raw.heatSetpointF),
  });
  if (!parsed.success) return false;
  return Object.keys(changedSettings(current, parsed.data)).length > 0;
}
