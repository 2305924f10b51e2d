import { prng } from "../../lib/prng";
import { addDays, isoDate, type SeedContext } from "./context";
import { UTILITY_ROWS } from "./core";
import { CLIENT, USER } from "./ids";

/**
 * API_EXTRA_LOCATIONS (api/config.ts): N more buildings for Harbor Coffee Co. on top of its 14, for measuring
 * what a large client costs (`npm run bench -- many`, tests/integration/many-locations.test.ts). Off (0) by
 * default: the demo, its sign-ins and every other seed are unchanged. Deterministic: the same N gives the same
 * rows. Each building gets 0–3 thermostats (some offline, some with an open issue), one or two utility
 * accounts and 13 monthly bills per account, so the dashboard, selector, accounts, grid-services filter,
 * compliance tables and team access editor all have realistic rows. No usage intervals or thermostat history
 * (over a million rows at this size): their pages show the "no data" states for these buildings.
 */

/** Ids of the extra rows, far from the demo's (docs/demo-data.md). */
export const EXTRA_BUILDING_ID = 2001;
const EXTRA_THERMOSTAT_ID = 20001;
const EXTRA_ACCOUNT_ID = 30001;
const EXTRA_BILL_ID = 100001;
const EXTRA_ISSUE_ID = 10001;
export const MAX_EXTRA_LOCATIONS = 2000;

/** [city, state, zip prefix, timezone, utility id (core.ts UTILITY_ROWS)] */
const CITIES: [string, string, string, string, number][] = [
  ["Seattle", "WA", "981", "America/Los_Angeles", 4],
  ["Tacoma", "WA", "984", "America/Los_Angeles", 12],
  ["Portland", "OR", "972", "America/Los_Angeles", 12],
  ["Oakland", "CA", "946", "America/Los_Angeles", 5],
  ["San Jose", "CA", "951", "America/Los_Angeles", 5],
  ["Austin", "TX", "787", "America/Chicago", 6],
  ["Chicago", "IL", "606", "America/Chicago", 7],
  ["Evanston", "IL", "602", "America/Chicago", 7],
  ["Denver", "CO", "802", "America/Denver", 8],
  ["Boulder", "CO", "803", "America/Denver", 8],
  ["New York", "NY", "100", "America/New_York", 1],
  ["Brooklyn", "NY", "112", "America/New_York", 1],
  ["Jersey City", "NJ", "073", "America/New_York", 3],
  ["Boston", "MA", "021", "America/New_York", 9],
  ["Cambridge", "MA", "021", "America/New_York", 9],
  ["Atlanta", "GA", "303", "America/New_York", 10],
  ["Miami", "FL", "331", "America/New_York", 11],
  ["Charlotte", "NC", "282", "America/New_York", 14],
];
const STREETS = [
  "Main St",
  "Oak Ave",
  "Maple Ave",
  "Market St",
  "Broadway",
  "Elm St",
  "Park Ave",
  "Lake St",
  "Pine St",
  "Cedar Rd",
  "Washington Blvd",
  "Harbor Way",
];
const PLACES = [
  "Station",
  "Square",
  "Commons",
  "Crossing",
  "Plaza",
  "Corner",
  "Terrace",
  "Heights",
  "Landing",
  "Junction",
];
const ROOMS = ["Front Counter", "Back Office", "Seating Area", "Kitchen", "Patio"];
const STATUSES: [string, string | null][] = [
  ["CONNECTION_SUCCESS", "DATA_ACCESSIBLE"],
  ["CONNECTION_SUCCESS", "DATA_ACCESSIBLE"],
  ["CONNECTION_SUCCESS", "DATA_ACCESSIBLE"],
  ["CONNECTION_SUCCESS", "DATA_ACCESSIBLE"],
  ["CONNECTION_IN_PROGRESS", null],
  ["DATA_ACCESS_FAILURE", "NO_DATA_AVAILABLE"],
];

/** The name of extra location `n` (0-based): "Harbor Coffee Oakland Plaza 37". */
export function extraLocationName(n: number) {
  const [city] = CITIES[n % CITIES.length];
  return `Harbor Coffee ${city} ${PLACES[Math.floor(n / CITIES.length) % PLACES.length]} ${n + 15}`;
}

export function seedExtraLocations(ctx: SeedContext) {
  const count = Math.min(ctx.extraLocations ?? 0, MAX_EXTRA_LOCATIONS);
  if (count <= 0) return;
  const { db, now, today } = ctx;
  const rand = prng(300300);
  const utilityName = new Map(UTILITY_ROWS.map(([id, name]) => [id, name]));
  const building = db.prepare(
    "INSERT INTO buildings (id, client_id, name, nickname, code, address_line1, address_line2, city, state, zipcode, timezone) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const access = db.prepare(
    "INSERT INTO user_building_access (user_id, building_id, has_access) VALUES (?, ?, ?)",
  );
  const thermostat =
    db.prepare(`INSERT INTO thermostats (id, building_id, device_name, vendor, status, issue_autoresolve, is_reachable,
    last_seen, vendor_data_json, temp_indoor_f, mode, cool_setpoint_f, heat_setpoint_f, allowed_modes_json, has_schedule)
    VALUES (?, ?, ?, 'enode', 1, 0, ?, ?, ?, ?, ?, 75, 68, ?, 1)`);
  const issue = db.prepare(
    `INSERT INTO thermostat_issues (id, thermostat_id, building_id, issue_slug, issue_category, current_status, is_dismissed, created_at, updated_at)
     VALUES (?, ?, ?, 'permanent_hold', 'schedule', 'active', 0, ?, ?)`,
  );
  const account = db.prepare(
    "INSERT INTO utility_accounts (id, client_id, building_id, utility_id, credential_id, number, arcadia_account_status, arcadia_account_status_detail, created_at) VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?)",
  );
  const bill = db.prepare(
    `INSERT INTO bill_statements (id, building_id, account_id, statement_date, service_start_date, service_end_date,
      consumption_kwh, demand_kw, rate_cents, total_charges_cents, total_electric_charges_cents, supplier)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let thermostatId = EXTRA_THERMOSTAT_ID;
  let accountId = EXTRA_ACCOUNT_ID;
  let billId = EXTRA_BILL_ID;
  let issueId = EXTRA_ISSUE_ID;
  const modes = JSON.stringify(["auto", "cool", "heat", "off"]);
  const vendorData = JSON.stringify({ information: { brand: "ecobee", model: "Smart Thermostat Premium" } });

  for (let n = 0; n < count; n++) {
    const id = EXTRA_BUILDING_ID + n;
    const [city, state, zip, tz, utilityId] = CITIES[n % CITIES.length];
    const street = `${1 + Math.floor(rand() * 9000)} ${STREETS[Math.floor(rand() * STREETS.length)]}`;
    building.run(
      id,
      CLIENT.harbor,
      extraLocationName(n),
      null,
      `HCC-${String(n + 15).padStart(3, "0")}`,
      street,
      null,
      city,
      state,
      `${zip}${String(Math.floor(rand() * 100)).padStart(2, "0")}`,
      tz,
    );
    access.run(USER.dana, id, 1);
    access.run(USER.sam, id, 0);

    const devices = Math.floor(rand() * 4);
    for (let d = 0; d < devices; d++) {
      const reachable = rand() < 0.93;
      const lastSeen = new Date(now.getTime() - (reachable ? 5 : 30 * 60) * 60_000).toISOString();
      thermostat.run(thermostatId, id, ROOMS[d], reachable ? 1 : 0, lastSeen, vendorData, 70, "auto", modes);
      if (reachable && rand() < 0.08) {
        const created = addDays(today, -2 - Math.floor(rand() * 10)).toISOString();
        issue.run(issueId++, thermostatId, id, created, created);
      }
      thermostatId++;
    }

    const accounts = rand() < 0.3 ? 2 : 1;
    const scale = 0.6 + rand() * 0.9;
    for (let a = 0; a < accounts; a++) {
      const [status, detail] = STATUSES[Math.floor(rand() * STATUSES.length)];
      const number = `${9000 + n}-${String(a + 1).padStart(2, "0")}-${String(Math.floor(rand() * 1e5)).padStart(5, "0")}`;
      account.run(accountId, CLIENT.harbor, id, utilityId, number, status, detail, today.toISOString());
      const lag = 3 + ((n + a) % 9);
      const rate = 11 + rand() * 9;
      const spike = rand() < 0.05 ? 1.6 : 1;
      for (let i = 12; i >= 0; i--) {
        const statement = addDays(today, -lag - Math.round(30.44 * i));
        const end = addDays(statement, -4);
        const start = addDays(end, -29);
        const kwh = Math.round(9000 * scale * (a ? 0.35 : 1) * (0.9 + rand() * 0.2));
        const kw =
          Math.round(35 * scale * (a ? 0.35 : 1) * (0.92 + rand() * 0.16) * (i === 0 ? spike : 1) * 10) / 10;
        const electric = Math.round(kwh * rate + kw * 1450 + 1800);
        bill.run(
          billId++,
          id,
          accountId,
          isoDate(statement),
          isoDate(start),
          isoDate(end),
          kwh,
          kw,
          Math.round(rate * 1000) / 1000,
          Math.round(electric * 1.0625),
          electric,
          utilityName.get(utilityId) ?? null,
        );
      }
      accountId++;
    }
  }
}
