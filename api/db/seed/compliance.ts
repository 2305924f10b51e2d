import { TZDate } from "@date-fns/tz";
import { prng } from "../../lib/prng";
import type { SeedContext } from "./context";
import { refreshHistoryDaily } from "../../domain/schedule-compliance";
import { HARBOR_BUILDING_ROWS } from "./core";
import { THERMOSTAT_ROWS } from "./devices";

export const HISTORY_STEP_MIN = 30;
const STEP_MS = HISTORY_STEP_MIN * 60_000;

/** Behaviour of a thermostat in the history, from its card intent in devices.ts. */
function profile(t: (typeof THERMOSTAT_ROWS)[number]) {
  const intent = t.intent;
  return {
    holdsPerMonth: intent.includes("permanent_hold") ? 5 : t.id % 3 === 0 ? 1.5 : 0.6,
    overridesPerDay: intent.includes("permanent_hold") ? 0.5 : 0.15 + (t.id % 5) * 0.08,
    unchanging: intent.includes("unchanging_schedule"),
    noSchedule: Boolean(t.noSchedule),
    unreachable: t.reachable === false && !t.unlinked,
  };
}

const localDate = (y: number, m: number, d: number) =>
  `${y}-${String(m + 1).padStart(2, "0")}-${String(d).padStart(2, "0")}`;

/**
 * 13 months of half-hourly thermostat history for every linked thermostat (the unlinked one has none):
 * recommended schedule setpoints, cool/heat setpoints, indoor temperature, mode, manual overrides that the
 * system auto-resets, permanent holds, and gaps while unreachable. Building 102's thermostats have been
 * offline since shortly before the previous month, so that month has a building with no reachable time.
 */
export function seedCompliance(ctx: SeedContext) {
  const { db, today } = ctx;
  const rand = prng(404040);
  const insert = db.prepare(
    `INSERT INTO thermostat_history (thermostat_id, local_date, recorded_at, duration_s, mode, schedule_setpoint_f, cool_setpoint_f, heat_setpoint_f, indoor_temperature_f, event)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const tzOf = new Map(HARBOR_BUILDING_ROWS.map((b) => [b[0], b[9]]));
  const y0 = today.getUTCFullYear();
  const m0 = today.getUTCMonth();
  const firstDay = new Date(Date.UTC(y0, m0 - 13, 1));
  const prevMonthStart = Date.UTC(y0, m0 - 1, 1);
  const nowMs = today.getTime();

  for (const t of THERMOSTAT_ROWS) {
    if (t.unlinked) continue;
    const p = profile(t);
    const tz = tzOf.get(t.building) ?? "America/New_York";
    // Offline windows [from, to) in ms.
    const gaps: [number, number][] = [];
    if (p.unreachable) {
      const offlineSince =
        t.building === 102
          ? prevMonthStart - (3 + (t.id % 2)) * 86_400_000
          : nowMs - (2 + (t.id % 3)) * 86_400_000;
      gaps.push([offlineSince, Infinity]);
      for (let i = 0; i < 10; i++) {
        const from = firstDay.getTime() + rand() * (offlineSince - firstDay.getTime());
        gaps.push([from, from + (2 + rand() * 60) * 3_600_000]);
      }
    } else if (rand() < 0.6) {
      const from = firstDay.getTime() + rand() * (nowMs - firstDay.getTime());
      gaps.push([from, from + (1 + rand() * 5) * 3_600_000]);
    }
    const offline = (ms: number) => gaps.some(([a, b]) => ms >= a && ms < b);

    let indoor = 70;
    let holdUntil = 0;
    let holdSetpoint = 0;
    let overrideUntil = 0;
    let overrideDelta = 0;
    let wasOff = false;

    for (let d = new Date(firstDay); d.getTime() < nowMs; d = new Date(d.getTime() + 86_400_000)) {
      const y = d.getUTCFullYear();
      const mo = d.getUTCMonth();
      const day = d.getUTCDate();
      const date = localDate(y, mo, day);
      const startMs = +new TZDate(y, mo, day, 0, 0, tz);
      const endMs = +new TZDate(y, mo, day + 1, 0, 0, tz);
      const month = mo + 1;
      const season = month >= 5 && month <= 9 ? "cool" : month >= 11 || month <= 3 ? "heat" : "auto";
      const mode = t.id % 7 === 0 && season === "auto" ? "cool" : season;
      const outdoor = season === "cool" ? 84 : season === "heat" ? 38 : 62;
      for (let ms = startMs, slot = 0; ms < endMs; ms += STEP_MS, slot++) {
        if (ms >= nowMs || offline(ms)) {
          wasOff = true;
          continue;
        }
        const hour = (slot * HISTORY_STEP_MIN) / 60;
        const occupied =
          hour >= 6 && hour < 20 && (t.building % 2 === 0 || new Date(startMs).getUTCDay() !== 0);
        const coolSchedule = occupied ? 74 : 80;
        const heatSchedule = occupied ? 69 : 62;
        const schedule = p.noSchedule ? null : mode === "heat" ? heatSchedule : coolSchedule;
        let event: string | null = null;
        let cool = coolSchedule;
        let heat = heatSchedule;
        if (p.unchanging) {
          // The same setpoints day and night: on schedule only while the building is occupied.
          cool = 74;
          heat = 69;
        }
        if (ms < holdUntil) {
          if (mode === "heat") heat = holdSetpoint;
          else cool = holdSetpoint;
        } else if (ms < overrideUntil) {
          if (mode === "heat") heat = heatSchedule + overrideDelta;
          else cool = coolSchedule - overrideDelta;
        } else {
          if (holdUntil > 0 || overrideUntil > 0) {
            // The hold or override just ended: most are reset by the system back to the schedule.
            if (!wasOff && rand() < 0.8) event = "auto_reset";
            holdUntil = 0;
            overrideUntil = 0;
          }
          if (rand() < p.holdsPerMonth / (30 * 48)) {
            holdUntil = ms + (1 + rand() * 4) * 86_400_000;
            holdSetpoint = mode === "heat" ? 72 + Math.floor(rand() * 3) : 70 + Math.floor(rand() * 3);
            event = "permanent_hold";
            if (mode === "heat") heat = holdSetpoint;
            else cool = holdSetpoint;
          } else if (occupied && rand() < p.overridesPerDay / 28) {
            overrideUntil = ms + (1 + Math.floor(rand() * 8)) * STEP_MS;
            overrideDelta = 2 + Math.floor(rand() * 3);
          }
        }
        wasOff = false;
        if (heat > cool - 3) heat = cool - 3;
        const target =
          mode === "heat"
            ? heat
            : mode === "cool"
              ? cool
              : indoor > cool
                ? cool
                : indoor < heat
                  ? heat
                  : indoor;
        indoor += (target - indoor) * 0.35 + (outdoor - indoor) * 0.02 + (rand() - 0.5) * 0.6;
        insert.run(
          t.id,
          date,
          new Date(ms).toISOString(),
          STEP_MS / 1000,
          mode,
          schedule,
          cool,
          heat,
          Math.round(indoor * 10) / 10,
          event,
        );
      }
    }
  }
  refreshHistoryDaily(db);
}
