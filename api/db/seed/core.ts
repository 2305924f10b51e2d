import { hashPassword } from "../../lib/crypto";
import { CLIENT, USER, DEMO_PASSWORD, MAPLE_BUILDING, GREENWAY_BUILDING, METRO_BUILDING } from "./ids";
import { addDays, type SeedContext } from "./context";

type B = [
  id: number,
  name: string,
  nickname: string | null,
  code: string,
  line1: string,
  line2: string | null,
  city: string,
  state: string,
  zip: string,
  tz: string,
];

/** Harbor Coffee Co.: 14 locations across four US timezones. Codes and street numbers sort differently on purpose. */
export const HARBOR_BUILDING_ROWS: B[] = [
  [
    101,
    "Harbor Coffee Pike Place",
    "Flagship",
    "HCC-007",
    "1912 Pike Pl",
    null,
    "Seattle",
    "WA",
    "98101",
    "America/Los_Angeles",
  ],
  [
    102,
    "Harbor Coffee Capitol Hill",
    null,
    "HCC-002",
    "415 E Pine St",
    null,
    "Seattle",
    "WA",
    "98122",
    "America/Los_Angeles",
  ],
  [
    103,
    "Harbor Coffee Ballard",
    null,
    "HCC-011",
    "5300 Ballard Ave NW",
    "Suite 2",
    "Seattle",
    "WA",
    "98107",
    "America/Los_Angeles",
  ],
  [
    104,
    "Harbor Coffee Mission",
    "Roastery",
    "HCC-001",
    "2200 Mission St",
    null,
    "San Francisco",
    "CA",
    "94110",
    "America/Los_Angeles",
  ],
  [
    105,
    "Harbor Coffee South Congress",
    null,
    "HCC-014",
    "1601 S Congress Ave",
    null,
    "Austin",
    "TX",
    "78704",
    "America/Chicago",
  ],
  [
    106,
    "Harbor Coffee Wicker Park",
    null,
    "HCC-005",
    "1425 N Milwaukee Ave",
    null,
    "Chicago",
    "IL",
    "60622",
    "America/Chicago",
  ],
  [
    107,
    "Harbor Coffee Loop",
    "Loop Kiosk",
    "HCC-009",
    "20 N Wacker Dr",
    "Lobby",
    "Chicago",
    "IL",
    "60606",
    "America/Chicago",
  ],
  [
    108,
    "Harbor Coffee LoDo",
    null,
    "HCC-004",
    "1701 Wynkoop St",
    null,
    "Denver",
    "CO",
    "80202",
    "America/Denver",
  ],
  [
    109,
    "Harbor Coffee Chelsea",
    null,
    "HCC-012",
    "88 Tenth Ave",
    null,
    "New York",
    "NY",
    "10011",
    "America/New_York",
  ],
  [
    110,
    "Harbor Coffee Park Slope",
    "Slope",
    "HCC-003",
    "7 Seventh Ave",
    null,
    "Brooklyn",
    "NY",
    "11217",
    "America/New_York",
  ],
  [
    111,
    "Harbor Coffee Hoboken",
    null,
    "HCC-010",
    "301 Washington St",
    null,
    "Hoboken",
    "NJ",
    "07030",
    "America/New_York",
  ],
  [
    112,
    "Harbor Coffee Back Bay",
    null,
    "HCC-006",
    "500 Boylston St",
    null,
    "Boston",
    "MA",
    "02116",
    "America/New_York",
  ],
  [
    113,
    "Harbor Coffee Midtown",
    null,
    "HCC-013",
    "1100 Peachtree St NE",
    null,
    "Atlanta",
    "GA",
    "30309",
    "America/New_York",
  ],
  [
    114,
    "Harbor Coffee Wynwood",
    null,
    "HCC-008",
    "2550 NW 2nd Ave",
    null,
    "Miami",
    "FL",
    "33127",
    "America/New_York",
  ],
];

/** Utilities: two ConEd-type, one JCPL, some requiring e-bill, some exempt from the MFA warning. */
export const UTILITY_ROWS: [
  id: number,
  name: string,
  providerId: string,
  ebill: number,
  coned: number,
  jcpl: number,
  mfaExempt: number,
][] = [
  [1, "Consolidated Edison (ConEd)", "prov_coned", 0, 1, 0, 0],
  [2, "Orange and Rockland Utilities", "prov_oru", 0, 1, 0, 0],
  [3, "Jersey Central Power & Light (JCPL)", "prov_jcpl", 1, 0, 1, 0],
  [4, "Seattle City Light", "prov_scl", 0, 0, 0, 1],
  [5, "Pacific Gas and Electric (PG&E)", "prov_pge", 0, 0, 0, 0],
  [6, "Austin Energy", "prov_austin", 1, 0, 0, 1],
  [7, "Commonwealth Edison (ComEd)", "prov_comed", 0, 0, 0, 0],
  [8, "Xcel Energy", "prov_xcel", 1, 0, 0, 0],
  [9, "Eversource Energy", "prov_eversource", 1, 0, 0, 0],
  [10, "Georgia Power", "prov_gapower", 0, 0, 0, 1],
  [11, "Florida Power & Light (FPL)", "prov_fpl", 0, 0, 0, 0],
  [12, "Puget Sound Energy", "prov_pse", 0, 0, 0, 0],
  [13, "National Grid", "prov_natgrid", 1, 0, 0, 0],
  [14, "Duke Energy", "prov_duke", 0, 0, 0, 0],
];

/** The utility (id in the seed) serving each Harbor Coffee building; bills.ts names it on statements. */
export const UTILITY_FOR_BUILDING: Record<number, number> = {
  101: 4,
  102: 4,
  103: 12,
  104: 5,
  105: 6,
  106: 7,
  107: 7,
  108: 8,
  109: 1,
  110: 1,
  111: 3,
  112: 9,
  113: 10,
  114: 11,
};

/**
 * Harbor's utility accounts: every connection status and detail appears (docs/demo-data.md).
 * [id, building, number, status, detail, credential]
 */
export const HARBOR_ACCOUNT_ROWS: [number, number, string, string, string | null, number | null][] = [
  [1001, 101, "4410-2281-07", "CONNECTION_SUCCESS", "DATA_ACCESSIBLE", 1],
  [1002, 101, "4410-2281-15", "CONNECTION_SUCCESS", "DATA_ACCESSIBLE", 1],
  [1003, 102, "4410-3307-22", "CONNECTION_SUCCESS", "DATA_ACCESSIBLE", 1],
  [1004, 103, "220-118-4471", "NEW_ACCOUNT", "EMAIL_APPROVAL", null],
  [1005, 104, "7731905516-4", "CONNECTION_SUCCESS", "DATA_ACCESSIBLE", 2],
  [1006, 105, "AE-30019-881", "CONNECTION_IN_PROGRESS", null, null],
  [1007, 106, "0391-77120-3", "CONNECTION_SUCCESS", "DATA_ACCESSIBLE", 3],
  [1008, 106, "0391-77120-4", "DATA_ACCESS_FAILURE", "CREDENTIAL_ISSUE", 3],
  [1009, 107, "0391-80455-1", "CONNECTION_SUCCESS", "DATA_ACCESSIBLE", 3],
  [1010, 108, "53-0092813-7", "DATA_ACCESS_FAILURE", "NO_DATA_AVAILABLE", null],
  [1011, 109, "29-4410-8801-0001-2", "CONNECTION_SUCCESS", "DATA_ACCESSIBLE", 4],
  [1012, 109, "29-4410-8801-0002-0", "CONNECTION_IN_PROGRESS", "EMAIL_APPROVAL", 4],
  [1013, 110, "29-5512-0034-0001-9", "CONNECTION_SUCCESS", "DATA_ACCESSIBLE", 4],
  [1014, 111, "100 088 213 447", "DATA_ACCESS_FAILURE", "UNSUCCESSFUL_EMAIL_APPROVAL", null],
  [1015, 112, "5118-902-3345", "CONNECTION_SUCCESS", "DATA_ACCESSIBLE", 5],
  [1016, 112, "5118-902-3346", "DATA_ACCESS_FAILURE", "USER_REVOKED_ACCESS", 5],
  [
    1017,
    113,
    "08812-44190",
    "INACTIVE",
    "NO_BILLS_DISCOVERED_AFTER_MOST_RECENT_NEXT_EXPECTED_POST_DATE",
    null,
  ],
  [1018, 113, "08812-44191", "CONNECTION_SUCCESS", "DATA_ACCESSIBLE", null],
  [1019, 114, "6620-118-003", "INACTIVE", "NO_BILLS_DISCOVERED_AFTER_FINAL_BILL_NOTICE", null],
  [1020, 114, "6620-118-004", "CONNECTION_SUCCESS", "DATA_ACCESSIBLE", null],
  [1021, 108, "53-0092813-8", "INACTIVE", "ISSUE_UNDER_REVIEW", null],
];

/** Harbor's stored utility-data credentials; 3 needs a reconnect (invalid credentials), 5 an MFA refresh. */
export const HARBOR_CREDENTIALS: [id: number, utility: number, username: string, state: string][] = [
  [1, 4, "facilities@harborcoffee.test", "ok"],
  [2, 5, "harbor-sf-ops", "ok"],
  [3, 7, "harbor.chicago", "reconnect"],
  [4, 1, "harbor-nyc", "ok"],
  [5, 9, "harbor.boston", "mfa_refresh"],
];

/** The locations sam@harborcoffee.test may see (partial access). */
export const SAM_BUILDINGS = [101, 102, 104, 106, 109];

/** Hashed once per process: scrypt is most of a reset's time (POST /dev/reset seeds again). */
let demoPasswordHash: string | undefined;

export function seedCore(ctx: SeedContext) {
  const { db, today, staffEmailDomain } = ctx;
  const now = today.toISOString();
  const pw = (demoPasswordHash ??= hashPassword(DEMO_PASSWORD));

  const client = db.prepare("INSERT INTO clients (id, name, client_type) VALUES (?, ?, ?)");
  client.run(CLIENT.harbor, "Harbor Coffee Co.", "SMB");
  client.run(CLIENT.maple, "Maple Dental", "SMB");
  client.run(CLIENT.greenway, "Greenway Homes", "RESI");
  client.run(CLIENT.metro, "Metro Towers", "LARGE_COMMERCIAL");

  const user = db.prepare(
    "INSERT INTO users (id, email, first_name, last_name, client_id, password_hash, is_client_admin, is_staff) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  user.run(USER.dana, "dana@harborcoffee.test", "Dana", "Reyes", CLIENT.harbor, pw, 1, 0);
  user.run(USER.sam, "sam@harborcoffee.test", "Sam", "Okafor", CLIENT.harbor, null, 0, 0);
  user.run(USER.alex, "alex@mapledental.test", "Alex", "Kim", CLIENT.maple, pw, 0, 0);
  user.run(USER.riley, "riley@greenwayhomes.test", "Riley", "Park", CLIENT.greenway, pw, 0, 0);
  user.run(USER.jordan, "jordan@metrotowers.test", "Jordan", "Blake", CLIENT.metro, pw, 0, 0);
  user.run(USER.morgan, `morgan@${staffEmailDomain}`, "Morgan", "Lee", null, pw, 0, 1);

  const building = db.prepare(
    "INSERT INTO buildings (id, client_id, name, nickname, code, address_line1, address_line2, city, state, zipcode, timezone) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  for (const [id, name, nick, code, l1, l2, city, state, zip, tz] of HARBOR_BUILDING_ROWS) {
    building.run(id, CLIENT.harbor, name, nick, code, l1, l2, city, state, zip, tz);
  }
  building.run(
    MAPLE_BUILDING,
    CLIENT.maple,
    "Maple Dental Main Office",
    null,
    "MDL-001",
    "42 Elm St",
    null,
    "Portland",
    "ME",
    "04101",
    "America/New_York",
  );
  building.run(
    GREENWAY_BUILDING,
    CLIENT.greenway,
    "Greenway Homes Residence",
    null,
    "GWH-001",
    "9 Birch Ln",
    null,
    "Madison",
    "WI",
    "53703",
    "America/Chicago",
  );
  building.run(
    METRO_BUILDING,
    CLIENT.metro,
    "Metro Towers One",
    null,
    "MTT-001",
    "350 Fifth Ave",
    null,
    "New York",
    "NY",
    "10118",
    "America/New_York",
  );

  const access = db.prepare(
    "INSERT INTO user_building_access (user_id, building_id, has_access) VALUES (?, ?, ?)",
  );
  for (const [id] of HARBOR_BUILDING_ROWS) {
    access.run(USER.dana, id, 1);
    access.run(USER.sam, id, SAM_BUILDINGS.includes(id) ? 1 : 0);
  }
  access.run(USER.alex, MAPLE_BUILDING, 1);
  access.run(USER.riley, GREENWAY_BUILDING, 1);
  access.run(USER.jordan, METRO_BUILDING, 1);

  const utility = db.prepare(
    "INSERT INTO utilities (id, name, arcadia_provider_id, requires_ebill, is_coned, is_jcpl, mfa_exempt) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  for (const row of UTILITY_ROWS) utility.run(...row);

  const cred = db.prepare(
    "INSERT INTO utility_credentials (id, client_id, utility_id, username, state, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  for (const [id, utilityId, username, state] of HARBOR_CREDENTIALS) {
    cred.run(id, CLIENT.harbor, utilityId, username, state, addDays(today, -400).toISOString());
  }

  const account = db.prepare(
    "INSERT INTO utility_accounts (id, client_id, building_id, utility_id, credential_id, number, arcadia_account_status, arcadia_account_status_detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  for (const [id, buildingId, number, status, detail, credentialId] of HARBOR_ACCOUNT_ROWS) {
    account.run(
      id,
      CLIENT.harbor,
      buildingId,
      UTILITY_FOR_BUILDING[buildingId],
      credentialId,
      number,
      status,
      detail,
      now,
    );
  }
  account.run(
    4001,
    CLIENT.metro,
    METRO_BUILDING,
    1,
    null,
    "29-9000-1111-0001-1",
    "CONNECTION_SUCCESS",
    "DATA_ACCESSIBLE",
    now,
  );
}
