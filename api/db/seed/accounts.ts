import { prng } from "../../lib/prng";
import { addDays, type SeedContext } from "./context";
import { CLIENT, USER } from "./ids";

/** Extra Harbor team members with partial location access; they sign in with login links or codes. */
export const TEAM_USERS = {
  priya: {
    id: 70,
    email: "priya@harborcoffee.test",
    first: "Priya",
    last: "Shah",
    buildings: [103, 105, 110],
  },
  tomas: {
    id: 71,
    email: "tomas@harborcoffee.test",
    first: "Tomás",
    last: "Lindqvist",
    buildings: [] as number[],
  },
} as const;

export const PREFERENCE_TYPES = [
  "weekly_rundown",
  "monthly_recap",
  "device_issue",
  "system_performance",
  "bill_flag",
  "pricing_and_rate_outreach",
  "test_event",
  "demand_response_dispatch",
  "customer_comfort",
  "grid_event",
] as const;

/**
 * Onboarding steps that agree with each client's data (rule onboarding-matches-data, docs/rules.md): Harbor
 * has connected accounts, thermostats in the Control Room and chosen email preferences, so every step is
 * complete and the shell does not ask it to "Set up your account". Maple Dental, with no account connected and
 * no thermostat yet, shows all three statuses: Bill Monitoring not started, Thermostat Information in progress,
 * User Preferences complete (its user has chosen them).
 */
export const SEED_ONBOARDING: [clientId: number, id: number, name: string, status: string][] = [
  [CLIENT.harbor, 1, "bill_monitoring", "complete"],
  [CLIENT.harbor, 2, "thermostats", "complete"],
  [CLIENT.harbor, 3, "user_preferences", "complete"],
  [CLIENT.maple, 4, "bill_monitoring", "not_started"],
  [CLIENT.maple, 5, "thermostats", "in_progress"],
  [CLIENT.maple, 6, "user_preferences", "complete"],
];

export function seedAccounts(ctx: SeedContext) {
  const { db, today } = ctx;
  const rand = prng(7007);

  const user = db.prepare(
    "INSERT INTO users (id, email, first_name, last_name, client_id, password_hash, is_client_admin, is_staff) VALUES (?, ?, ?, ?, ?, NULL, 0, 0)",
  );
  const access = db.prepare(
    "INSERT INTO user_building_access (user_id, building_id, has_access) VALUES (?, ?, ?)",
  );
  for (const u of Object.values(TEAM_USERS)) {
    user.run(u.id, u.email, u.first, u.last, CLIENT.harbor);
    for (let b = 101; b <= 114; b++)
      access.run(u.id, b, (u.buildings as readonly number[]).includes(b) ? 1 : 0);
  }

  const step = db.prepare(
    "INSERT INTO onboarding_steps (id, client_id, name, status, position, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  SEED_ONBOARDING.forEach(([clientId, id, name, status], i) =>
    step.run(id, clientId, name, status, i % 3, addDays(today, -30 + i).toISOString()),
  );

  const pref = db.prepare(
    "INSERT INTO communication_preferences (user_id, communication_preference_type, delivery_method_preference, enabled) VALUES (?, ?, ?, ?)",
  );
  const people = [USER.dana, USER.sam, USER.alex, USER.morgan, TEAM_USERS.priya.id, TEAM_USERS.tomas.id];
  for (const id of people) {
    for (const type of PREFERENCE_TYPES) {
      // Dana's four editable toggles are fixed (tests rely on them): two on, one off, one on.
      const fixed: Record<string, number> = {
        bill_flag: 1,
        weekly_rundown: 1,
        monthly_recap: 0,
        customer_comfort: 1,
      };
      // Grid Event Notices are on for everyone (no draw: the other preferences stay as they were seeded).
      const enabled =
        type === "grid_event" ? 1 : id === USER.dana && type in fixed ? fixed[type] : rand() < 0.6 ? 1 : 0;
      pref.run(id, type, "email", enabled);
      if (type === "demand_response_dispatch") pref.run(id, type, "sms", rand() < 0.5 ? 1 : 0);
    }
  }

  // A ConEd account number Harbor already submitted by email approval, for the 'already submitted' answer.
  db.prepare(
    "INSERT INTO coned_submissions (client_id, correlation_id, account_number, created_at) VALUES (?, ?, ?, ?)",
  ).run(CLIENT.harbor, "seed-coned-0001", "29-4410-8801-0003-8", addDays(today, -12).toISOString());
}
