import type { SeedContext } from "./context";
import { CLIENT } from "./ids";

type Vendor = "enode" | "airzone";
/**
 * The thermostats of Harbor Coffee Co. and what each is meant to show (docs/demo-data.md: card statuses and chips).
 * The thermostats area seeds the issues and actions that make each `intent` true; the grid area seeds
 * history for every thermostat. Dispatch 1 (ongoing, building 101, thermostats 1001 and 1002) is seeded here.
 *
 * Chips by building: 101 Ongoing Dispatch Event · 102 Offline · 103 1/3 Offline · 104 Operating ·
 * 105 4 device issues · 106 1 device issue · 107 No Devices · 108 2 device issues · 109..114 mixed.
 */
export const THERMOSTAT_ROWS: {
  id: number;
  building: number;
  name: string;
  vendor: Vendor;
  intent: string;
  reachable?: boolean;
  unlinked?: boolean;
  noSchedule?: boolean;
  autoresolve?: boolean;
}[] = [
  { id: 1001, building: 101, name: "Front Counter", vendor: "enode", intent: "event in progress" },
  { id: 1002, building: 101, name: "Back Office", vendor: "enode", intent: "event in progress" },
  { id: 1003, building: 101, name: "Seating Area", vendor: "enode", intent: "following schedule" },
  {
    id: 1004,
    building: 101,
    name: "Storage Room",
    vendor: "enode",
    intent: "unlinked",
    unlinked: true,
    reachable: false,
  },
  { id: 1005, building: 102, name: "Main Floor", vendor: "enode", intent: "unreachable", reachable: false },
  { id: 1006, building: 102, name: "Patio Zone", vendor: "airzone", intent: "unreachable", reachable: false },
  { id: 1007, building: 103, name: "Espresso Bar", vendor: "enode", intent: "unreachable", reachable: false },
  { id: 1008, building: 103, name: "Dining Room", vendor: "enode", intent: "following schedule" },
  { id: 1009, building: 103, name: "Mezzanine", vendor: "enode", intent: "following schedule" },
  { id: 1010, building: 104, name: "Roastery Floor", vendor: "enode", intent: "following schedule" },
  { id: 1011, building: 104, name: "Tasting Room", vendor: "enode", intent: "following schedule" },
  { id: 1012, building: 104, name: "Warehouse", vendor: "enode", intent: "following schedule" },
  {
    id: 1013,
    building: 105,
    name: "Front of House",
    vendor: "enode",
    intent: "inactive schedule (permanent_hold active)",
  },
  {
    id: 1014,
    building: 105,
    name: "Kitchen",
    vendor: "enode",
    intent: "inefficient schedule (unchanging_schedule active)",
  },
  { id: 1015, building: 105, name: "Drive-Thru", vendor: "enode", intent: "system performance (active)" },
  { id: 1016, building: 105, name: "Break Room", vendor: "enode", intent: "unreachable", reachable: false },
  { id: 1017, building: 105, name: "Office", vendor: "enode", intent: "following schedule" },
  { id: 1018, building: 106, name: "Upstairs", vendor: "airzone", intent: "following schedule" },
  {
    id: 1019,
    building: 106,
    name: "Downstairs",
    vendor: "airzone",
    intent: "inactive schedule (permanent_hold active; Airzone: no resolve/dismiss)",
  },
  { id: 1020, building: 106, name: "Back Room", vendor: "airzone", intent: "following schedule" },
  {
    id: 1021,
    building: 108,
    name: "Cafe Floor",
    vendor: "enode",
    intent: "resolving issue (permanent_hold processing)",
  },
  {
    id: 1022,
    building: 108,
    name: "Pastry Kitchen",
    vendor: "enode",
    intent: "issue dismissed (unchanging_schedule dismissed)",
  },
  {
    id: 1023,
    building: 109,
    name: "Main Room",
    vendor: "enode",
    intent: "schedule unavailable",
    noSchedule: true,
  },
  {
    id: 1024,
    building: 109,
    name: "Window Bar",
    vendor: "enode",
    intent: "inactive schedule (permanent_hold active, auto-resolves: yellow)",
    autoresolve: true,
  },
  {
    id: 1025,
    building: 110,
    name: "Counter",
    vendor: "enode",
    intent: "inefficient schedule (unchanging_schedule failed: red)",
  },
  { id: 1026, building: 110, name: "Reading Nook", vendor: "enode", intent: "following schedule" },
  { id: 1027, building: 111, name: "Main Floor", vendor: "enode", intent: "following schedule" },
  { id: 1028, building: 112, name: "Ground Floor", vendor: "enode", intent: "following schedule" },
  { id: 1029, building: 112, name: "Lower Level", vendor: "airzone", intent: "following schedule" },
  {
    id: 1030,
    building: 113,
    name: "Lobby",
    vendor: "enode",
    intent: "system performance (permanent_hold dismissed + system_performance active)",
  },
  { id: 1031, building: 114, name: "Front Room", vendor: "enode", intent: "following schedule" },
  { id: 1032, building: 114, name: "Courtyard", vendor: "airzone", intent: "following schedule" },
];

/**
 * Readings set by hand where a device's issue states a comparison of them (rule
 * setpoint-issues-match-readings): the generated readings would contradict the issue on the card (heat 66 °F
 * "above" indoor 68 °F). Drive-Thru heats to 70 °F and reads 66 °F; the Lobby cools to 74 °F and reads 78 °F.
 */
export const SEED_READINGS: Record<number, { mode: string; indoor: number; cool: number; heat: number }> = {
  1015: { mode: "heat", indoor: 66, cool: 76, heat: 70 },
  1030: { mode: "cool", indoor: 78, cool: 74, heat: 66 },
};

const ENODE_BRANDS = [
  { brand: "ecobee", model: "Smart Thermostat Premium" },
  { brand: "Google Nest", model: "Nest Thermostat (3rd gen)" },
  { brand: "Honeywell Home", model: "T9 Smart Thermostat" },
  { brand: "Sensi", model: "Sensi Touch 2" },
];
const AIRZONE_MAKERS = [
  { text: "Daikin", model: "Aidoo Pro DK" },
  { text: "Mitsubishi Electric", model: "Aidoo Pro ME" },
];
const MODE_SETS = [
  ["auto", "cool", "heat", "off"],
  ["auto", "cool", "heat", "off", "ventilation", "dehumidifier"],
  ["cool", "heat", "off", "emergencyheat"],
  ["auto", "cool", "heat", "off", "ventilation"],
];

export function seedDevices(ctx: SeedContext) {
  const { db, now } = ctx;
  const insert =
    db.prepare(`INSERT INTO thermostats (id, building_id, device_name, vendor, status, issue_autoresolve, is_reachable,
    last_seen, vendor_data_json, temp_indoor_f, mode, cool_setpoint_f, heat_setpoint_f, allowed_modes_json, has_schedule)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  THERMOSTAT_ROWS.forEach((t, i) => {
    const reachable = t.reachable !== false;
    const modes =
      t.vendor === "airzone"
        ? ["cool", "heat", "off", "ventilation", "dehumidifier"]
        : MODE_SETS[i % MODE_SETS.length];
    const mode = modes[i % 3 === 0 && modes.includes("auto") ? modes.indexOf("auto") : i % 2];
    const vendorData =
      t.vendor === "enode"
        ? { information: ENODE_BRANDS[i % ENODE_BRANDS.length] }
        : { manufacturer: { text: AIRZONE_MAKERS[i % 2].text }, model: AIRZONE_MAKERS[i % 2].model };
    // Reachable devices reported a few minutes before "now"; unreachable ones a day and some hours before.
    const lastSeen = new Date(
      now.getTime() - (reachable ? (1 + (i % 10)) * 60_000 : 86_400_000 + (2 + (i % 5)) * 3_600_000),
    ).toISOString();
    const set = SEED_READINGS[t.id];
    insert.run(
      t.id,
      t.building,
      t.name,
      t.vendor,
      t.unlinked ? -2 : 1,
      t.autoresolve ? 1 : 0,
      reachable ? 1 : 0,
      lastSeen,
      JSON.stringify(vendorData),
      set?.indoor ?? 68 + (i % 7),
      set?.mode ?? mode,
      set?.cool ?? 74 + (i % 3),
      set?.heat ?? 68 - (i % 3),
      JSON.stringify(modes),
      t.noSchedule ? 0 : 1,
    );
  });

  // Dispatch 1: the one grid event under way, at building 101: it started an hour before the api clock's
  // "now" (precooling an hour earlier) and runs 36 hours more, so the demo shows it for the rest of the day.
  // Its outcome is not known yet: PENDING.
  const hours = (h: number) => new Date(now.getTime() + h * 3_600_000).toISOString();
  db.prepare(
    "INSERT INTO dispatches (id, client_id, building_id, status, event_type, is_internal_test, precool_start_time, start_time, end_time) VALUES (1, ?, 101, 'PENDING', 'demand_response', 0, ?, ?, ?)",
  ).run(CLIENT.harbor, hours(-2), hours(-1), hours(36));
  const dt = db.prepare(
    "INSERT INTO dispatch_thermostats (dispatch_id, thermostat_id, precool_setpoint, target_setpoint, pre_event_observed, participating_minutes, was_overridden) VALUES (1, ?, 70, 78, 71, NULL, 0)",
  );
  dt.run(1001);
  dt.run(1002);
  // While the event runs its devices hold its setpoint (cool to the target, 78 °F): what their cards report,
  // coherent with the event's receipt on Front Counter (precool to 70 °F, completed, then the event began).
  db.prepare("UPDATE thermostats SET mode = 'cool', cool_setpoint_f = 78 WHERE id IN (1001, 1002)").run();
}
